//! The rules that look at the input as a whole rather than at one attribute.

use crate::ast::{Derive, Input};
use crate::attr::SizeAttr;
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
    if let SizeAttr::Missing = input.size {
        errors.spanning(
            &input.node.ident,
            "the pool needs a size: add `#[pool(size = N)]` to the struct, N being the most objects alive at once (the pool builds them all up front)",
        );
    }
}
