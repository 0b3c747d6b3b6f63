//! The rules that look at the input as a whole rather than at one attribute.

use crate::Derive;
use crate::ast::{Body, Input, Variant};
use crate::attr::{Count, OnFull, Storage};
use crate::errors::Errors;
use syn::Data;

pub(crate) fn check(input: &Input<'_>, errors: &mut Errors) {
    let derive = input.derive.name();
    match (&input.body, &input.node.data) {
        (Body::Enum(variants), _) => check_variants(input, variants, errors),
        (Body::Union, Data::Union(data)) => errors.at(
            data.union_token.span,
            format_args!(
                "`#[derive({derive})]` supports structs and enums, not unions: a union does not record which of its fields holds a value, so none can be reset; use an enum with a `#[pool(blank)]` variant"
            ),
        ),
        _ => {}
    }
    if input.derive != Derive::Pooled {
        return;
    }
    for param in input.node.generics.lifetimes() {
        errors.spanning(
            &param.lifetime,
            format_args!(
                "a pooled object cannot hold a borrow (`{}`): it lives as long as its pool, which may outlive what it borrows; hold owned data, an `Option<Rc<T>>` or a `pooling::Handle` instead",
                param.lifetime
            ),
        );
    }
    let attrs = &input.attrs;
    if let Count::Missing = attrs.size {
        errors.spanning(
            &input.node.ident,
            format_args!("the pool needs a size: add `#[pool(size = N)]` to the {}, N being the most objects alive at once (the pool builds them all up front)", input.item().word()),
        );
    }
    match (attrs.on_full, &attrs.evict_by) {
        (Some((span, OnFull::Evict)), None) => errors.at(
            span,
            "`on_full = evict` needs `evict_by = <measure>`, a `fn(&T) -> K` with `K: Ord` (floats as `pooling::TotalOrder`): the object it ranks lowest is evicted",
        ),
        (on_full, Some((span, _))) if !matches!(on_full, Some((_, OnFull::Evict))) => errors.at(
            *span,
            "`evict_by` ranks the objects that `on_full = evict` may evict; add `on_full = evict`, or remove `evict_by`",
        ),
        _ => {}
    }
    if let (Some((span, Storage::Inline)), OnFull::Grow) = (attrs.storage, attrs.on_full()) {
        errors.at(
            span,
            "`storage = inline` cannot grow: its slots are an array inside the pool, and growing needs the heap; choose `on_full = fail`, `panic` or `evict` and a `size` for the most objects alive at once, or keep `on_full = grow` with `storage = heap`",
        );
    }
    if let (Some(_), Some((span, Storage::Inline))) = (attrs.sync, attrs.storage) {
        errors.at(
            span,
            "`storage = inline` cannot go with `sync`: a pool shared across threads keeps its slots on the heap; remove `storage = inline`, or remove `sync` and share the inline pool behind your own lock",
        );
    }
    if attrs.sync.is_some() {
        match attrs.on_full {
            Some((span, OnFull::Evict)) => errors.at(
                span,
                "`on_full = evict` cannot go with `sync`: evicting resets a live object, which another thread may be reading through a guard; use `on_full = fail` (the default) and release objects when done, or `on_full = panic`",
            ),
            Some((span, OnFull::Grow)) => errors.at(
                span,
                format_args!(
                    "`on_full = grow` cannot go with `sync`: a pool shared across threads cannot grow without locks, since growing would move the objects or need an unbounded table of chunks; size it up front with `size = N` for the most objects alive at once, or remove `sync` and share a `Mutex<{}>`",
                    crate::pool_type::name(input)
                ),
            ),
            _ => {}
        }
    }
    if let Some((span, max)) = &attrs.max {
        if attrs.on_full() != OnFull::Grow {
            errors.at(
                *span,
                "`max` limits how far a pool grows, so it needs `on_full = grow`",
            );
        } else if let (Count::Literal(max), Count::Literal(size)) = (max, &attrs.size) {
            let (max_value, size_value) = (literal(max), literal(size));
            if max_value < size_value {
                errors.spanning(
                    max,
                    format_args!(
                        "`max = {max_value}` is below `size = {size_value}`: a growing pool starts with `size` slots and grows up to `max`"
                    ),
                );
            }
        }
    }
}

/// One variant, and only one, is marked `#[pool(blank)]`; field attributes sit only in it.
fn check_variants(input: &Input<'_>, variants: &[Variant<'_>], errors: &mut Errors) {
    let ident = &input.node.ident;
    let derive = input.derive.name();
    if variants.is_empty() {
        errors.spanning(
            ident,
            format_args!(
                "`#[derive({derive})]` needs an enum with variants: `{ident}` has no values, so there is no blank object to build; add a variant marked `#[pool(blank)]`"
            ),
        );
        return;
    }
    let mut marked = variants.iter().filter(|variant| variant.blank.is_some());
    let Some(blank) = marked.next() else {
        // A `blank` put on the enum or a field was reported already, saying where it goes.
        let misplaced = input.attrs.misplaced_blank
            || (variants.iter())
                .flat_map(|variant| &variant.fields)
                .any(|field| field.misplaced_blank);
        if misplaced {
            return;
        }
        // A unit variant is the likeliest blank object.
        let first = (variants.iter())
            .find(|variant| variant.fields.is_empty())
            .unwrap_or(&variants[0])
            .ident;
        errors.spanning(
            ident,
            format_args!(
                "`#[derive({derive})]` on an enum needs its blank variant, the one every object is reset to: add `#[pool(blank)]` above it, such as above `{first}` (a unit variant, or one whose fields reset as a struct's do)"
            ),
        );
        return;
    };
    for other in marked {
        errors.at(
            other.blank.expect("marked"),
            format_args!(
                "only one variant can be the blank object, and `{}` already is: remove one of the `#[pool(blank)]`s",
                blank.ident
            ),
        );
    }
    for variant in variants.iter().filter(|variant| variant.blank.is_none()) {
        for field in &variant.fields {
            if let Some(span) = field.reset_key {
                errors.at(
                    span,
                    format_args!(
                        "`{}` is for fields of the blank variant, `{}`: release replaces a `{}` with a blank `{}`, dropping its fields, so they are never reset; remove the attribute",
                        field.reset.key(),
                        blank.ident,
                        variant.ident,
                        blank.ident,
                    ),
                );
            }
        }
    }
}

fn literal(int: &syn::LitInt) -> u64 {
    int.base10_parse().expect("checked when parsed")
}
