//! Reading `#[pool(...)]` attributes.

use crate::ast::Derive;
use crate::errors::Errors;
use proc_macro2::{Span, TokenTree};
use syn::meta::ParseNestedMeta;
use syn::spanned::Spanned;
use syn::{Attribute, Expr, ExprLit, ExprPath, ExprUnary, Lit, LitInt, Token, UnOp};

/// The largest `size`: slot indices are 32-bit.
const MAX_SIZE: u64 = u32::MAX as u64;

const FIELD_KEYS: &str = "`reset = <expr>`, `reset_with = <function>` or `keep`";

/// What `#[pool(size = ...)]` said, if anything.
pub(crate) enum SizeAttr {
    Missing,
    /// Given but wrong; the error is already reported.
    Invalid,
    /// A literal, checked here, re-emitted without its suffix.
    Literal(LitInt),
    /// A constant expression, checked when the compiler evaluates it.
    Const(Expr),
}

/// How one field is reset.
pub(crate) enum Strategy {
    /// Through the field type's `Reset` implementation.
    Reset,
    /// `#[pool(reset = <expr>)]`: assigned the expression.
    Value(Expr),
    /// `#[pool(reset_with = <path>)]`: the function is called on the field.
    With(ExprPath),
    /// `#[pool(keep)]`: never reset.
    Keep,
}

impl Strategy {
    fn key(&self) -> &'static str {
        match self {
            Strategy::Reset => "",
            Strategy::Value(_) => "reset",
            Strategy::With(_) => "reset_with",
            Strategy::Keep => "keep",
        }
    }
}

/// Reads the struct's `#[pool(...)]` attributes.
pub(crate) fn container(attrs: &[Attribute], derive: Derive, errors: &mut Errors) -> SizeAttr {
    let mut size = SizeAttr::Missing;
    let mut size_span: Option<Span> = None;
    for attr in pool_attrs(attrs) {
        let parsed = attr.parse_nested_meta(|meta| {
            let key = key(&meta);
            match key.as_str() {
                "size" if derive == Derive::Pooled => {
                    let span = meta.path.span();
                    let value = size_value(&meta, errors)?;
                    if size_span.is_some() {
                        errors.at(span, "duplicate `size`: give the pool's size once");
                    } else {
                        size_span = Some(span);
                        size = value;
                    }
                    return Ok(());
                }
                "size" => errors.at(
                    meta.path.span(),
                    "`#[derive(Reset)]` takes no `size`: that belongs to `#[derive(Pooled)]`, and a pooled struct should not also derive `Reset`, whose public `Reset::blank` would build it outside its pool",
                ),
                "reset" | "reset_with" | "keep" => errors.at(
                    meta.path.span(),
                    format_args!("`{key}` goes on a field, not on the struct"),
                ),
                _ if derive == Derive::Pooled => errors.at(
                    meta.path.span(),
                    format_args!("unknown pool attribute `{key}`: on a struct, `#[pool(...)]` takes `size = N`; on a field, {FIELD_KEYS}"),
                ),
                _ => errors.at(
                    meta.path.span(),
                    format_args!("unknown pool attribute `{key}`: `#[derive(Reset)]` takes {FIELD_KEYS} on fields, and nothing on the struct"),
                ),
            }
            skip_value(&meta)
        });
        if let Err(error) = parsed {
            errors.push(error);
        }
    }
    size
}

/// Reads a field's `#[pool(...)]` attributes.
pub(crate) fn field(attrs: &[Attribute], errors: &mut Errors) -> Strategy {
    let mut strategy = Strategy::Reset;
    for attr in pool_attrs(attrs) {
        let parsed = attr.parse_nested_meta(|meta| {
            let key = key(&meta);
            let span = meta.path.span();
            let found = match key.as_str() {
                "reset" => {
                    if !meta.input.peek(Token![=]) {
                        errors.at(span, "`reset` needs a value, such as `reset = 1.0`; without the attribute, the field is reset through its type's `pooled::Reset`");
                        return skip_value(&meta);
                    }
                    Strategy::Value(meta.value()?.parse()?)
                }
                "reset_with" => {
                    if !meta.input.peek(Token![=]) {
                        errors.at(span, "`reset_with` needs a function, such as `reset_with = clear_tint`, called as `clear_tint(&mut field)`");
                        return skip_value(&meta);
                    }
                    match meta.value()?.parse()? {
                        Expr::Path(path) => Strategy::With(path),
                        other => {
                            errors.spanning(other, "`reset_with` takes the path of a function called as `f(&mut field)`, such as `reset_with = clear_tint`; to assign a value, use `reset = <expr>`");
                            return Ok(());
                        }
                    }
                }
                "keep" => {
                    if !meta.input.is_empty() && !meta.input.peek(Token![,]) {
                        errors.at(span, "`keep` takes no value: write `#[pool(keep)]`");
                        skip_value(&meta)?;
                    }
                    Strategy::Keep
                }
                "size" => {
                    errors.at(span, "`size` goes on the struct, not on a field: `#[pool(size = N)]` above `struct`");
                    return skip_value(&meta);
                }
                _ => {
                    errors.at(span, format_args!("unknown pool attribute `{key}`: a field takes {FIELD_KEYS}"));
                    return skip_value(&meta);
                }
            };
            match strategy.key() {
                "" => strategy = found,
                previous if previous == found.key() => {
                    errors.at(span, format_args!("duplicate `{previous}` on one field"));
                }
                previous => errors.at(
                    span,
                    format_args!(
                        "`{}` conflicts with `{previous}`: a field is reset one way, or kept with `keep`; remove one",
                        found.key()
                    ),
                ),
            }
            Ok(())
        });
        if let Err(error) = parsed {
            errors.push(error);
        }
    }
    strategy
}

fn pool_attrs(attrs: &[Attribute]) -> impl Iterator<Item = &Attribute> {
    attrs.iter().filter(|attr| attr.path().is_ident("pool"))
}

fn key(meta: &ParseNestedMeta<'_>) -> String {
    meta.path.get_ident().map_or_else(
        || {
            let segments = meta.path.segments.iter();
            segments
                .map(|s| s.ident.to_string())
                .collect::<Vec<_>>()
                .join("::")
        },
        ToString::to_string,
    )
}

/// Consumes what follows a key reported as an error, so that the keys after it are still read.
fn skip_value(meta: &ParseNestedMeta<'_>) -> syn::Result<()> {
    if meta.input.peek(Token![=]) {
        meta.value()?.parse::<Expr>()?;
    } else if !meta.input.is_empty() && !meta.input.peek(Token![,]) {
        meta.input.parse::<TokenTree>()?;
    }
    Ok(())
}

fn size_value(meta: &ParseNestedMeta<'_>, errors: &mut Errors) -> syn::Result<SizeAttr> {
    if !meta.input.peek(Token![=]) {
        errors.at(
            meta.path.span(),
            "`size` needs a value: the number of objects the pool builds up front, such as `size = 256`",
        );
        skip_value(meta)?;
        return Ok(SizeAttr::Invalid);
    }
    let expr: Expr = meta.value()?.parse()?;
    let lit = match &expr {
        Expr::Lit(ExprLit { lit, .. }) => lit,
        Expr::Unary(ExprUnary {
            op: UnOp::Neg(_),
            expr: inner,
            ..
        }) if matches!(**inner, Expr::Lit(_)) => {
            errors.spanning(&expr, "`size` is a number of slots, at least 1");
            return Ok(SizeAttr::Invalid);
        }
        _ => return Ok(SizeAttr::Const(expr)),
    };
    let message = match lit {
        Lit::Int(int) => match int.base10_parse::<u64>() {
            Ok(0) => "a pool needs at least one slot: `size` must be 1 or more".to_owned(),
            Ok(n) if n > MAX_SIZE => {
                format!("`size` can be at most {MAX_SIZE}: slot indices are 32-bit")
            }
            Ok(n) => return Ok(SizeAttr::Literal(LitInt::new(&n.to_string(), int.span()))),
            Err(error) => error.to_string(),
        },
        Lit::Str(text) => format!(
            "`size` takes a number, not a string: write `size = {}`",
            text.value().trim()
        ),
        _ => "`size` takes a whole number of slots, such as `size = 256`".to_owned(),
    };
    errors.spanning(lit, message);
    Ok(SizeAttr::Invalid)
}
