//! The values of the container's keys: each read, or reported and `None`.

use super::parse::{is_flag, not_a_word, skip_value};
use crate::config::Count;
use crate::errors::Errors;
use proc_macro2::{Ident, Span};
use syn::meta::ParseNestedMeta;
use syn::spanned::Spanned;
use syn::{Expr, ExprLit, ExprPath, ExprUnary, Lit, Path, Token, UnOp, Visibility};

/// The largest `size`: slot indices are 32-bit, and the runtime keeps two values for itself.
const MAX_SIZE: u64 = u32::MAX as u64 - 1;

/// What a full pool does, as `#[pool(on_full = ...)]` says it.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum OnFull {
    Fail,
    Panic,
    Evict,
    Grow,
}

impl OnFull {
    const CHOICES: &str = "`fail` (the default), `panic`, `evict` or `grow`";

    fn from_ident(ident: &Ident) -> Option<Self> {
        Some(match ident.to_string().as_str() {
            "fail" => OnFull::Fail,
            "panic" => OnFull::Panic,
            "evict" => OnFull::Evict,
            "grow" => OnFull::Grow,
            _ => return None,
        })
    }
}

/// Where the pool keeps its objects, as `#[pool(storage = ...)]` says it.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Storage {
    Heap,
    Inline,
}

impl Storage {
    const CHOICES: &str = "`heap` (the default: allocated once, sized at run time) or `inline` (inside the pool, no allocator)";
}

/// How the pool lays out its objects, as `#[pool(layout = ...)]` says it.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Layout {
    /// Each object whole, its fields side by side: the default.
    Objects,
    /// Each field in an array of its own.
    Columns,
}

impl Layout {
    const CHOICES: &str = "`objects` (the default: each object whole) or `columns` (each field in an array of its own)";
}

/// `layout = objects | columns`: `None` if it is wrong (reported).
pub(super) fn layout(
    meta: &ParseNestedMeta<'_>,
    errors: &mut Errors,
) -> syn::Result<Option<(Span, Layout)>> {
    let span = meta.path.span();
    if !meta.input.peek(Token![=]) {
        errors.at(
            span,
            format_args!("`layout` needs a kind: {}", Layout::CHOICES),
        );
        skip_value(meta)?;
        return Ok(None);
    }
    let value: Expr = meta.value()?.parse()?;
    let ident = match &value {
        Expr::Path(path) => path.path.get_ident(),
        _ => None,
    };
    match ident.map(ToString::to_string).as_deref() {
        Some("objects") => return Ok(Some((span, Layout::Objects))),
        Some("columns") => return Ok(Some((span, Layout::Columns))),
        _ => {}
    }
    let unknown = format!("unknown `layout`: write {}", Layout::CHOICES);
    errors.spanning(&value, not_a_word("layout", &value, unknown));
    Ok(None)
}

/// `size = N` or `max = N`: `None` if it is wrong (reported).
pub(super) fn count(
    meta: &ParseNestedMeta<'_>,
    key: &str,
    errors: &mut Errors,
) -> syn::Result<Option<Count>> {
    if !meta.input.peek(Token![=]) {
        errors.at(
            meta.path.span(),
            format_args!("`{key}` needs a value: a number of slots, such as `{key} = 256`"),
        );
        skip_value(meta)?;
        return Ok(None);
    }
    let expr: Expr = meta.value()?.parse()?;
    let lit = match &expr {
        Expr::Lit(ExprLit { lit, .. }) => lit,
        Expr::Unary(ExprUnary {
            op: UnOp::Neg(_),
            expr: inner,
            ..
        }) if matches!(**inner, Expr::Lit(_)) => {
            errors.spanning(
                &expr,
                format_args!("`{key}` is a number of slots, at least 1"),
            );
            return Ok(None);
        }
        _ => return Ok(Some(Count::Const(Box::new(expr)))),
    };
    let message = match lit {
        Lit::Int(int) => match int.base10_parse::<u64>() {
            Ok(0) => format!("a pool needs at least one slot: `{key}` must be 1 or more"),
            Ok(n) if n > MAX_SIZE => {
                format!("`{key}` can be at most {MAX_SIZE}: slot indices are 32-bit")
            }
            Ok(value) => {
                let span = int.span();
                return Ok(Some(Count::Literal { value, span }));
            }
            Err(error) => error.to_string(),
        },
        Lit::Str(text) => format!(
            "`{key}` takes a number, not a string: write `{key} = {}`",
            text.value().trim()
        ),
        _ => format!("`{key}` takes a whole number of slots, such as `{key} = 256`"),
    };
    errors.spanning(lit, message);
    Ok(None)
}

/// The measure of `evict_by = <measure>`, or `None` if it is neither a path nor a closure
/// (reported).
pub(super) fn evict_by(
    meta: &ParseNestedMeta<'_>,
    errors: &mut Errors,
) -> syn::Result<Option<Expr>> {
    // A measure passed through a `macro_rules!` `$measure:expr` arrives in an invisible group.
    let mut measure = meta.value()?.parse()?;
    while let Expr::Group(group) = measure {
        measure = *group.expr;
    }
    match measure {
        measure @ (Expr::Path(_) | Expr::Closure(_)) => Ok(Some(measure)),
        other => {
            errors.spanning(other, "`evict_by` takes a function or closure that measures an object's importance, such as `evict_by = Voice::loudness` or `evict_by = |v| v.priority`");
            Ok(None)
        }
    }
}

/// `sync`, a flag: its span, or `None` if it was given a value (reported).
pub(super) fn sync(meta: &ParseNestedMeta<'_>, errors: &mut Errors) -> syn::Result<Option<Span>> {
    let span = meta.path.span();
    if is_flag(meta) {
        return Ok(Some(span));
    }
    errors.at(span, "`sync` is a flag and takes no value: write `#[pool(size = N, sync)]` for a pool shared across threads");
    skip_value(meta)?;
    Ok(None)
}

pub(super) fn name(meta: &ParseNestedMeta<'_>, errors: &mut Errors) -> syn::Result<Option<Ident>> {
    const NAME: &str = "`name` takes the pool type's name, such as `name = Sparks`";
    if !meta.input.peek(Token![=]) {
        errors.at(meta.path.span(), NAME);
        skip_value(meta)?;
        return Ok(None);
    }
    let value: Expr = meta.value()?.parse()?;
    if let Expr::Path(path) = &value
        && let Some(ident) = path.path.get_ident()
    {
        return Ok(Some(ident.clone()));
    }
    if let Expr::Lit(ExprLit {
        lit: Lit::Str(text),
        ..
    }) = &value
    {
        errors.spanning(
            text,
            format_args!(
                "`name` takes a name, not a string: write `name = {}`",
                text.value()
            ),
        );
    } else {
        errors.spanning(value, NAME);
    }
    Ok(None)
}

pub(super) fn vis(
    meta: &ParseNestedMeta<'_>,
    errors: &mut Errors,
) -> syn::Result<Option<Visibility>> {
    const VIS: &str = "`vis` takes a visibility: `vis = pub`, `vis = pub(crate)`, `vis = pub(super)`, or `vis = \"\"` for private";
    if !meta.input.peek(Token![=]) {
        errors.at(meta.path.span(), VIS);
        skip_value(meta)?;
        return Ok(None);
    }
    let input = meta.value()?;
    if input.peek(Token![pub]) {
        return input.parse().map(Some);
    }
    if input.peek(syn::LitStr) {
        let text: syn::LitStr = input.parse()?;
        if let Ok(vis) = syn::parse_str::<Visibility>(&text.value()) {
            return Ok(Some(vis));
        }
        errors.spanning(text, VIS);
        return Ok(None);
    }
    let other: Expr = input.parse()?;
    errors.spanning(other, VIS);
    Ok(None)
}

pub(super) fn krate(meta: &ParseNestedMeta<'_>, errors: &mut Errors) -> syn::Result<Option<Path>> {
    const CRATE: &str = "`crate` takes the path at which generated code finds the `pooling` crate, such as `crate = my_engine::pooling` or `crate = \"my_engine::pooling\"`";
    if !meta.input.peek(Token![=]) {
        errors.at(meta.path.span(), CRATE);
        skip_value(meta)?;
        return Ok(None);
    }
    match meta.value()?.parse()? {
        Expr::Path(ExprPath {
            qself: None, path, ..
        }) => Ok(Some(path)),
        Expr::Lit(ExprLit {
            lit: Lit::Str(text),
            ..
        }) => {
            if let Ok(path) = text.parse::<Path>() {
                return Ok(Some(path));
            }
            errors.spanning(text, CRATE);
            Ok(None)
        }
        other => {
            errors.spanning(other, CRATE);
            Ok(None)
        }
    }
}

pub(super) fn on_full(
    meta: &ParseNestedMeta<'_>,
    errors: &mut Errors,
) -> syn::Result<Option<(Span, OnFull)>> {
    if !meta.input.peek(Token![=]) {
        errors.at(
            meta.path.span(),
            format_args!("`on_full` needs a strategy: {}", OnFull::CHOICES),
        );
        skip_value(meta)?;
        return Ok(None);
    }
    let value: Expr = meta.value()?.parse()?;
    let ident = match &value {
        Expr::Path(path) => path.path.get_ident(),
        _ => None,
    };
    if let Some(ident) = ident
        && let Some(on_full) = OnFull::from_ident(ident)
    {
        return Ok(Some((ident.span(), on_full)));
    }
    let unknown = format!("unknown `on_full` strategy: write {}", OnFull::CHOICES);
    errors.spanning(&value, not_a_word("on_full", &value, unknown));
    Ok(None)
}

pub(super) fn storage(
    meta: &ParseNestedMeta<'_>,
    errors: &mut Errors,
) -> syn::Result<Option<(Span, Storage)>> {
    let span = meta.path.span();
    if !meta.input.peek(Token![=]) {
        errors.at(
            span,
            format_args!("`storage` needs a kind: {}", Storage::CHOICES),
        );
        skip_value(meta)?;
        return Ok(None);
    }
    let value: Expr = meta.value()?.parse()?;
    let ident = match &value {
        Expr::Path(path) => path.path.get_ident(),
        _ => None,
    };
    match ident.map(ToString::to_string).as_deref() {
        Some("heap") => return Ok(Some((span, Storage::Heap))),
        Some("inline") => return Ok(Some((span, Storage::Inline))),
        _ => {}
    }
    let unknown = format!("unknown `storage` kind: write {}", Storage::CHOICES);
    errors.spanning(&value, not_a_word("storage", &value, unknown));
    Ok(None)
}
