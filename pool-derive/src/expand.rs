//! Code generation: the `Pooled` or `Reset` impl, reset code field by field.

use crate::ast::{Derive, Field, Input};
use crate::attr::{Count, OnFull, Strategy};
use crate::errors::Errors;
use crate::{fallback, pool_type, valid};
use proc_macro2::{TokenStream, TokenTree};
use quote::{ToTokens, quote, quote_spanned};
use syn::spanned::Spanned;
use syn::{DeriveInput, Ident, WherePredicate};

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
    let ident = &input.node.ident;
    let (impl_generics, ty_generics, _) = input.node.generics.split_for_impl();
    let where_clause = where_clause(input);
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
    let growth = match (attrs.on_full(), &attrs.max) {
        (OnFull::Grow, Some((_, max_count))) => {
            let max = count(max_count);
            // Literals were compared already; a constant is compared when evaluated.
            if matches!(max_count, Count::Const(_)) || matches!(attrs.size, Count::Const(_)) {
                checks.push(max_check(&max, &size));
            }
            Some(quote!(::pooled::__private::Growth::UpTo(#max)))
        }
        (OnFull::Grow, None) => Some(quote!(::pooled::__private::Growth::UpTo(usize::MAX))),
        _ => None,
    }
    .map(|growth| quote!(const GROWTH: ::pooled::__private::Growth = #growth;));
    let blank = input.fields.iter().map(Field::blank);
    let at_release = input.fields.iter().map(Field::reset_at_release);
    let at_reuse = input.fields.iter().map(Field::reset_at_reuse);
    let pooled_impl = quote! {
        #(#checks)*

        #[automatically_derived]
        impl #impl_generics ::pooled::__private::Pooled for #ident #ty_generics #where_clause {
            const SIZE: usize = #size;
            #growth

            #[inline]
            fn blank(_: ::pooled::__private::PoolToken<'_>) -> Self {
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
    pool_type::expand(input.node, &pooled_impl, pool_type::Create::of(attrs))
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
    let ident = &input.node.ident;
    let (impl_generics, ty_generics, _) = input.node.generics.split_for_impl();
    let where_clause = where_clause(input);
    let blank = input.fields.iter().map(Field::blank);
    let reset = input.fields.iter().map(Field::reset);
    quote! {
        #[doc(hidden)]
        const _: () = {
            ::pooled::__require_pooled_not_pool_core!();

            #[automatically_derived]
            impl #impl_generics ::pooled::__private::Reset for #ident #ty_generics #where_clause {
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
    /// `<Type as Reset>::reset`, spanned on the field's type so that a missing `Reset` is
    /// reported there.
    fn reset_fn(&self) -> TokenStream {
        let ty = self.ty;
        quote_spanned!(ty.span()=> <#ty as ::pooled::__private::Reset>::reset)
    }

    /// The value of `#[pool(reset = <value>)]`, in one form wherever it is used, so that a type
    /// error in it is reported once, pointing at the value and the field's type.
    fn value(&self) -> TokenStream {
        let Strategy::Value(value) = &self.strategy else {
            unreachable!("only `reset = <value>` has a value")
        };
        let ty = self.ty;
        quote! {{
            let __pooled_value: #ty = #value;
            __pooled_value
        }}
    }

    /// The whole reset, for `Reset::reset`.
    fn reset(&self) -> TokenStream {
        let member = &self.member;
        match &self.strategy {
            Strategy::Reset => {
                let reset = self.reset_fn();
                quote!(#reset(&mut self.#member);)
            }
            Strategy::Value(_) => {
                let value = self.value();
                quote!(self.#member = #value;)
            }
            Strategy::With(function) => quote!(#function(&mut self.#member);),
            Strategy::Keep => TokenStream::new(),
        }
    }

    /// The fields that own something (the type needs drop), and `reset_with` functions.
    fn reset_at_release(&self) -> TokenStream {
        self.reset_if(true)
    }

    /// Plain data (the type does not need drop).
    fn reset_at_reuse(&self) -> TokenStream {
        self.reset_if(false)
    }

    fn reset_if(&self, owned: bool) -> TokenStream {
        let ty = self.ty;
        let when = if owned {
            quote!(::core::mem::needs_drop::<#ty>())
        } else {
            quote!(!::core::mem::needs_drop::<#ty>())
        };
        match &self.strategy {
            Strategy::Reset | Strategy::Value(_) => {
                let reset = self.reset();
                quote! {
                    if #when {
                        #reset
                    }
                }
            }
            // A reset function is the user's code; it runs at release, when the user expects.
            Strategy::With(_) if owned => self.reset(),
            Strategy::With(_) | Strategy::Keep => TokenStream::new(),
        }
    }

    /// `member: value` in the blank object's struct expression.
    fn blank(&self) -> TokenStream {
        let member = &self.member;
        let ty = self.ty;
        let value = match &self.strategy {
            Strategy::Reset => {
                quote_spanned!(ty.span()=> <#ty as ::pooled::__private::Reset>::blank())
            }
            Strategy::Value(_) => self.value(),
            Strategy::With(function) => {
                let default =
                    quote_spanned!(ty.span()=> <#ty as ::core::default::Default>::default());
                quote! {{
                    let mut __pooled_blank = #default;
                    #function(&mut __pooled_blank);
                    __pooled_blank
                }}
            }
            Strategy::Keep => {
                quote_spanned!(ty.span()=> <#ty as ::core::default::Default>::default())
            }
        };
        quote!(#member: #value)
    }
}

/// The struct's where clause, plus a bound for each field type that mentions a type parameter:
/// `Reset` where the field is reset through it, `Default` where it is built from it.
fn where_clause(input: &Input<'_>) -> Option<syn::WhereClause> {
    let generics = &input.node.generics;
    let params: Vec<&Ident> = generics.type_params().map(|param| &param.ident).collect();
    let mut clause = generics.where_clause.clone();
    for field in &input.fields {
        if params.is_empty() || !mentions(field.ty.to_token_stream(), &params) {
            continue;
        }
        let ty = field.ty;
        let predicate: WherePredicate = match field.strategy {
            Strategy::Reset => syn::parse_quote!(#ty: ::pooled::__private::Reset),
            Strategy::With(_) | Strategy::Keep => syn::parse_quote!(#ty: ::core::default::Default),
            Strategy::Value(_) => continue,
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
