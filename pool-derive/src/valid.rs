//! The rules that look at the input as a whole rather than at one attribute.

use crate::Derive;
use crate::ast::Input;
use crate::attr::{Count, OnFull};
use crate::errors::Errors;
use syn::Data;

const SHAPES: &str = "structs with named fields, tuple structs and unit structs";

pub(crate) fn check(input: &Input<'_>, errors: &mut Errors) {
    let derive = input.derive.name();
    match &input.node.data {
        Data::Struct(_) => {}
        Data::Enum(data) => errors.at(
            data.enum_token.span,
            format_args!(
                "`#[derive({derive})]` supports {SHAPES}, not enums: put the enum in a field of a struct and reset it with `#[pool(reset = MyEnum::Idle)]`, or implement `pooled::Reset` for it by hand"
            ),
        ),
        Data::Union(data) => errors.at(
            data.union_token.span,
            format_args!(
                "`#[derive({derive})]` supports {SHAPES}, not unions: a union's fields cannot be told apart to reset them"
            ),
        ),
    }
    if input.derive != Derive::Pooled {
        return;
    }
    for param in input.node.generics.lifetimes() {
        errors.spanning(
            &param.lifetime,
            format_args!(
                "a pooled object cannot hold a borrow (`{}`): it lives as long as its pool, which may outlive what it borrows; hold owned data, an `Option<Rc<T>>` or a `pooled::Handle` instead",
                param.lifetime
            ),
        );
    }
    let attrs = &input.attrs;
    if let Count::Missing = attrs.size {
        errors.spanning(
            &input.node.ident,
            "the pool needs a size: add `#[pool(size = N)]` to the struct, N being the most objects alive at once (the pool builds them all up front)",
        );
    }
    match (attrs.on_full, &attrs.evict_by) {
        (Some((span, OnFull::Evict)), None) => errors.at(
            span,
            "`on_full = evict` needs `evict_by = <measure>`, a `fn(&T) -> K` with `K: Ord` (floats as `pooled::TotalOrder`): the object it ranks lowest is evicted",
        ),
        (on_full, Some((span, _))) if !matches!(on_full, Some((_, OnFull::Evict))) => errors.at(
            *span,
            "`evict_by` ranks the objects that `on_full = evict` may evict; add `on_full = evict`, or remove `evict_by`",
        ),
        _ => {}
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

fn literal(int: &syn::LitInt) -> u64 {
    int.base10_parse().expect("checked when parsed")
}
