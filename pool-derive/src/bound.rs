//! Bound inference: the where clause of a generated impl, from the field types that mention a
//! type parameter.

use crate::ast::Input;
use crate::attr::FieldReset;
use crate::config::Shape;
use proc_macro2::{TokenStream, TokenTree};
use quote::ToTokens;
use syn::{Ident, WhereClause, WherePredicate};

/// The input's where clause, plus a bound for each reset field type (the struct's, or the enum's
/// blank variant's) that mentions a type parameter: `Reset` where the field is reset through
/// it, `Default` where it is built from it (no `build`). Other variants' fields are only
/// dropped.
pub(crate) fn where_clause(
    input: &Input<'_>,
    shape: &Shape<'_>,
    private: &TokenStream,
) -> Option<WhereClause> {
    let generics = &input.node.generics;
    let params: Vec<&Ident> = generics.type_params().map(|param| &param.ident).collect();
    let mut clause = generics.where_clause.clone();
    for field in shape.reset_fields() {
        if params.is_empty() || !mentions(field.ty.to_token_stream(), &params) {
            continue;
        }
        let ty = field.ty;
        let predicate: WherePredicate = match (&field.reset, &field.build) {
            (FieldReset::Reset, _) => syn::parse_quote!(#ty: #private::Reset),
            (FieldReset::With(_) | FieldReset::Keep, None) => {
                syn::parse_quote!(#ty: ::core::default::Default)
            }
            (FieldReset::Value(_), _) | (FieldReset::With(_) | FieldReset::Keep, Some(_)) => {
                continue;
            }
        };
        clause
            .get_or_insert_with(|| syn::parse_quote!(where))
            .predicates
            .push(predicate);
    }
    clause
}

fn mentions(tokens: TokenStream, params: &[&Ident]) -> bool {
    tokens.into_iter().any(|token| match token {
        TokenTree::Ident(ident) => params.iter().any(|param| ident == **param),
        TokenTree::Group(group) => mentions(group.stream(), params),
        TokenTree::Punct(_) | TokenTree::Literal(_) => false,
    })
}
