//! The rules that look at the input as a whole rather than at one attribute, and the settings
//! they leave for `expand`: a `Shape` for both derives, a `config::Pool` for `Pooled`.

use crate::ast::{Body, Input, Variant};
use crate::attr::{Container, Layout, OnFull as Word, Storage};
use crate::config::{Bounded, Count, Engine, OnFull, Pool, Refuse, Shape};
use crate::errors::Errors;
use quote::format_ident;
use syn::{Expr, Member};

/// The object every slot is reset to: the struct, or the enum's one blank variant.
pub(crate) fn shape<'a>(input: &'a Input<'a>) -> syn::Result<Shape<'a>> {
    let derive = input.derive.name();
    match &input.body {
        Body::Struct(fields) => Ok(Shape::Struct(fields)),
        Body::Enum(variants) => blank_variant(input, variants).map(|blank| Shape::Enum {
            blank,
            variants: variants.len(),
        }),
        Body::Union(union) => Err(syn::Error::new(
            union.span,
            format_args!(
                "`#[derive({derive})]` supports structs and enums, not unions: a union does not record which of its fields holds a value, so none can be reset; use an enum with a `#[pool(blank)]` variant"
            ),
        )),
    }
}

/// One variant, and only one, is marked `#[pool(blank)]`; field attributes sit only in it.
fn blank_variant<'a>(
    input: &Input<'_>,
    variants: &'a [Variant<'a>],
) -> syn::Result<&'a Variant<'a>> {
    let ident = &input.node.ident;
    let derive = input.derive.name();
    let mut errors = Errors::default();
    if let Some(span) = input.attrs.misplaced_blank {
        errors.at(span, "`blank` goes on a variant, not on the enum: `#[pool(blank)]` above the variant that every object is reset to");
    }
    for span in variants
        .iter()
        .flat_map(|variant| &variant.fields)
        .filter_map(|field| field.misplaced_blank)
    {
        errors.at(span, "`blank` goes on a variant, not on a field: `#[pool(blank)]` above the variant that every object is reset to");
    }
    if variants.is_empty() {
        return errors.before(Err(syn::Error::new_spanned(
            ident,
            format_args!(
                "`#[derive({derive})]` needs an enum with variants: `{ident}` has no values, so there is no blank object to build; add a variant marked `#[pool(blank)]`"
            ),
        )));
    }
    let mut marked = variants.iter().filter(|variant| variant.blank.is_some());
    let Some(blank) = marked.next() else {
        // A `blank` put on the enum or a field says where it goes; a unit variant is the
        // likeliest blank object.
        let first = (variants.iter())
            .find(|variant| variant.fields.is_empty())
            .unwrap_or(&variants[0])
            .ident;
        let missing = syn::Error::new_spanned(
            ident,
            format_args!(
                "`#[derive({derive})]` on an enum needs its blank variant, the one every object is reset to: add `#[pool(blank)]` above it, such as above `{first}` (a unit variant, or one whose fields reset as a struct's do)"
            ),
        );
        return Err(errors.finish().err().unwrap_or(missing));
    };
    for span in marked.filter_map(|other| other.blank) {
        errors.at(
            span,
            format_args!(
                "only one variant can be the blank object, and `{}` already is: remove one of the `#[pool(blank)]`s",
                blank.ident
            ),
        );
    }
    for variant in variants.iter().filter(|variant| variant.blank.is_none()) {
        for field in &variant.fields {
            let reset = field.reset_key.map(|span| (span, field.reset.key()));
            let build = field.build.as_ref().map(|build| (build.key, "build"));
            for (span, key) in reset.into_iter().chain(build) {
                errors.at(
                    span,
                    format_args!(
                        "`{key}` is for fields of the blank variant, `{}`: release replaces a `{}` with a blank `{}`, dropping its fields, so they are never reset or built; remove the attribute",
                        blank.ident, variant.ident, blank.ident,
                    ),
                );
            }
        }
    }
    errors.before(Ok(blank))
}

/// The pool type's settings, checked together. Each one reported wrong gets a stand-in, so
/// that the fallback can still define the pool type.
pub(crate) fn pool(input: &Input<'_>, errors: &mut Errors) -> Pool {
    for param in input.node.generics.lifetimes() {
        errors.spanning(
            &param.lifetime,
            format_args!(
                "a pooled object cannot hold a borrow (`{}`): it lives as long as its pool, which may outlive what it borrows; hold owned data, an `Option<Rc<T>>` or a `pooling::Handle` instead",
                param.lifetime
            ),
        );
    }
    let attrs = &input.attrs;
    let ident = &input.node.ident;
    let name =
        (attrs.name.clone()).unwrap_or_else(|| format_ident!("{}Pool", ident, span = ident.span()));
    if attrs.size.is_none() && !attrs.size_reported {
        errors.spanning(
            ident,
            format_args!("the pool needs a size: add `#[pool(size = N)]` to the {}, N being the most objects alive at once (the pool builds them all up front)", input.item().word()),
        );
    }
    let engine = engine(input, &name, errors);
    if let Engine::Heap(OnFull::Grow(Some(Count::Literal { value: max, span }))) = &engine
        && let Some(Count::Literal { value: size, .. }) = &attrs.size
        && max < size
    {
        errors.at(
            *span,
            format_args!(
                "`max = {max}` is below `size = {size}`: a growing pool starts with `size` slots and grows up to `max`"
            ),
        );
    }
    let columns = columns(input, &engine, errors);
    Pool {
        name,
        vis: attrs.vis.clone().unwrap_or_else(|| input.node.vis.clone()),
        size: attrs.size.clone().unwrap_or_else(Count::stand_in),
        engine,
        columns,
    }
}

/// Whether the pool keeps its objects as columns, and what `layout = columns` cannot go with:
/// a column pool is a struct's, with named fields (a column each), kept by one thread.
fn columns(input: &Input<'_>, engine: &Engine, errors: &mut Errors) -> bool {
    let Some((span, Layout::Columns)) = input.attrs.layout else {
        return false;
    };
    let ident = &input.node.ident;
    match &input.body {
        Body::Struct(fields) if fields.iter().all(|f| matches!(f.member, Member::Named(_))) => {}
        Body::Struct(_) => errors.at(span, "`layout = columns` names each column after its field: give the struct named fields, or remove `layout = columns`"),
        Body::Enum(_) | Body::Union(_) => errors.at(span, "`layout = columns` keeps each field of a struct in an array of its own; an enum's variants have different fields: use the default layout, or a struct with an enum-typed field"),
    }
    if !input.node.generics.params.is_empty() {
        errors.spanning(&input.node.generics, format_args!("`layout = columns` does not take generic parameters yet: give `{ident}` concrete field types, or remove `layout = columns`"));
    }
    if let Engine::Sync { .. } = engine {
        errors.at(span, "`layout = columns` cannot go with `sync` yet: a pool shared across threads hands out whole objects; remove `sync` and share the column pool behind a lock, or keep the default layout");
    }
    true
}

/// The runtime pool and its strategy, from `sync`, `storage`, `on_full`, `evict_by` and `max`.
fn engine(input: &Input<'_>, name: &syn::Ident, errors: &mut Errors) -> Engine {
    let attrs = &input.attrs;
    let on_full = attrs.on_full.map_or(Word::Fail, |(_, on_full)| on_full);
    let bounded = match on_full {
        Word::Fail => Some(Bounded::Refuse(Refuse::Fail)),
        Word::Panic => Some(Bounded::Refuse(Refuse::Panic)),
        Word::Evict => Some(Bounded::Evict(measure(attrs, errors))),
        Word::Grow => None,
    };
    if let (Some((span, _)), false) = (&attrs.evict_by, on_full == Word::Evict) {
        errors.at(
            *span,
            "`evict_by` ranks the objects that `on_full = evict` may evict; add `on_full = evict`, or remove `evict_by`",
        );
    }
    let storage = attrs
        .storage
        .filter(|(_, storage)| *storage == Storage::Inline);
    if let (Some((span, _)), Word::Grow) = (storage, on_full) {
        errors.at(
            span,
            "`storage = inline` cannot grow: its slots are an array inside the pool, and growing needs the heap; choose `on_full = fail`, `panic` or `evict` and a `size` for the most objects alive at once, or keep `on_full = grow` with `storage = heap`",
        );
    }
    let sync = attrs.sync.map(|_| match (attrs.on_full, &bounded) {
        (_, Some(Bounded::Refuse(refuse))) => *refuse,
        (Some((span, Word::Evict)), _) => {
            errors.at(span, "`on_full = evict` cannot go with `sync`: evicting resets a live object, which another thread may be reading through a guard; use `on_full = fail` (the default) and release objects when done, or `on_full = panic`");
            Refuse::Fail
        }
        (Some((span, Word::Grow)), _) => {
            errors.at(span, format_args!("`on_full = grow` cannot go with `sync`: a pool shared across threads cannot grow without locks, since growing would move the objects or need an unbounded table of chunks; size it up front with `size = N` for the most objects alive at once, or remove `sync` and share a `Mutex<{name}>`"));
            Refuse::Fail
        }
        _ => Refuse::Fail,
    });
    let max = attrs.max.as_ref().and_then(|(span, max)| {
        if on_full == Word::Grow {
            return max.clone();
        }
        errors.at(
            *span,
            "`max` limits how far a pool grows, so it needs `on_full = grow`",
        );
        None
    });
    match (sync, bounded, storage, &attrs.size) {
        (Some(refuse), _, storage, size) => Engine::Sync {
            refuse,
            inline: storage.is_some() && size.is_some(),
        },
        (None, Some(bounded), Some(_), Some(_)) => Engine::Inline(bounded),
        (None, Some(bounded), _, _) => Engine::Heap(OnFull::Bounded(bounded)),
        (None, None, _, _) => Engine::Heap(OnFull::Grow(max)),
    }
}

/// The measure of `on_full = evict`. One missing is reported here, one wrong when read; either
/// gets a stand-in that ranks every object alike, for the fallback.
fn measure(attrs: &Container, errors: &mut Errors) -> Box<Expr> {
    match (attrs.on_full, &attrs.evict_by) {
        (_, Some((_, Some(measure)))) => return Box::new(measure.clone()),
        (Some((span, _)), None) => errors.at(
            span,
            "`on_full = evict` needs `evict_by = <measure>`, a `fn(&T) -> K` with `K: Ord` (floats as `pooling::TotalOrder`): the object it ranks lowest is evicted",
        ),
        _ => {}
    }
    Box::new(syn::parse_quote!(|_| 0u8))
}

#[cfg(test)]
mod tests {
    use crate::Derive;
    use proc_macro2::TokenStream;
    use quote::quote;

    fn expand(input: TokenStream) -> String {
        crate::expand::derive(&syn::parse2(input).unwrap(), Derive::Pooled).to_string()
    }

    #[test]
    fn a_blank_on_the_enum_is_the_one_error_about_the_blank_variant() {
        let out = expand(quote! {
            #[pool(size = 4, blank)]
            enum Slot { Empty, Full(u32) }
        });
        assert_eq!(out.matches("compile_error").count(), 1, "{out}");
        assert!(out.contains("not on the enum"), "{out}");
    }

    #[test]
    fn an_inline_pool_that_would_grow_falls_back_to_a_heap_pool_that_grows() {
        let out = expand(quote! {
            #[pool(size = 64, storage = inline, on_full = grow)]
            struct Particle { x: f64 }
        });
        assert_eq!(out.matches("compile_error").count(), 1, "{out}");
        assert!(
            out.contains(
                "type ParticlePool < > = :: pooling :: Pool < Particle , :: pooling :: Grow >"
            ),
            "{out}"
        );
    }

    #[test]
    fn an_evicting_pool_without_a_measure_still_gets_an_evictable_stub() {
        let out = expand(quote! {
            #[pool(size = 16, on_full = evict)]
            struct Voice { volume: u32 }
        });
        assert_eq!(out.matches("compile_error").count(), 1, "{out}");
        assert!(out.contains("Evictable for Voice"), "{out}");
        assert!(out.contains(":: pooling :: Evict >"), "{out}");
    }

    #[test]
    fn a_sync_pool_that_would_grow_falls_back_to_one_that_fails() {
        let out = expand(quote! {
            #[pool(size = 8, sync, on_full = grow, max = 4)]
            struct Job { id: u64 }
        });
        assert_eq!(out.matches("compile_error").count(), 1, "{out}");
        assert!(
            out.contains(":: pooling :: __sync_pool ! ([:: pooling] Job , :: pooling :: Fail)"),
            "{out}"
        );
    }
}
