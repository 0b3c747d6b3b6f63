//! What a derive emits when the input has errors: the errors, and stubs that keep the rest of the
//! user's code compiling, so that only the real errors are reported (thiserror's approach).

use crate::ast::{Body, Input};
use crate::columns;
use crate::config::Pool;
use crate::pool_type;
use proc_macro2::TokenStream;
use quote::quote;
use syn::Member;

/// For `#[derive(Pooled)]`: the errors, the pool type, and a stub `Pooled` impl.
pub(crate) fn pooled(input: &Input<'_>, pool: &Pool, error: &syn::Error) -> TokenStream {
    let error = error.to_compile_error();
    // A column struct that can have columns gets them, so that code using its rows adds no
    // errors.
    if let Body::Struct(fields) = &input.body
        && pool.columns
        && input.node.generics.params.is_empty()
        && fields
            .iter()
            .all(|field| matches!(field.member, Member::Named(_)))
    {
        let columns = columns::expand(input, fields, pool);
        return quote!(#error #columns);
    }
    let node = input.node;
    let krate = input.krate();
    let ident = &node.ident;
    let (impl_generics, ty_generics, where_clause) = node.generics.split_for_impl();
    // Inside the pool type's block, where `__pooling` names the runtime's private items.
    let private = Input::private();
    // The strategy the user asked for, so that calls to its `create` add no errors.
    let strategy = pool_type::strategy(&krate, &pool.engine);
    let stub = quote! {
        #[automatically_derived]
        impl #impl_generics #private::Pooled for #ident #ty_generics #where_clause {
            const SIZE: usize = 0;
            type Strategy = #strategy;

            fn blank(_: #private::PoolToken<'_, Self>) -> Self {
                ::core::unreachable!()
            }

            fn reset_at_release(&mut self) {
                ::core::unreachable!()
            }

            fn reset_at_reuse(&mut self) {
                ::core::unreachable!()
            }
        }
    };
    let pool = pool_type::expand(input, pool, &stub, where_clause);
    quote!(#error #pool)
}

/// For `#[derive(Reset)]`: the errors, and a stub `Reset` impl.
pub(crate) fn reset(input: &Input<'_>, error: &syn::Error) -> TokenStream {
    let error = error.to_compile_error();
    let node = input.node;
    let krate = input.krate();
    let ident = &node.ident;
    let (impl_generics, ty_generics, where_clause) = node.generics.split_for_impl();
    quote! {
        #error

        #[automatically_derived]
        impl #impl_generics #krate::__private::Reset for #ident #ty_generics #where_clause {
            fn reset(&mut self) {
                ::core::unreachable!()
            }

            fn blank() -> Self {
                ::core::unreachable!()
            }
        }
    }
}
