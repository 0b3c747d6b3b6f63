//! The intermediate form: the input struct or enum with its attributes read, borrowing the syn
//! nodes so that errors and generated code can point at the user's tokens.

use crate::Derive;
use crate::attr::{self, Build, Container, FieldReset, Item};
use crate::errors::Errors;
use proc_macro2::{Span, TokenStream};
use quote::{ToTokens, quote};
use syn::spanned::Spanned;
use syn::{Data, DeriveInput, Fields, Ident, Index, Member, Type};

pub(crate) struct Input<'a> {
    pub(crate) node: &'a DeriveInput,
    pub(crate) derive: Derive,
    pub(crate) attrs: Container,
    pub(crate) body: Body<'a>,
}

pub(crate) enum Body<'a> {
    Struct(Vec<Field<'a>>),
    Enum(Vec<Variant<'a>>),
    /// Rejected by validation, at its `union` keyword.
    Union(&'a syn::token::Union),
}

pub(crate) struct Variant<'a> {
    pub(crate) ident: &'a Ident,
    pub(crate) shape: &'a Fields,
    /// The span of `#[pool(blank)]`, on the variant every object is reset to.
    pub(crate) blank: Option<Span>,
    pub(crate) fields: Vec<Field<'a>>,
}

pub(crate) struct Field<'a> {
    pub(crate) member: Member,
    /// As written: a column pool's row views give each field's reference the same.
    pub(crate) vis: &'a syn::Visibility,
    pub(crate) ty: &'a Type,
    pub(crate) reset: FieldReset,
    /// The span of the attribute key that chose `reset`, if one did.
    pub(crate) reset_key: Option<Span>,
    /// `build = <expr>`: what builds the value when the slot is built, instead of its blank.
    pub(crate) build: Option<Build>,
    /// `#[pool(blank)]` put on the field instead of a variant.
    pub(crate) misplaced_blank: Option<Span>,
}

impl Input<'_> {
    /// Where generated code finds the `pooling` crate: `::pooling`, or `#[pool(crate = ...)]`.
    pub(crate) fn krate(&self) -> TokenStream {
        self.attrs
            .krate
            .as_ref()
            .map_or_else(|| quote!(::pooling), ToTokens::to_token_stream)
    }

    /// Where code inside the generated `const _: () = { ... };` block finds the runtime's
    /// `__private` items: the short name `__pooling`, which `private_alias` brings in (as serde's
    /// derive brings in `_serde`), so that generated lines fit on a line.
    pub(crate) fn private() -> TokenStream {
        quote!(__pooling)
    }

    /// `use ::pooling::__private as __pooling;`, at the top of the generated block.
    pub(crate) fn private_alias(&self) -> TokenStream {
        let krate = self.krate();
        quote!(use #krate::__private as __pooling;)
    }

    /// What the derive is on, for messages that name it.
    pub(crate) fn item(&self) -> Item {
        match self.body {
            Body::Enum(_) => Item::Enum,
            Body::Struct(_) | Body::Union(_) => Item::Struct,
        }
    }
}

impl<'a> Input<'a> {
    pub(crate) fn from_syn(node: &'a DeriveInput, derive: Derive, errors: &mut Errors) -> Self {
        let item = match &node.data {
            Data::Enum(_) => Item::Enum,
            Data::Struct(_) | Data::Union(_) => Item::Struct,
        };
        let attrs = attr::container(&node.attrs, derive, item, errors);
        let body = match &node.data {
            Data::Struct(data) => Body::Struct(fields(&data.fields, item, errors)),
            Data::Enum(data) => Body::Enum(
                data.variants
                    .iter()
                    .map(|variant| Variant {
                        ident: &variant.ident,
                        shape: &variant.fields,
                        blank: attr::variant(&variant.attrs, errors),
                        fields: fields(&variant.fields, item, errors),
                    })
                    .collect(),
            ),
            Data::Union(data) => Body::Union(&data.union_token),
        };
        Input {
            node,
            derive,
            attrs,
            body,
        }
    }
}

fn fields<'a>(fields: &'a Fields, item: Item, errors: &mut Errors) -> Vec<Field<'a>> {
    fields
        .iter()
        .enumerate()
        .map(|(index, field)| {
            let attrs = attr::field(&field.attrs, item, errors);
            Field {
                member: field.ident.clone().map_or_else(
                    || {
                        Member::Unnamed(Index {
                            index: u32::try_from(index).expect("fewer than 2^32 fields"),
                            span: field.ty.span(),
                        })
                    },
                    Member::Named,
                ),
                vis: &field.vis,
                ty: &field.ty,
                reset: attrs.reset,
                reset_key: attrs.key,
                build: attrs.build,
                misplaced_blank: attrs.misplaced_blank,
            }
        })
        .collect()
}
