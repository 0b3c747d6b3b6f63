//! Code generation for `layout = columns`: the struct's row views (`FooRef`, `FooMut`: a
//! reference to each field), its run views (`FooSlices`, `FooSlicesMut`: a slice of each
//! column), the `Columnar` impl that names the runtime's lists of fields (which the runtime
//! keeps in its columns) with them, and the pool type.

use crate::ast::{Field, Input};
use crate::config::{Pool, Strategy};
use crate::{expand, pool_type};
use proc_macro2::{Ident, TokenStream};
use quote::{ToTokens, format_ident, quote, quote_spanned};
use syn::spanned::Spanned;
use syn::{Expr, Member};

/// The generated types and impl for a struct with named fields and no generic parameters
/// (`valid` reports any other).
pub(crate) fn expand(input: &Input<'_>, fields: &[Field<'_>], pool: &Pool) -> TokenStream {
    let krate = input.krate();
    let alias = input.private_alias();
    let ident = &input.node.ident;
    let (vis, name) = (&pool.vis, &pool.name);
    let names: Vec<&Ident> = fields.iter().map(name_of).collect();
    let strategy = pool_type::strategy(&krate, &pool.engine);
    let requirement = pool_type::requirement(input, pool);
    let [.., pool_doc] = Docs::new(ident, name).all();
    let views = views(input, fields, pool);
    let columnar = columnar(input, fields, pool);
    let evictable = match pool.engine.strategy() {
        Strategy::Evict(measure) => Some(evictable(input, measure)),
        Strategy::Refuse(_) | Strategy::Grow(_) => None,
    };
    let storage = pool_type::storage(&krate, pool).map(|(storage, _)| quote!(, #storage));
    let plain = expand::plain_fields(input, fields, None);
    quote! {
        #[doc = #pool_doc]
        #vis type #name = #krate::ColumnPool<#ident, #strategy #storage>;

        #views

        #[doc(hidden)]
        const _: () = {
            #alias
            #krate::__require_pooling_not_pool_core!();
            #requirement

            // The struct's fields are read only through its columns: this says so to the
            // dead-code lint, which would otherwise flag every field.
            #[allow(dead_code)]
            fn __pooled_fields(object: &#ident) {
                #(let _ = &object.#names;)*
            }

            #columnar

            #plain

            #evictable
        };
    }
}

/// `ColumnEvictable` for the struct, from the `evict_by` measure, which ranks a row. Spanned
/// at the measure, so that a measure of the wrong type is reported there.
fn evictable(input: &Input<'_>, measure: &Expr) -> TokenStream {
    let private = Input::private();
    let ident = &input.node.ident;
    let [row, ..] = view_names(ident);
    let span = measure.span();
    let signature = quote_spanned! {span=>
        fn importance(row: #row<'_>) -> impl #private::Importance + use<>
    };
    let body = {
        let private = pool_type::respan(private.clone(), span);
        quote_spanned!(span=> #private::measure_row(#measure, row))
    };
    quote! {
        #[automatically_derived]
        impl #private::ColumnEvictable for #ident {
            #[inline]
            #signature {
                #body
            }
        }
    }
}

/// `FooRef`, `FooMut`, `FooSlices` and `FooSlicesMut`: a reference, a mutable reference, a
/// slice and a mutable slice of each field, with the field's visibility.
fn views(input: &Input<'_>, fields: &[Field<'_>], pool: &Pool) -> TokenStream {
    let ident = &input.node.ident;
    let vis = &pool.vis;
    let [row, row_mut, slices, slices_mut] = view_names(ident);
    let names: Vec<&Ident> = fields.iter().map(name_of).collect();
    let tys: Vec<_> = fields.iter().map(|field| field.ty).collect();
    let field_vis: Vec<_> = fields.iter().map(|field| field.vis).collect();
    let [row_doc, row_mut_doc, slices_doc, slices_mut_doc, _] = Docs::new(ident, &pool.name).all();
    quote! {
        #[doc = #row_doc]
        #[derive(Clone, Copy)]
        // A kernel reads the fields it needs.
        #[allow(dead_code)]
        #vis struct #row<'a> {
            #(#field_vis #names: &'a #tys,)*
        }

        #[doc = #row_mut_doc]
        #[allow(dead_code)]
        #vis struct #row_mut<'a> {
            #(#field_vis #names: &'a mut #tys,)*
        }

        #[doc = #slices_doc]
        #[derive(Clone, Copy)]
        #[allow(dead_code)]
        #vis struct #slices<'a> {
            #(#field_vis #names: &'a [#tys],)*
        }

        #[doc = #slices_mut_doc]
        #[allow(dead_code)]
        #vis struct #slices_mut<'a> {
            #(#field_vis #names: &'a mut [#tys],)*
        }
    }
}

/// `Columnar` for the struct: its fields as a list (`(A, (B, ()))`), which the runtime keeps in
/// its columns, a blank row, each view named from the list's parts, and the resets.
fn columnar(input: &Input<'_>, fields: &[Field<'_>], pool: &Pool) -> TokenStream {
    let private = Input::private();
    let ident = &input.node.ident;
    let [row, row_mut, slices, slices_mut] = view_names(ident);
    let names: Vec<&Ident> = fields.iter().map(name_of).collect();
    let size = &pool.size;
    let name_text = pool.name.to_string();
    let strategy = pool_type::strategy(&input.krate(), &pool.engine);
    let list_type = list(fields.iter().map(|field| field.ty.to_token_stream()));
    let blank_list = list(fields.iter().map(|field| field.blank_value(&private)));
    let pattern = list(names.iter().map(ToTokens::to_token_stream));
    let resets = fields.iter().filter_map(Field::resets_at_release);
    let place = |name: &Ident| quote!(*row.#name);
    let at_release = fields
        .iter()
        .zip(&names)
        .map(|(field, name)| field.reset_at_release(&private, &place(name)));
    let at_reuse = fields
        .iter()
        .zip(&names)
        .map(|(field, name)| field.reset_at_reuse(&private, &place(name)));
    quote! {
        #[automatically_derived]
        impl #private::Columnar for #ident {
            const SIZE: usize = #size;
            const NAME: &'static str = #name_text;
            const RESETS_AT_RELEASE: bool = false #(|| #resets)*;
            type Strategy = #strategy;
            type Fields = #list_type;
            type Ref<'a> = #row<'a>;
            type Mut<'a> = #row_mut<'a>;
            type Slices<'a> = #slices<'a>;
            type SlicesMut<'a> = #slices_mut<'a>;

            fn blank(_: #private::PoolToken<'_, Self>) -> Self::Fields {
                #blank_list
            }

            #[inline]
            fn row<'a>(#pattern: <Self::Fields as #private::ColumnFields>::Ref<'a>) -> #row<'a>
            where
                Self: 'a,
            {
                #row { #(#names,)* }
            }

            #[inline]
            fn row_mut<'a>(#pattern: <Self::Fields as #private::ColumnFields>::Mut<'a>) -> #row_mut<'a>
            where
                Self: 'a,
            {
                #row_mut { #(#names,)* }
            }

            #[inline]
            fn slices<'a>(#pattern: <Self::Fields as #private::ColumnFields>::Slices<'a>) -> #slices<'a>
            where
                Self: 'a,
            {
                #slices { #(#names,)* }
            }

            #[inline]
            fn slices_mut<'a>(
                #pattern: <Self::Fields as #private::ColumnFields>::SlicesMut<'a>,
            ) -> #slices_mut<'a>
            where
                Self: 'a,
            {
                #slices_mut { #(#names,)* }
            }

            #[inline]
            fn reset_at_release(row: #row_mut<'_>) {
                #(#at_release)*
            }

            #[inline]
            fn reset_at_reuse(row: &mut #row_mut<'_>) {
                #(#at_reuse)*
            }
        }
    }
}

/// `FooRef`, `FooMut`, `FooSlices`, `FooSlicesMut`.
fn view_names(ident: &Ident) -> [Ident; 4] {
    ["Ref", "Mut", "Slices", "SlicesMut"].map(|kind| format_ident!("{ident}{kind}"))
}

/// `(a, (b, (c, ())))`, from `a`, `b` and `c`.
fn list(items: impl DoubleEndedIterator<Item = TokenStream>) -> TokenStream {
    items
        .rev()
        .fold(quote!(()), |rest, item| quote!((#item, #rest)))
}

fn name_of<'a>(field: &'a Field<'_>) -> &'a Ident {
    match &field.member {
        Member::Named(name) => name,
        Member::Unnamed(_) => unreachable!("`valid` reports a column struct without named fields"),
    }
}

/// The generated types' doc comments, naming the struct and its pool.
struct Docs {
    ident: String,
    pool: String,
}

impl Docs {
    fn new(ident: &Ident, pool: &Ident) -> Self {
        Self {
            ident: ident.to_string(),
            pool: pool.to_string(),
        }
    }

    fn all(&self) -> [String; 5] {
        let Self { ident, pool } = self;
        [
            format!(
                "A live [`{ident}`] in a [`{pool}`], shared: a reference to each of its fields (`*row.field`). From `get` and iteration."
            ),
            format!(
                "A live [`{ident}`] in a [`{pool}`], mutably: a mutable reference to each of its fields (`*row.field = value`). From `create`, `get_mut`, `retain` and iteration."
            ),
            format!(
                "A run of consecutive live [`{ident}`]s in a [`{pool}`]: a slice of each column, all of one length. From `runs`."
            ),
            format!(
                "A run of consecutive live [`{ident}`]s in a [`{pool}`], mutably: a mutable slice of each column, all of one length, for kernels the compiler vectorizes. From `runs_mut`."
            ),
            format!(
                "A pool of [`{ident}`] objects kept as columns, generated by `#[derive(Pooled)]` with `layout = columns`: each field in an array of its own. [`ColumnPool`](pooling::ColumnPool) documents its methods."
            ),
        ]
    }
}
