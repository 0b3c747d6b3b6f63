//! What a derive emits when the input has errors: the errors, and stubs that keep the rest of the
//! user's code compiling, so that only the real errors are reported (thiserror's approach).

use crate::Derive;
use crate::ast::Input;
use crate::pool_type;
use proc_macro2::TokenStream;
use quote::quote;

pub(crate) fn expand(input: &Input<'_>, error: &syn::Error) -> TokenStream {
    let error = error.to_compile_error();
    let node = input.node;
    let krate = input.krate();
    let ident = &node.ident;
    let (impl_generics, ty_generics, where_clause) = node.generics.split_for_impl();
    match input.derive {
        Derive::Pooled => {
            // The strategy the user asked for, so that calls to its `create` add no errors.
            let strategy = pool_type::strategy(input);
            let stub = quote! {
                #[automatically_derived]
                impl #impl_generics #krate::__private::Pooled for #ident #ty_generics #where_clause {
                    const SIZE: usize = 0;
                    type Strategy = #strategy;

                    fn blank(_: #krate::__private::PoolToken<'_, Self>) -> Self {
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
            let pool = pool_type::expand(input, &stub, where_clause);
            quote!(#error #pool)
        }
        Derive::Reset => quote! {
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
        },
    }
}
