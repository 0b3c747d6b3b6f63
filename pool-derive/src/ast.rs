//! The intermediate form: the input struct with its attributes read, borrowing the syn nodes so
//! that errors and generated code can point at the user's tokens.

use crate::Derive;
use crate::attr::{self, Container, FieldReset};
use crate::errors::Errors;
use proc_macro2::TokenStream;
use quote::{ToTokens, quote};
use syn::spanned::Spanned;
use syn::{Data, DeriveInput, Index, Member, Type};

pub(crate) struct Input<'a> {
    pub(crate) node: &'a DeriveInput,
    pub(crate) derive: Derive,
    pub(crate) attrs: Container,
    /// Empty for enums and unions, which validation rejects.
    pub(crate) fields: Vec<Field<'a>>,
}

pub(crate) struct Field<'a> {
    pub(crate) member: Member,
    pub(crate) ty: &'a Type,
    pub(crate) reset: FieldReset,
}

impl Input<'_> {
    /// Where generated code finds the `pooled` crate: `::pooled`, or `#[pool(crate = ...)]`.
    pub(crate) fn krate(&self) -> TokenStream {
        self.attrs
            .krate
            .as_ref()
            .map_or_else(|| quote!(::pooled), ToTokens::to_token_stream)
    }
}

impl<'a> Input<'a> {
    pub(crate) fn from_syn(node: &'a DeriveInput, derive: Derive, errors: &mut Errors) -> Self {
        let attrs = attr::container(&node.attrs, derive, errors);
        let fields = match &node.data {
            Data::Struct(data) => data
                .fields
                .iter()
                .enumerate()
                .map(|(index, field)| Field {
                    member: field.ident.clone().map_or_else(
                        || {
                            Member::Unnamed(Index {
                                index: u32::try_from(index).expect("fewer than 2^32 fields"),
                                span: field.ty.span(),
                            })
                        },
                        Member::Named,
                    ),
                    ty: &field.ty,
                    reset: attr::field(&field.attrs, errors),
                })
                .collect(),
            Data::Enum(_) | Data::Union(_) => Vec::new(),
        };
        Input {
            node,
            derive,
            attrs,
            fields,
        }
    }
}
