//! Code generation: the `Pooled` or `Reset` impl, from the shape and the pool's config; each
//! field's own code is in `field_code`.

use crate::Derive;
use crate::ast::{Field, Input};
use crate::config::{Count, Pool, Shape, Strategy};
use crate::errors::Errors;
use crate::{bound, columns, fallback, pool_type, valid};
use proc_macro2::TokenStream;
use quote::{quote, quote_spanned};
use syn::spanned::Spanned;
use syn::{DeriveInput, Fields};

/// Runs a derive: read, validate, generate; or, if anything was wrong, every error and the
/// fallback's stubs.
pub(crate) fn derive(node: &DeriveInput, derive: Derive) -> TokenStream {
    let mut errors = Errors::default();
    let input = Input::from_syn(node, derive, &mut errors);
    let shape = errors.before(valid::shape(&input));
    match derive {
        Derive::Pooled => {
            let mut errors = Errors::default();
            let pool = valid::pool(&input, &mut errors);
            match errors.after(shape) {
                Ok(Shape::Struct(fields)) if pool.columns => columns::expand(&input, fields, &pool),
                Ok(shape) => impl_pooled(&input, &shape, &pool),
                Err(error) => fallback::pooled(&input, &pool, &error),
            }
        }
        Derive::Reset => match shape {
            Ok(shape) => impl_reset(&input, &shape),
            Err(error) => fallback::reset(&input, &error),
        },
    }
}

fn impl_pooled(input: &Input<'_>, shape: &Shape<'_>, pool: &Pool) -> TokenStream {
    let krate = input.krate();
    let private = Input::private();
    let ident = &input.node.ident;
    let (impl_generics, ty_generics, _) = input.node.generics.split_for_impl();
    let where_clause = bound::where_clause(input, shape, &private);
    let size = &pool.size;
    // Free constants are evaluated even by `cargo check`; associated ones only when used.
    let mut checks = Vec::new();
    if let Count::Const(expr) = &pool.size {
        checks.push(quote_spanned! {expr.span()=>
            const _: () = ::core::assert!(
                #size > 0,
                "a pool needs at least one slot: `size` must be 1 or more",
            );
        });
    }
    if let Strategy::Grow(Some(max)) = pool.engine.strategy() {
        // Literals were compared already; a constant is compared when evaluated.
        if matches!(max, Count::Const(_)) || matches!(pool.size, Count::Const(_)) {
            checks.push(max_check(max, size));
        }
    }
    let name = pool.name.to_string();
    let strategy = pool_type::strategy(&krate, &pool.engine);
    let blank = blank(shape, &private);
    let at_release = reset_body(shape, &private, OtherVariants::Replace, |field, place| {
        field.reset_at_release(&private, place)
    });
    // Release leaves every object its enum's blank variant.
    let at_reuse = reset_body(shape, &private, OtherVariants::Skip, |field, place| {
        field.reset_at_reuse(&private, place)
    });
    // A struct whose release runs no code lets `retain` decide 64 objects before releasing any;
    // an enum's release replaces other variants, which may drop.
    let resets = match shape {
        Shape::Struct(fields) => {
            let resets = fields.iter().filter_map(Field::resets_at_release);
            quote!(const RESETS_AT_RELEASE: bool = false #(|| #resets)*;)
        }
        Shape::Enum { .. } => TokenStream::new(),
    };
    let plain = match shape {
        Shape::Struct(fields) => plain_fields(input, fields, where_clause.as_ref()),
        Shape::Enum { .. } => TokenStream::new(),
    };
    let pooled_impl = quote! {
        #(#checks)*

        #plain

        #[automatically_derived]
        impl #impl_generics #private::Pooled for #ident #ty_generics #where_clause {
            const SIZE: usize = #size;
            const NAME: &'static str = #name;
            #resets
            type Strategy = #strategy;

            #[inline]
            fn blank(_: #private::PoolToken<'_, Self>) -> Self {
                #blank
            }

            #[inline]
            fn reset_at_release(&mut self) {
                #at_release
            }

            #[inline]
            fn reset_at_reuse(&mut self) {
                #at_reuse
            }
        }
    };
    pool_type::expand(input, pool, &pooled_impl, where_clause.as_ref())
}

/// `PlainFields` for a struct whose every field reuse resets, on the condition that each is
/// `Copy` (a bound over a lifetime, so that a field type that is not is no error here, only
/// where `PlainFields` is needed); nothing if a field is `keep` or `reset_with`.
pub(crate) fn plain_fields(
    input: &Input<'_>,
    fields: &[Field<'_>],
    where_clause: Option<&syn::WhereClause>,
) -> TokenStream {
    if !fields.iter().all(Field::reset_at_reuse_if_plain) {
        return TokenStream::new();
    }
    let private = Input::private();
    let ident = &input.node.ident;
    let (impl_generics, ty_generics, _) = input.node.generics.split_for_impl();
    let bounds = where_clause
        .map(|clause| &clause.predicates)
        .into_iter()
        .flatten();
    // Spanned on each field's type, so that a field that is not `Copy` is the one named.
    let copy = fields.iter().map(|field| {
        let ty = field.ty;
        quote_spanned!(ty.span()=> for<'__pooled> #ty: ::core::marker::Copy)
    });
    quote! {
        #[automatically_derived]
        impl #impl_generics #private::PlainFields for #ident #ty_generics
        where
            #(#bounds,)*
            #(#copy,)*
        {}
    }
}

fn max_check(max: &Count, size: &Count) -> TokenStream {
    quote_spanned! {max.span()=>
        const _: () = ::core::assert!(
            #max >= #size,
            "`max` is below `size`: a growing pool starts with `size` slots and grows up to `max`",
        );
    }
}

fn impl_reset(input: &Input<'_>, shape: &Shape<'_>) -> TokenStream {
    let krate = input.krate();
    let private = Input::private();
    let alias = input.private_alias();
    let ident = &input.node.ident;
    let (impl_generics, ty_generics, _) = input.node.generics.split_for_impl();
    let where_clause = bound::where_clause(input, shape, &private);
    let blank = blank(shape, &private);
    let reset = reset_body(shape, &private, OtherVariants::Replace, |field, place| {
        field.reset(&private, place)
    });
    quote! {
        #[doc(hidden)]
        const _: () = {
            #alias
            #krate::__require_pooling_not_pool_core!();

            // Kept out of rustc's lists of the types that do reset, as the runtime's own are.
            #[automatically_derived]
            #[diagnostic::do_not_recommend]
            impl #impl_generics #private::Reset for #ident #ty_generics #where_clause {
                #[inline]
                fn reset(&mut self) {
                    #reset
                }

                #[inline]
                fn blank() -> Self {
                    #blank
                }
            }
        };
    }
}

/// The blank object: the struct built from its fields' blanks, or the enum's blank variant.
fn blank(shape: &Shape<'_>, private: &TokenStream) -> TokenStream {
    let fields = shape
        .reset_fields()
        .iter()
        .map(|field| field.blank(private));
    let Shape::Enum { blank: variant, .. } = shape else {
        return quote!(Self { #(#fields,)* });
    };
    let ident = variant.ident;
    match variant.shape {
        Fields::Unit => quote!(Self::#ident),
        Fields::Named(_) | Fields::Unnamed(_) => quote!(Self::#ident { #(#fields,)* }),
    }
}

/// What becomes of an enum object that is not its blank variant when a reset runs.
#[derive(Clone, Copy, PartialEq, Eq)]
enum OtherVariants {
    /// It is replaced by a freshly built blank variant: `Reset::reset`, `reset_at_release`.
    Replace,
    /// Nothing: `reset_at_reuse` runs on objects that release has already made blank.
    Skip,
}

/// A reset method's body, from each reset field's code at its place. A struct resets its fields
/// in place. An enum that is its blank variant resets that variant's fields in place, as a
/// struct would; any other variant is replaced by a freshly built blank variant, which drops
/// everything the old one owned (or, at reuse, is left alone).
fn reset_body(
    shape: &Shape<'_>,
    private: &TokenStream,
    others: OtherVariants,
    reset: impl Fn(&Field<'_>, &TokenStream) -> TokenStream,
) -> TokenStream {
    let &Shape::Enum {
        blank: variant,
        variants: count,
    } = shape
    else {
        return shape
            .reset_fields()
            .iter()
            .map(|field| {
                let member = &field.member;
                reset(field, &quote!(self.#member))
            })
            .collect();
    };
    let mut bound = Vec::new();
    let mut code = Vec::new();
    for field in &variant.fields {
        let binding = field.binding();
        let step = reset(field, &quote!(*#binding));
        if !step.is_empty() {
            let member = &field.member;
            bound.push(quote!(#member: #binding));
            code.push(step);
        }
    }
    let ident = variant.ident;
    let pattern = match variant.shape {
        Fields::Unit => quote!(Self::#ident),
        Fields::Named(_) | Fields::Unnamed(_) => quote!(Self::#ident { #(#bound,)* .. }),
    };
    // With one variant, there are no others to replace.
    if others == OtherVariants::Skip || count == 1 {
        if code.is_empty() {
            return TokenStream::new();
        }
        let otherwise = (count > 1).then(|| quote!(else { return; }));
        return quote! {
            let #pattern = self #otherwise;
            #(#code)*
        };
    }
    let blank = blank(shape, private);
    quote! {
        match self {
            #pattern => {
                #(#code)*
            }
            _ => *self = #blank,
        }
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
        assert!(out.contains("where T : __pooling :: Reset"), "{out}");
        assert!(out.contains("Vec < U > : __pooling :: Reset"), "{out}");
        assert!(
            out.contains("Option < T > : :: core :: default :: Default"),
            "{out}"
        );
        assert!(!out.contains("u32 : :: pooling"), "{out}");
    }

    #[test]
    fn only_the_blank_variants_field_types_get_bounds() {
        let out = expand(
            quote! {
                #[pool(size = 4)]
                enum Slot<T, U, V> {
                    #[pool(blank)]
                    Empty(Vec<T>, #[pool(keep)] Option<U>),
                    Full { value: V, spare: Vec<V> },
                }
            },
            Derive::Pooled,
        );
        assert!(
            out.contains("where Vec < T > : __pooling :: Reset"),
            "{out}"
        );
        assert!(
            out.contains("Option < U > : :: core :: default :: Default"),
            "{out}"
        );
        assert!(
            !out.contains("V : :: pooling") && !out.contains("V > : :: pooling"),
            "another variant's fields are dropped, not reset: {out}"
        );
    }

    #[test]
    fn errors_in_variants_are_reported_with_the_enums() {
        let out = expand(
            quote! {
                #[pool(size = 4, colour = 1)]
                enum Slot {
                    #[pool(blank)]
                    Empty,
                    #[pool(blank, size = 2)]
                    Full,
                    Half {
                        #[pool(keep)]
                        value: u32,
                    },
                }
            },
            Derive::Pooled,
        );
        // `colour`, `size` on a variant, a second `blank`, `keep` outside the blank variant.
        assert_eq!(out.matches("compile_error").count(), 4, "{out}");
        assert!(
            out.contains("SlotPool"),
            "the fallback still defines the pool: {out}"
        );
    }

    #[test]
    fn an_enum_without_a_blank_variant_is_one_error_however_its_fields_are_marked() {
        let out = expand(
            quote! {
                enum State {
                    Idle,
                    Running(#[pool(reset = 0)] u64),
                }
            },
            Derive::Reset,
        );
        assert_eq!(out.matches("compile_error").count(), 1, "{out}");
        assert!(out.contains("needs its blank variant"), "{out}");
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
