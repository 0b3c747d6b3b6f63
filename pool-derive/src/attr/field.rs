//! The `#[pool(...)]` attributes on a field: how it is reset.

use super::parse::{is_flag, key, pool_attrs, skip_value};
use super::{FIELD_KEYS, Item};
use crate::errors::Errors;
use proc_macro2::Span;
use syn::meta::ParseNestedMeta;
use syn::spanned::Spanned;
use syn::{Attribute, Expr, ExprPath, Token};

/// How one field is reset.
pub(crate) enum FieldReset {
    /// Through the field type's `Reset` implementation.
    Reset,
    /// `#[pool(reset = <expr>)]`: assigned the expression.
    Value(Expr),
    /// `#[pool(reset_with = <path>)]`: the function is called on the field.
    With(ExprPath),
    /// `#[pool(keep)]`: never reset.
    Keep,
}

impl FieldReset {
    pub(crate) fn key(&self) -> &'static str {
        match self {
            FieldReset::Reset => "",
            FieldReset::Value(_) => "reset",
            FieldReset::With(_) => "reset_with",
            FieldReset::Keep => "keep",
        }
    }
}

/// `#[pool(build = <expr>)]`: what builds the field's value once, when its slot is built.
pub(crate) struct Build {
    /// The span of the key.
    pub(crate) key: Span,
    pub(crate) expr: Expr,
}

/// A field's `#[pool(...)]` attributes.
pub(crate) struct FieldAttrs {
    pub(crate) reset: FieldReset,
    /// The span of the key that chose `reset`; none for the default, through `Reset`.
    pub(crate) key: Option<Span>,
    pub(crate) build: Option<Build>,
    /// `blank` on a field of an enum, where it does not belong: `valid` reports it with the
    /// variants.
    pub(crate) misplaced_blank: Option<Span>,
}

/// Reads a field's `#[pool(...)]` attributes.
pub(crate) fn field(attrs: &[Attribute], item: Item, errors: &mut Errors) -> FieldAttrs {
    let mut reset = FieldReset::Reset;
    let mut reset_span = None;
    let mut build: Option<Build> = None;
    let mut misplaced_blank = None;
    for attr in pool_attrs(attrs) {
        let parsed = attr.parse_nested_meta(|meta| {
            let key = key(&meta);
            let span = meta.path.span();
            let found = match key.as_str() {
                "reset" => {
                    if !meta.input.peek(Token![=]) {
                        errors.at(span, "`reset` needs a value, such as `reset = 1.0`; without the attribute, the field is reset through its type's `pooling::Reset`");
                        return skip_value(&meta);
                    }
                    FieldReset::Value(meta.value()?.parse()?)
                }
                "reset_with" => {
                    if !meta.input.peek(Token![=]) {
                        errors.at(span, "`reset_with` needs a function, such as `reset_with = clear_tint`, called as `clear_tint(&mut field)`");
                        return skip_value(&meta);
                    }
                    match meta.value()?.parse()? {
                        Expr::Path(path) => FieldReset::With(path),
                        other => {
                            errors.spanning(other, "`reset_with` takes the path of a function called as `f(&mut field)`, such as `reset_with = clear_tint`; to assign a value, use `reset = <expr>`");
                            return Ok(());
                        }
                    }
                }
                "build" => return read_build(&meta, &mut build, errors),
                "keep" => {
                    if !is_flag(&meta) {
                        errors.at(span, "`keep` takes no value: write `#[pool(keep)]`");
                        skip_value(&meta)?;
                    }
                    FieldReset::Keep
                }
                "size" => {
                    let item = item.word();
                    errors.at(span, format_args!("`size` goes on the {item}, not on a field: `#[pool(size = N)]` above `{item}`"));
                    return skip_value(&meta);
                }
                "on_full" | "evict_by" | "max" | "storage" | "name" | "vis" | "crate" => {
                    let item = item.word();
                    errors.at(span, format_args!("`{key}` goes on the {item}, not on a field"));
                    return skip_value(&meta);
                }
                "blank" if item == Item::Enum => {
                    misplaced_blank = Some(span);
                    return skip_value(&meta);
                }
                "blank" => {
                    errors.at(span, "`blank` marks the variant of an enum that every object is reset to; a struct's fields are reset one by one: remove it");
                    return skip_value(&meta);
                }
                _ => {
                    errors.at(span, format_args!("unknown pool attribute `{key}`: a field takes {FIELD_KEYS}"));
                    return skip_value(&meta);
                }
            };
            match reset.key() {
                "" => {
                    reset = found;
                    reset_span = Some(span);
                }
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
    if let (Some(built), FieldReset::Value(_)) = (&build, &reset) {
        errors.at(built.key, "`build` conflicts with `reset`: `reset = <expr>` gives the field its first value too, so what `build` built would be thrown away; remove `build`, or keep it and reset with `reset_with = <fn>` or the type's `Reset`");
        build = None;
    }
    FieldAttrs {
        reset,
        key: reset_span,
        build,
        misplaced_blank,
    }
}

/// `build = <expr>`, read into `build` unless it is already there or has no value (reported).
fn read_build(
    meta: &ParseNestedMeta<'_>,
    build: &mut Option<Build>,
    errors: &mut Errors,
) -> syn::Result<()> {
    let key = meta.path.span();
    if !meta.input.peek(Token![=]) {
        errors.at(key, "`build` needs the expression that builds the field once, when its slot is built, such as `build = Vec::with_capacity(4096)`");
        return skip_value(meta);
    }
    let expr = meta.value()?.parse()?;
    if build.is_some() {
        errors.at(key, "duplicate `build` on one field");
    } else {
        *build = Some(Build { key, expr });
    }
    Ok(())
}
