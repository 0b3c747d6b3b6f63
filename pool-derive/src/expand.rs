//! Code generation: the `Pooled` or `Reset` impl, reset code field by field.

use crate::Derive;
use crate::ast::{Field, Input};
use crate::attr::{Count, FieldReset, OnFull};
use crate::errors::Errors;
use crate::{bound, fallback, pool_type, valid};
use proc_macro2::TokenStream;
use quote::{ToTokens, quote, quote_spanned};
use syn::spanned::Spanned;
use syn::{DeriveInput, Ident};

pub(crate) fn derive(node: &DeriveInput, derive: Derive) -> TokenStream {
    let mut errors = Errors::default();
    let input = Input::from_syn(node, derive, &mut errors);
    valid::check(&input, &mut errors);
    match errors.finish() {
        Ok(()) => match derive {
            Derive::Pooled => impl_pooled(&input),
            Derive::Reset => impl_reset(&input),
        },
        Err(error) => fallback::expand(&input, &error),
    }
}

fn impl_pooled(input: &Input<'_>) -> TokenStream {
    let krate = input.krate();
    let ident = &input.node.ident;
    let (impl_generics, ty_generics, _) = input.node.generics.split_for_impl();
    let where_clause = bound::where_clause(input, &krate);
    let attrs = &input.attrs;
    let size = count(&attrs.size);
    // Free constants are evaluated even by `cargo check`; associated ones only when used.
    let mut checks = Vec::new();
    if let Count::Const(expr) = &attrs.size {
        checks.push(quote_spanned! {expr.span()=>
            const _: () = ::core::assert!(
                #size > 0,
                "a pool needs at least one slot: `size` must be 1 or more",
            );
        });
    }
    if let (OnFull::Grow, Some((_, max_count))) = (attrs.on_full(), &attrs.max) {
        // Literals were compared already; a constant is compared when evaluated.
        if matches!(max_count, Count::Const(_)) || matches!(attrs.size, Count::Const(_)) {
            checks.push(max_check(&count(max_count), &size));
        }
    }
    let name = pool_type::name(input).to_string();
    let strategy = pool_type::strategy(input);
    let blank = input.fields.iter().map(|field| field.blank(&krate));
    let at_release = input
        .fields
        .iter()
        .map(|field| field.reset_at_release(&krate));
    let at_reuse = input
        .fields
        .iter()
        .map(|field| field.reset_at_reuse(&krate));
    let pooled_impl = quote! {
        #(#checks)*

        #[automatically_derived]
        impl #impl_generics #krate::__private::Pooled for #ident #ty_generics #where_clause {
            const SIZE: usize = #size;
            const NAME: &'static str = #name;
            type Strategy = #strategy;

            #[inline]
            fn blank(_: #krate::__private::PoolToken<'_, Self>) -> Self {
                Self { #(#blank,)* }
            }

            #[inline]
            fn reset_at_release(&mut self) {
                #(#at_release)*
            }

            #[inline]
            fn reset_at_reuse(&mut self) {
                #(#at_reuse)*
            }
        }
    };
    pool_type::expand(input, &pooled_impl, where_clause.as_ref())
}

/// A checked `size` or `max`.
fn count(count: &Count) -> TokenStream {
    match count {
        Count::Literal(literal) => literal.to_token_stream(),
        Count::Const(expr) => expr.to_token_stream(),
        Count::Missing | Count::Invalid => unreachable!("validation passed"),
    }
}

fn max_check(max: &TokenStream, size: &TokenStream) -> TokenStream {
    quote_spanned! {max.span()=>
        const _: () = ::core::assert!(
            #max >= #size,
            "`max` is below `size`: a growing pool starts with `size` slots and grows up to `max`",
        );
    }
}

fn impl_reset(input: &Input<'_>) -> TokenStream {
    let krate = input.krate();
    let ident = &input.node.ident;
    let (impl_generics, ty_generics, _) = input.node.generics.split_for_impl();
    let where_clause = bound::where_clause(input, &krate);
    let blank = input.fields.iter().map(|field| field.blank(&krate));
    let reset = input.fields.iter().map(|field| field.reset(&krate));
    quote! {
        #[doc(hidden)]
        const _: () = {
            #krate::__require_pooled_not_pool_core!();

            #[automatically_derived]
            impl #impl_generics #krate::__private::Reset for #ident #ty_generics #where_clause {
                #[inline]
                fn reset(&mut self) {
                    #(#reset)*
                }

                #[inline]
                fn blank() -> Self {
                    Self { #(#blank,)* }
                }
            }
        };
    }
}

impl Field<'_> {
    /// `<Type as Reset>::method`, spanned on the field's type so that a missing `Reset` is
    /// reported there, once however many times the field is reset.
    fn reset_call(&self, krate: &TokenStream, method: &str) -> TokenStream {
        let ty = self.ty;
        let method = Ident::new(method, ty.span());
        quote_spanned!(ty.span()=> <#ty as #krate::__private::Reset>::#method)
    }

    /// The value of `#[pool(reset = <value>)]`, in one form wherever it is used, so that a type
    /// error in it is reported once, pointing at the value and the field's type.
    fn value(&self) -> TokenStream {
        let FieldReset::Value(value) = &self.reset else {
            unreachable!("only `reset = <value>` has a value")
        };
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

    /// The whole reset, for `Reset::reset`.
    fn reset(&self, krate: &TokenStream) -> TokenStream {
        let member = &self.member;
        match &self.reset {
            FieldReset::Reset => {
                let reset = self.reset_call(krate, "reset");
                quote!(#reset(&mut self.#member);)
            }
            FieldReset::Value(_) => {
                let value = self.value();
                quote!(self.#member = #value;)
            }
            FieldReset::With(function) => {
                let field = self.field_arg();
                quote! {{
                    let #field = &mut self.#member;
                    #function(#field);
                }}
            }
            FieldReset::Keep => TokenStream::new(),
        }
    }

    /// What runs at release: fields that own something (the type needs drop), and `reset_with`
    /// functions, which are the user's code and run when the user expects a reset.
    fn reset_at_release(&self, krate: &TokenStream) -> TokenStream {
        match &self.reset {
            FieldReset::Reset => self.reset_half(krate, "reset_if_owned"),
            FieldReset::Value(_) => self.assign_if(&quote!(::core::mem::needs_drop)),
            FieldReset::With(_) => self.reset(krate),
            FieldReset::Keep => TokenStream::new(),
        }
    }

    /// What runs at reuse, before `init`: plain data (the type does not need drop).
    fn reset_at_reuse(&self, krate: &TokenStream) -> TokenStream {
        match &self.reset {
            FieldReset::Reset => self.reset_half(krate, "reset_if_plain"),
            FieldReset::Value(_) => self.assign_if(&quote!(!::core::mem::needs_drop)),
            FieldReset::With(_) | FieldReset::Keep => TokenStream::new(),
        }
    }

    fn reset_half(&self, krate: &TokenStream, method: &str) -> TokenStream {
        let member = &self.member;
        let reset = self.reset_call(krate, method);
        quote!(#reset(&mut self.#member);)
    }

    fn assign_if(&self, condition: &TokenStream) -> TokenStream {
        let (ty, member, value) = (self.ty, &self.member, self.value());
        quote! {
            if #condition::<#ty>() {
                self.#member = #value;
            }
        }
    }

    /// `member: value` in the blank object's struct expression.
    fn blank(&self, krate: &TokenStream) -> TokenStream {
        let member = &self.member;
        let ty = self.ty;
        let value = match &self.reset {
            FieldReset::Reset => {
                let blank = self.reset_call(krate, "blank");
                quote!(#blank())
            }
            FieldReset::Value(_) => self.value(),
            FieldReset::With(function) => {
                let default =
                    quote_spanned!(ty.span()=> <#ty as ::core::default::Default>::default());
                let field = self.field_arg();
                quote! {{
                    let mut __pooled_blank = #default;
                    let #field = &mut __pooled_blank;
                    #function(#field);
                    __pooled_blank
                }}
            }
            FieldReset::Keep => {
                quote_spanned!(ty.span()=> <#ty as ::core::default::Default>::default())
            }
        };
        quote!(#member: #value)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn expand(input: TokenStream, which: Derive) -> String {
        derive(&syn::parse2(input).unwrap(), which).to_string()
    }

    #[test]
    fn field_types_that_mention_a_parameter_get_bounds() {
        let out = expand(
            quote! {
                #[pool(size = 4)]
                struct Node<T, U> {
                    value: T,
                    children: Vec<U>,
                    #[pool(keep)]
                    cache: Option<T>,
                    count: u32,
                }
            },
            Derive::Pooled,
        );
        assert!(
            out.contains("where T : :: pooled :: __private :: Reset"),
            "{out}"
        );
        assert!(
            out.contains("Vec < U > : :: pooled :: __private :: Reset"),
            "{out}"
        );
        assert!(
            out.contains("Option < T > : :: core :: default :: Default"),
            "{out}"
        );
        assert!(!out.contains("u32 : :: pooled"), "{out}");
    }

    #[test]
    fn errors_from_several_attributes_are_all_reported() {
        let out = expand(
            quote! {
                #[pool(size = 0, colour = 3)]
                struct Spark {
                    #[pool(keep, reset = 1)]
                    heat: u32,
                }
            },
            Derive::Pooled,
        );
        assert_eq!(out.matches("compile_error").count(), 3, "{out}");
        assert!(
            out.contains("SparkPool"),
            "the fallback still defines the pool: {out}"
        );
    }
}
