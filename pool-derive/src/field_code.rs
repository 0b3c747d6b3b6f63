//! The code each field gets: its reset, whole or split between release and reuse, and its
//! value in the blank object.

use crate::ast::Field;
use crate::attr::FieldReset;
use crate::field_trait;
use proc_macro2::TokenStream;
use quote::{ToTokens, format_ident, quote, quote_spanned};
use syn::ext::IdentExt;
use syn::spanned::Spanned;
use syn::{Expr, Ident, Member};

impl Field<'_> {
    /// `<Type as Field<Self>>::method`, through the `Reset` field trait that fits the type
    /// (see `field_trait`), spanned on the field's type so that a missing `Reset` is reported
    /// there, once however many times the field is reset.
    fn reset_call(&self, private: &TokenStream, method: &str) -> TokenStream {
        let ty = self.ty;
        let method = Ident::new(method, ty.span());
        let field_trait = Ident::new(field_trait::for_type(ty), ty.span());
        quote_spanned!(ty.span()=> <#ty as #private::#field_trait<Self>>::#method)
    }

    /// The value of `#[pool(reset = <value>)]` or `build = <value>`, in one form wherever it is
    /// used, so that a type error in it is reported once, pointing at the value and the field's
    /// type.
    fn value(&self, value: &Expr) -> TokenStream {
        let ty = self.ty;
        quote! {{
            let __pooled_value: #ty = #value;
            __pooled_value
        }}
    }

    /// The argument a `reset_with` function is called with, in both places it is called (at
    /// release and when the blank object is built): one token spanned on the field's type, so
    /// that a function of the wrong type is reported there, once.
    fn field_arg(&self) -> Ident {
        Ident::new("__pooled_field", self.ty.span())
    }

    /// The whole reset, for `Reset::reset`. `place` is where the field is: `self.field` in a
    /// struct, `*binding` in an enum's variant.
    pub(crate) fn reset(&self, private: &TokenStream, place: &TokenStream) -> TokenStream {
        match &self.reset {
            FieldReset::Reset => {
                let reset = self.reset_call(private, "reset");
                quote!(#reset(&mut #place);)
            }
            FieldReset::Value(value) => {
                let value = self.value(value);
                quote!(#place = #value;)
            }
            FieldReset::With(function) => {
                let field = self.field_arg();
                quote! {{
                    let #field = &mut #place;
                    #function(#field);
                }}
            }
            FieldReset::Keep => TokenStream::new(),
        }
    }

    /// What runs at release: fields that own something (the type needs drop), and `reset_with`
    /// functions, which are the user's code and run when the user expects a reset.
    pub(crate) fn reset_at_release(
        &self,
        private: &TokenStream,
        place: &TokenStream,
    ) -> TokenStream {
        match &self.reset {
            FieldReset::Reset => self.reset_half(private, "reset_if_owned", place),
            FieldReset::Value(value) => {
                self.assign_if(&quote!(::core::mem::needs_drop), value, place)
            }
            FieldReset::With(_) => self.reset(private, place),
            FieldReset::Keep => TokenStream::new(),
        }
    }

    /// Whether `reset_at_release` does anything for the field, as a constant expression;
    /// `None` when it never does.
    pub(crate) fn resets_at_release(&self) -> Option<TokenStream> {
        let ty = self.ty;
        match &self.reset {
            FieldReset::Reset | FieldReset::Value(_) => {
                Some(quote!(::core::mem::needs_drop::<#ty>()))
            }
            FieldReset::With(_) => Some(quote!(true)),
            FieldReset::Keep => None,
        }
    }

    /// What runs at reuse, before `init`: plain data (the type does not need drop).
    pub(crate) fn reset_at_reuse(&self, private: &TokenStream, place: &TokenStream) -> TokenStream {
        match &self.reset {
            FieldReset::Reset => self.reset_half(private, "reset_if_plain", place),
            FieldReset::Value(value) => {
                self.assign_if(&quote!(!::core::mem::needs_drop), value, place)
            }
            FieldReset::With(_) | FieldReset::Keep => TokenStream::new(),
        }
    }

    /// Whether reuse rewrites the field when its type is plain data (`Copy`): not for `keep`
    /// and `reset_with` fields, which reuse leaves as they were.
    pub(crate) fn reset_at_reuse_if_plain(&self) -> bool {
        matches!(self.reset, FieldReset::Reset | FieldReset::Value(_))
    }

    fn reset_half(&self, private: &TokenStream, method: &str, place: &TokenStream) -> TokenStream {
        let reset = self.reset_call(private, method);
        quote!(#reset(&mut #place);)
    }

    fn assign_if(&self, condition: &TokenStream, value: &Expr, place: &TokenStream) -> TokenStream {
        let (ty, value) = (self.ty, self.value(value));
        quote! {
            if #condition::<#ty>() {
                #place = #value;
            }
        }
    }

    /// `member: value` in the blank object's struct expression: the field's blank, or what
    /// `build` builds, then reset as at a release, so that a new object is as blank as a reused
    /// one.
    pub(crate) fn blank(&self, private: &TokenStream) -> TokenStream {
        let member = &self.member;
        let value = self.blank_value(private);
        quote!(#member: #value)
    }

    /// The field's value in the blank object (see [`blank`](Field::blank)).
    pub(crate) fn blank_value(&self, private: &TokenStream) -> TokenStream {
        let ty = self.ty;
        let build = self.build.as_ref().map(|build| &build.expr);
        match (&self.reset, build) {
            (FieldReset::Reset, None) => {
                let blank = self.reset_call(private, "blank");
                quote!(#blank())
            }
            (FieldReset::Reset, Some(build)) => {
                let reset = self.reset_call(private, "reset");
                quote! {{
                    let mut __pooled_blank: #ty = #build;
                    #reset(&mut __pooled_blank);
                    __pooled_blank
                }}
            }
            (FieldReset::Value(value), _) => self.value(value),
            (FieldReset::With(function), build) => {
                let start = build.map_or_else(|| self.default(private), ToTokens::to_token_stream);
                let field = self.field_arg();
                quote! {{
                    let mut __pooled_blank: #ty = #start;
                    let #field = &mut __pooled_blank;
                    #function(#field);
                    __pooled_blank
                }}
            }
            (FieldReset::Keep, Some(build)) => self.value(build),
            (FieldReset::Keep, None) => self.default(private),
        }
    }

    /// The field type's `Default::default()`, for `keep` and `reset_with` fields with no
    /// `build`, through the trait whose error says so.
    fn default(&self, private: &TokenStream) -> TokenStream {
        let ty = self.ty;
        quote_spanned!(ty.span()=> <#ty as #private::DefaultField<Self>>::default())
    }

    /// The name a match on the blank variant binds the field to.
    pub(crate) fn binding(&self) -> Ident {
        match &self.member {
            Member::Named(ident) => format_ident!("__pooled_{}", ident.unraw()),
            Member::Unnamed(index) => format_ident!("__pooled_{}", index.index),
        }
    }
}
