//! The `#[pool(...)]` attributes on the struct or enum.

use super::parse::{key, pool_attrs, skip_value};
use super::values::{self, Layout, OnFull, Storage};
use super::{FIELD_KEYS, Item, STRUCT_KEYS, VARIANT_KEYS};
use crate::Derive;
use crate::config::Count;
use crate::errors::Errors;
use proc_macro2::{Ident, Span};
use syn::spanned::Spanned;
use syn::{Attribute, Expr, Path, Token, Visibility};

/// The struct's or enum's `#[pool(...)]` attributes as written, each with the span of its key
/// (or value, for `on_full`) for errors about how they combine. A key given wrong is reported
/// and left out; `valid` turns what is left into a `config::Pool`.
pub(crate) struct Container {
    pub(crate) size: Option<Count>,
    /// `size` was given wrong, or an attribute that may have held it failed to parse: reported,
    /// so it is not also reported missing.
    pub(crate) size_reported: bool,
    pub(crate) on_full: Option<(Span, OnFull)>,
    /// The key's span, and the measure unless it was wrong.
    pub(crate) evict_by: Option<(Span, Option<Expr>)>,
    /// The key's span, and the count unless it was wrong.
    pub(crate) max: Option<(Span, Option<Count>)>,
    pub(crate) storage: Option<(Span, Storage)>,
    /// `name = Sparks`: the pool type's name instead of `FooPool`.
    pub(crate) name: Option<Ident>,
    /// `vis = pub(crate)`: the pool type's visibility instead of the struct's.
    pub(crate) vis: Option<Visibility>,
    /// `crate = my_engine::pooling`: where generated code finds the `pooling` crate.
    pub(crate) krate: Option<Path>,
    /// `blank` on the enum, where it does not belong: `valid` reports it with the variants.
    pub(crate) misplaced_blank: Option<Span>,
    /// `sync`: the pool is a `SyncPool`, shared across threads. The key's span.
    pub(crate) sync: Option<Span>,
    /// `layout = columns`: each field in an array of its own. The key's span.
    pub(crate) layout: Option<(Span, Layout)>,
}

/// Reads the struct's or enum's `#[pool(...)]` attributes.
pub(crate) fn container(
    attrs: &[Attribute],
    derive: Derive,
    item: Item,
    errors: &mut Errors,
) -> Container {
    let mut container = Container {
        size: None,
        size_reported: false,
        on_full: None,
        evict_by: None,
        max: None,
        storage: None,
        name: None,
        vis: None,
        krate: None,
        misplaced_blank: None,
        sync: None,
        layout: None,
    };
    let mut seen: Vec<String> = Vec::new();
    for attr in pool_attrs(attrs) {
        let parsed = attr.parse_nested_meta(|meta| {
            let key = key(&meta);
            let span = meta.path.span();
            let known = matches!(
                key.as_str(),
                "size"
                    | "sync"
                    | "on_full"
                    | "evict_by"
                    | "max"
                    | "storage"
                    | "layout"
                    | "name"
                    | "vis"
                    | "crate"
            );
            if known && seen.contains(&key) {
                errors.at(span, format_args!("duplicate `{key}`: give it once"));
                return skip_value(&meta);
            }
            if key == "crate" {
                container.krate = values::krate(&meta, errors)?;
                seen.push(key);
                return Ok(());
            }
            if known && derive == Derive::Reset {
                errors.at(span, format_args!("`#[derive(Reset)]` takes no `{key}`: that belongs to `#[derive(Pooled)]`, and a pooled struct should not also derive `Reset`, whose public `Reset::blank` would build it outside its pool"));
                return skip_value(&meta);
            }
            match key.as_str() {
                "size" => {
                    container.size = values::count(&meta, "size", errors)?;
                    container.size_reported = container.size.is_none();
                }
                "sync" => container.sync = values::sync(&meta, errors)?,
                "max" => container.max = Some((span, values::count(&meta, "max", errors)?)),
                "on_full" => container.on_full = values::on_full(&meta, errors)?,
                "storage" => container.storage = values::storage(&meta, errors)?,
                "layout" => container.layout = values::layout(&meta, errors)?,
                "evict_by" => {
                    if !meta.input.peek(Token![=]) {
                        errors.at(span, "`evict_by` needs the measure of an object's importance, such as `evict_by = Voice::loudness`, a `fn(&Voice) -> K` where `K: Ord`");
                        return skip_value(&meta);
                    }
                    container.evict_by = Some((span, values::evict_by(&meta, errors)?));
                }
                "name" => container.name = values::name(&meta, errors)?,
                "vis" => container.vis = values::vis(&meta, errors)?,
                "reset" | "reset_with" | "keep" | "build" if item == Item::Struct => {
                    errors.at(span, format_args!("`{key}` goes on a field, not on the struct"));
                    return skip_value(&meta);
                }
                "reset" | "reset_with" | "keep" | "build" => {
                    errors.at(span, format_args!("`{key}` goes on a field of the blank variant, not on the enum"));
                    return skip_value(&meta);
                }
                "blank" if item == Item::Struct => {
                    errors.at(span, "`blank` marks the variant of an enum that every object is reset to; a struct has no variants: remove it");
                    return skip_value(&meta);
                }
                "blank" => {
                    container.misplaced_blank = Some(span);
                    return skip_value(&meta);
                }
                _ => {
                    errors.at(span, unknown(&key, derive, item));
                    return skip_value(&meta);
                }
            }
            seen.push(key);
            Ok(())
        });
        if let Err(error) = parsed {
            errors.push(error);
            // The attribute may have held the size: do not also report it missing.
            container.size_reported |= container.size.is_none();
        }
    }
    container
}

fn unknown(key: &str, derive: Derive, item: Item) -> String {
    match (derive, item) {
        (Derive::Pooled, Item::Enum) => format!(
            "unknown pool attribute `{key}`: on an enum, `#[pool(...)]` takes {STRUCT_KEYS}; on a variant, {VARIANT_KEYS}; on a field of the blank variant, {FIELD_KEYS}"
        ),
        (Derive::Pooled, Item::Struct) => format!(
            "unknown pool attribute `{key}`: on a struct, `#[pool(...)]` takes {STRUCT_KEYS}; on a field, {FIELD_KEYS}"
        ),
        (Derive::Reset, Item::Enum) => format!(
            "unknown pool attribute `{key}`: `#[derive(Reset)]` takes {VARIANT_KEYS} on a variant, {FIELD_KEYS} on the blank variant's fields, and only `crate = <path>` on the enum"
        ),
        (Derive::Reset, Item::Struct) => format!(
            "unknown pool attribute `{key}`: `#[derive(Reset)]` takes {FIELD_KEYS} on fields, and only `crate = <path>` on the struct"
        ),
    }
}
