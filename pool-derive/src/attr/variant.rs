//! The `#[pool(...)]` attributes on an enum's variant.

use super::VARIANT_KEYS;
use super::parse::{is_flag, key, pool_attrs, skip_value};
use crate::errors::Errors;
use proc_macro2::Span;
use syn::Attribute;
use syn::spanned::Spanned;

/// Reads a variant's `#[pool(...)]` attributes: the span of `blank`, if it is there.
pub(crate) fn variant(attrs: &[Attribute], errors: &mut Errors) -> Option<Span> {
    let mut blank = None;
    for attr in pool_attrs(attrs) {
        let parsed = attr.parse_nested_meta(|meta| {
            let key = key(&meta);
            let span = meta.path.span();
            match key.as_str() {
                "blank" if blank.is_some() => {
                    errors.at(span, "duplicate `blank` on one variant");
                }
                "blank" => {
                    if !is_flag(&meta) {
                        errors.at(span, "`blank` takes no value: write `#[pool(blank)]`");
                        skip_value(&meta)?;
                    }
                    blank = Some(span);
                }
                "reset" | "reset_with" | "keep" | "build" => {
                    errors.at(span, format_args!("`{key}` goes on a field of the blank variant, not on a variant"));
                    return skip_value(&meta);
                }
                "size" | "sync" | "on_full" | "evict_by" | "max" | "storage" | "name" | "vis" | "crate" => {
                    errors.at(span, format_args!("`{key}` goes on the enum, not on a variant: `#[pool({key} = ...)]` above `enum`"));
                    return skip_value(&meta);
                }
                _ => {
                    errors.at(span, format_args!("unknown pool attribute `{key}`: a variant takes only {VARIANT_KEYS}"));
                    return skip_value(&meta);
                }
            }
            Ok(())
        });
        if let Err(error) = parsed {
            errors.push(error);
        }
    }
    blank
}
