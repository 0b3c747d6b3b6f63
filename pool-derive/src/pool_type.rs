//! The pool type `FooPool` that `#[derive(Pooled)]` generates next to `Foo`: an alias of the
//! runtime's `Pool<Foo, Strategy>`, whose methods are documented once there; and, for
//! `on_full = evict`, the `Evictable` impl that carries the `evict_by` measure.

use crate::ast::Input;
use crate::config::{Count, Engine, OnFull, Pool, Refuse, Strategy};
use proc_macro2::{Group, Span, TokenStream, TokenTree};
use quote::{ToTokens, quote, quote_spanned};
use syn::spanned::Spanned;
use syn::{Expr, GenericParam, WhereClause};

/// The strategy marker type: `Fail`, `Panic`, `Evict` or `Grow<MAX>`.
pub(crate) fn strategy(krate: &TokenStream, engine: &Engine) -> TokenStream {
    match engine.strategy() {
        Strategy::Refuse(Refuse::Fail) => quote!(#krate::Fail),
        Strategy::Refuse(Refuse::Panic) => quote!(#krate::Panic),
        Strategy::Evict(_) => quote!(#krate::Evict),
        Strategy::Grow(None) => quote!(#krate::Grow),
        Strategy::Grow(Some(max @ Count::Literal { .. })) => quote!(#krate::Grow<#max>),
        Strategy::Grow(Some(Count::Const(max))) => quote!(#krate::Grow<{ #max }>),
    }
}

/// The strategy as the docs show it: `Grow<64>`, `Grow<{MAX}>`.
fn strategy_text(engine: &Engine) -> String {
    match engine.strategy() {
        Strategy::Refuse(Refuse::Fail) => "Fail".to_owned(),
        Strategy::Refuse(Refuse::Panic) => "Panic".to_owned(),
        Strategy::Evict(_) => "Evict".to_owned(),
        Strategy::Grow(None) => "Grow".to_owned(),
        Strategy::Grow(Some(max)) => format!("Grow<{}>", count_text(max)),
    }
}

fn count_text(count: &Count) -> String {
    match count {
        Count::Literal { value, .. } => value.to_string(),
        Count::Const(expr) => format!("{{{}}}", expr_text(expr)),
    }
}

/// An expression as the docs show it: a path as written, anything else as its tokens.
fn expr_text(expr: &Expr) -> String {
    match expr {
        Expr::Path(path) if path.qself.is_none() => path_text(&path.path),
        _ => expr.to_token_stream().to_string(),
    }
}

fn path_text(path: &syn::Path) -> String {
    let segments = path
        .segments
        .iter()
        .map(|segment| segment.ident.to_string());
    segments.collect::<Vec<_>>().join("::")
}

/// The `Inline<N, W>` storage marker, whose second parameter is the words of occupancy bits
/// `N` slots need; `None` for the heap.
pub(crate) fn storage(krate: &TokenStream, pool: &Pool) -> Option<(TokenStream, String)> {
    if let Engine::Heap(_) | Engine::Sync { inline: false, .. } = pool.engine {
        return None;
    }
    Some(match &pool.size {
        size @ &Count::Literal { value, .. } => {
            let words = value.div_ceil(64);
            let text = format!("Inline<{value}, {words}>");
            let words = proc_macro2::Literal::u64_unsuffixed(words);
            (quote!(#krate::Inline<#size, #words>), text)
        }
        Count::Const(size) => {
            let size_text = expr_text(size);
            let text = format!("Inline<{{{size_text}}}, {{({size_text}).div_ceil(64)}}>");
            (
                quote!(#krate::Inline<{ #size }, { (#size).div_ceil(64) }>),
                text,
            )
        }
    })
}

fn when_full(engine: &Engine) -> &'static str {
    match engine.strategy() {
        Strategy::Refuse(Refuse::Fail) => {
            "When it is full, `create` returns an error and changes nothing."
        }
        Strategy::Refuse(Refuse::Panic) => {
            "When it is full, `create` panics: size it so that it never fills."
        }
        Strategy::Evict(_) => {
            "When it is full, `create` evicts the least important live object (`evict_by`) and reuses its slot."
        }
        Strategy::Grow(_) => {
            "When it is full, `create` adds a chunk of slots, up to `max`; no object ever moves, and `shrink` gives back chunks with no object in use."
        }
    }
}

/// The pool type's doc comment, naming the struct and the runtime type it aliases.
fn doc(input: &Input<'_>, pool: &Pool, storage: Option<&str>) -> String {
    let ident = &input.node.ident;
    let path = input
        .attrs
        .krate
        .as_ref()
        .map_or_else(|| "pooling".to_owned(), path_text);
    let params = input.node.generics.params.iter().map(|param| match param {
        GenericParam::Type(param) => param.ident.to_string(),
        GenericParam::Const(param) => param.ident.to_string(),
        GenericParam::Lifetime(param) => param.lifetime.to_string(),
    });
    let params = params.collect::<Vec<_>>();
    let object = if params.is_empty() {
        ident.to_string()
    } else {
        format!("{ident}<{}>", params.join(", "))
    };
    let strategy = strategy_text(&pool.engine);
    let when_full = when_full(&pool.engine);
    if let Engine::Sync { .. } = pool.engine {
        let (storage, holds) = match storage {
            Some(storage) => (
                format!(", {storage}"),
                "It holds its objects inside itself, with no allocation (`new` is `const`, for a `static` that thread mode and interrupt handlers share), builds each one blank the first time its slot is used,",
            ),
            None => (String::new(), "It builds every object up front, blank,"),
        };
        return format!(
            "A pool of [`{ident}`] objects shared across threads, generated by \
             `#[derive(Pooled)]` with `sync`: [`SyncPool`]({path}::SyncPool)`<{object}, {strategy}{storage}>`.\n\n\
             {holds} and hands them out by handle; `create`, `get`, `release` and `acquire` take \
             `&self` and never block. {when_full} [`SyncPool`]({path}::SyncPool) documents its methods."
        );
    }
    let (storage, holds) = match storage {
        Some(storage) => (
            format!(", {storage}"),
            "It holds its objects inside itself, with no allocation, builds each one blank the first time its slot is used, and hands them out by handle.",
        ),
        None => (
            String::new(),
            "It builds every object up front, blank, and hands them out by handle.",
        ),
    };
    format!(
        "A pool of [`{ident}`] objects, generated by `#[derive(Pooled)]`: \
         [`Pool`]({path}::Pool)`<{object}, {strategy}{storage}>`.\n\n\
         {holds} {when_full} [`Pool`]({path}::Pool) documents its methods."
    )
}

/// The pool type alias, and in one anonymous const `pooled_impl` (the `Pooled` impl for the
/// struct, or its fallback stub) and, for `on_full = evict`, the `Evictable` impl, under the
/// same `where_clause` as `pooled_impl`.
pub(crate) fn expand(
    input: &Input<'_>,
    pool: &Pool,
    pooled_impl: &TokenStream,
    where_clause: Option<&WhereClause>,
) -> TokenStream {
    let node = input.node;
    let krate = input.krate();
    let vis = &pool.vis;
    let ident = &node.ident;
    let name = &pool.name;
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
    let strategy = strategy(&krate, &pool.engine);
    let storage = storage(&krate, pool);
    let doc = doc(input, pool, storage.as_ref().map(|(_, text)| text.as_str()));
    let storage = storage.map(|(storage, _)| quote!(, #storage));
    let ty = match pool.engine {
        // Through the runtime's macro, which is the error naming the feature where a sync
        // pool cannot exist, at `sync`.
        Engine::Sync { inline, .. } => {
            let sync = input.attrs.sync.unwrap_or_else(|| ident.span());
            let inline = inline.then(|| quote!(inline));
            let args = quote!(#inline [#krate] #ident #ty_generics, #strategy #storage);
            respan(quote!(#krate::__sync_pool!(#args)), sync)
        }
        Engine::Heap(_) | Engine::Inline(_) => {
            quote!(#krate::Pool<#ident #ty_generics, #strategy #storage>)
        }
    };
    let evictable = match pool.engine.strategy() {
        Strategy::Evict(measure) => Some(evictable(input, measure, where_clause)),
        Strategy::Refuse(_) | Strategy::Grow(_) => None,
    };
    let requirement = requirement(input, pool);
    let alias = input.private_alias();
    quote! {
        #[doc = #doc]
        // Code may name the pool `Pool<Foo>` and never this.
        #[allow(dead_code)]
        #vis type #name <#(#params),*> = #ty;

        #[doc(hidden)]
        const _: () = {
            #alias
            #krate::__require_pooling_not_pool_core!();
            #requirement

            #pooled_impl

            #evictable
        };
    }
}

/// The runtime's check that the pool's storage exists with its features and target, at the
/// attribute that chose it (the struct's name for the default heap): `__require_heap!()`,
/// `__require_heap!(grow)`; nothing for an inline pool, which needs nothing, or a sync pool,
/// whose type is the check (`__sync_pool!`).
pub(crate) fn requirement(input: &Input<'_>, pool: &Pool) -> Option<TokenStream> {
    let attrs = &input.attrs;
    let (span, check) = match pool.engine {
        Engine::Inline(_) | Engine::Sync { .. } => return None,
        Engine::Heap(OnFull::Grow(_)) => (attrs.on_full?.0, quote!(__require_heap!(grow))),
        Engine::Heap(OnFull::Bounded(_)) => (
            attrs
                .storage
                .map_or(input.node.ident.span(), |(span, _)| span),
            quote!(__require_heap!()),
        ),
    };
    let krate = input.krate();
    Some(respan(quote!(#krate::#check;), span))
}

/// `Evictable` for the struct, from the `evict_by` measure. Its return type checks, once and
/// at the measure, that the measure ranks totally.
fn evictable(input: &Input<'_>, measure: &Expr, where_clause: Option<&WhereClause>) -> TokenStream {
    let private = Input::private();
    let node = input.node;
    let ident = &node.ident;
    let (impl_generics, ty_generics, _) = node.generics.split_for_impl();
    let params = node
        .generics
        .type_params()
        .map(|param| &param.ident)
        .chain(node.generics.const_params().map(|param| &param.ident));
    let span = measure.span();
    let signature = quote_spanned! {span=>
        fn importance(&self) -> impl #private::Importance + use<#(#params),*>
    };
    let body = {
        let private = respan(private.clone(), span);
        quote_spanned!(span=> #private::measure(#measure, self))
    };
    quote! {
        #[automatically_derived]
        impl #impl_generics #private::Evictable for #ident #ty_generics #where_clause {
            #[inline]
            #signature {
                #body
            }
        }
    }
}

/// The tokens, all spanned at `span`: an error about the expression they start then points at
/// the user's tokens, not at the derive.
pub(crate) fn respan(tokens: TokenStream, span: Span) -> TokenStream {
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

#[cfg(test)]
mod tests {
    use crate::Derive;
    use quote::quote;

    fn doc(input: proc_macro2::TokenStream) -> String {
        let out = crate::expand::derive(&syn::parse2(input).unwrap(), Derive::Pooled);
        let file: syn::File = syn::parse2(out).unwrap();
        let alias = file.items.iter().find_map(|item| match item {
            syn::Item::Type(alias) => Some(alias),
            _ => None,
        });
        let attr = &alias.expect("the pool type").attrs[0];
        let syn::Meta::NameValue(doc) = &attr.meta else {
            panic!("a doc comment first")
        };
        let syn::Expr::Lit(syn::ExprLit {
            lit: syn::Lit::Str(text),
            ..
        }) = &doc.value
        else {
            panic!("a doc string")
        };
        text.value()
    }

    #[test]
    fn the_docs_name_a_constant_by_its_whole_path() {
        let doc = doc(quote! {
            #[pool(size = 8, on_full = grow, max = limits::ENEMIES)]
            struct Enemy<T, const N: usize> { hp: [T; N] }
        });
        assert!(
            doc.contains("[`Pool`](pooling::Pool)`<Enemy<T, N>, Grow<{limits::ENEMIES}>>`"),
            "{doc}"
        );
    }

    #[test]
    fn the_docs_of_an_inline_pool_show_its_words_of_bits() {
        let doc = doc(quote! {
            #[pool(size = VOICES, storage = inline, crate = ::engine::pooling)]
            struct Voice { volume: u32 }
        });
        assert!(
            doc.contains(
                "[`Pool`](engine::pooling::Pool)`<Voice, Fail, Inline<{VOICES}, {(VOICES).div_ceil(64)}>>`"
            ),
            "{doc}"
        );
    }
}
