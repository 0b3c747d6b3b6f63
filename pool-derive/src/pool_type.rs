//! The pool type `FooPool` that `#[derive(Pooled)]` generates next to `Foo`: an alias of the
//! runtime's `Pool<Foo, Strategy>`, whose methods are documented once there; and, for
//! `on_full = evict`, the `Evictable` impl that carries the `evict_by` measure.

use crate::ast::Input;
use crate::attr::{Count, OnFull, Storage};
use proc_macro2::{Group, Span, TokenStream, TokenTree};
use quote::{ToTokens, format_ident, quote, quote_spanned};
use syn::spanned::Spanned;
use syn::{GenericParam, Ident, WhereClause};

/// The pool type's name: `FooPool`, or `name = ...`.
pub(crate) fn name(input: &Input<'_>) -> Ident {
    let ident = &input.node.ident;
    (input.attrs.name.clone())
        .unwrap_or_else(|| format_ident!("{}Pool", ident, span = ident.span()))
}

/// The strategy marker type, from `on_full` (and `max`). A sync pool only fails or panics; the
/// others are rejected, and stand in as `Fail` in the fallback's stub.
pub(crate) fn strategy(input: &Input<'_>) -> TokenStream {
    let krate = input.krate();
    match input.attrs.on_full() {
        OnFull::Evict | OnFull::Grow if input.attrs.sync.is_some() => quote!(#krate::Fail),
        OnFull::Fail => quote!(#krate::Fail),
        OnFull::Panic => quote!(#krate::Panic),
        OnFull::Evict => quote!(#krate::Evict),
        OnFull::Grow => match &input.attrs.max {
            Some((_, Count::Literal(max))) => quote!(#krate::Grow<#max>),
            Some((_, Count::Const(max))) => quote!(#krate::Grow<{ #max }>),
            _ => quote!(#krate::Grow),
        },
    }
}

/// The storage marker type, from `storage` (and `size`, whose words of occupancy bits
/// `Inline` takes as its second parameter); `None` for the default, the heap.
fn storage(input: &Input<'_>) -> Option<TokenStream> {
    let krate = input.krate();
    match (input.attrs.storage(), &input.attrs.size) {
        // The default; or a size already reported wrong.
        (Storage::Heap, _) | (Storage::Inline, Count::Missing | Count::Invalid) => None,
        (Storage::Inline, Count::Literal(size)) => {
            let words = size
                .base10_parse::<u64>()
                .expect("checked when parsed")
                .div_ceil(64);
            let words = proc_macro2::Literal::u64_unsuffixed(words);
            Some(quote!(#krate::Inline<#size, #words>))
        }
        (Storage::Inline, Count::Const(size)) => {
            Some(quote!(#krate::Inline<{ #size }, { (#size).div_ceil(64) }>))
        }
    }
}

fn when_full(on_full: OnFull) -> &'static str {
    match on_full {
        OnFull::Fail => "When it is full, `create` returns an error and changes nothing.",
        OnFull::Panic => "When it is full, `create` panics: size it so that it never fills.",
        OnFull::Evict => {
            "When it is full, `create` evicts the least important live object (`evict_by`) and reuses its slot."
        }
        OnFull::Grow => {
            "When it is full, `create` adds a chunk of slots, up to `max`; no object ever moves, and `shrink` gives back chunks with no object in use."
        }
    }
}

/// The pool type alias, and in one anonymous const `pooled_impl` (the `Pooled` impl for the
/// struct, or its fallback stub) and, for `on_full = evict`, the `Evictable` impl, under the
/// same `where_clause` as `pooled_impl`.
pub(crate) fn expand(
    input: &Input<'_>,
    pooled_impl: &TokenStream,
    where_clause: Option<&WhereClause>,
) -> TokenStream {
    let node = input.node;
    let krate = input.krate();
    let vis = input.attrs.vis.as_ref().unwrap_or(&node.vis);
    let ident = &node.ident;
    let pool = name(input);
    let (_, ty_generics, _) = node.generics.split_for_impl();
    // An alias takes the parameters without their bounds, which it would not enforce.
    let params = node.generics.params.iter().map(|param| match param {
        GenericParam::Type(param) => {
            let (ident, default) = (&param.ident, param.default.as_ref());
            let default = default.map(|(eq, ty)| quote!(#eq #ty));
            quote!(#ident #default)
        }
        GenericParam::Const(param) => {
            let (ident, ty, default) = (&param.ident, &param.ty, param.default.as_ref());
            let default = default.map(|(eq, value)| quote!(#eq #value));
            quote!(const #ident: #ty #default)
        }
        GenericParam::Lifetime(param) => param.to_token_stream(),
    });
    let strategy = strategy(input);
    let path = quote!(#krate).to_string().replace(' ', "");
    let path = path.trim_start_matches("::");
    let object = quote!(#ident #ty_generics)
        .to_string()
        .replace(" < ", "<")
        .replace(" >", ">")
        .replace(" ,", ",");
    let storage = storage(input);
    let short = |tokens: &TokenStream| {
        tokens
            .to_string()
            .rsplit("::")
            .next()
            .unwrap_or_default()
            .replace(' ', "")
    };
    let when_full = when_full(input.attrs.on_full());
    let (engine, doc) = if input.attrs.sync.is_some() {
        let doc = format!(
            "A pool of [`{ident}`] objects shared across threads, generated by \
             `#[derive(Pooled)]` with `sync`: [`SyncPool`]({path}::SyncPool)`<{object}, {}>`.\n\n\
             It builds every object up front, blank, in one allocation, and hands them out by \
             handle; `create`, `get`, `release` and `acquire` take `&self` and never block. \
             {when_full} [`SyncPool`]({path}::SyncPool) documents its methods.",
            short(&strategy),
        );
        (quote!(#krate::SyncPool), doc)
    } else {
        let doc = format!(
            "A pool of [`{ident}`] objects, generated by `#[derive(Pooled)]`: \
             [`Pool`]({path}::Pool)`<{object}, {}{}>`.\n\n\
             {} {when_full} [`Pool`]({path}::Pool) documents its methods.",
            short(&strategy),
            storage
                .as_ref()
                .map(|s| format!(", {}", short(s)))
                .unwrap_or_default(),
            if storage.is_some() {
                "It holds its objects inside itself, with no allocation, builds each one blank the first time its slot is used, and hands them out by handle."
            } else {
                "It builds every object up front, blank, in one allocation, and hands them out by handle."
            },
        );
        (quote!(#krate::Pool), doc)
    };
    // A sync pool has no storage parameter (with `storage = inline` the derive reports an error).
    let storage = storage
        .filter(|_| input.attrs.sync.is_none())
        .map(|storage| quote!(, #storage));
    let evictable =
        (input.attrs.on_full() == OnFull::Evict).then(|| evictable(input, where_clause));
    quote! {
        #[doc = #doc]
        // Code may name the pool `Pool<Foo>` and never this.
        #[allow(dead_code)]
        #vis type #pool <#(#params),*> = #engine<#ident #ty_generics, #strategy #storage>;

        #[doc(hidden)]
        const _: () = {
            #krate::__require_pooling_not_pool_core!();

            #pooled_impl

            #evictable
        };
    }
}

/// `Evictable` for the struct, from the `evict_by` measure. Its return type checks, once and
/// at the measure, that the measure ranks totally.
fn evictable(input: &Input<'_>, where_clause: Option<&WhereClause>) -> TokenStream {
    let krate = input.krate();
    let node = input.node;
    let ident = &node.ident;
    let (impl_generics, ty_generics, _) = node.generics.split_for_impl();
    let params = node
        .generics
        .type_params()
        .map(|param| &param.ident)
        .chain(node.generics.const_params().map(|param| &param.ident));
    let measure = input
        .attrs
        .evict_by
        .as_ref()
        .and_then(|(_, by)| by.as_ref());
    let span = measure.map_or_else(Span::call_site, Spanned::span);
    let signature = quote_spanned! {span=>
        fn importance(&self) -> impl #krate::__private::Importance + use<#(#params),*>
    };
    // Without a measure, the fallback's stub: never called.
    let body = measure.map_or_else(
        || quote!(0u8),
        |measure| {
            let krate = respan(krate.clone(), span);
            quote_spanned!(span=> #krate::__private::measure(#measure, self))
        },
    );
    quote! {
        #[automatically_derived]
        impl #impl_generics #krate::__private::Evictable for #ident #ty_generics #where_clause {
            #[inline]
            #signature {
                #body
            }
        }
    }
}

/// The tokens, all spanned at `span`: an error about the expression they start then points at
/// the user's tokens, not at the derive.
fn respan(tokens: TokenStream, span: Span) -> TokenStream {
    tokens
        .into_iter()
        .map(|mut token| {
            if let TokenTree::Group(group) = &token {
                let mut inner = Group::new(group.delimiter(), respan(group.stream(), span));
                inner.set_span(span);
                token = TokenTree::Group(inner);
            }
            token.set_span(span);
            token
        })
        .collect()
}
