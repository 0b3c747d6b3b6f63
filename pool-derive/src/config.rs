//! What validation hands to code generation: settings whose types hold no missing, wrong or
//! contradictory value, so that `expand` has nothing left to check.

use crate::ast::{Field, Variant};
use proc_macro2::{Literal, Span, TokenStream};
use quote::ToTokens;
use syn::{Expr, Ident, Visibility};

/// The object every slot is reset to, and what is reset in it.
pub(crate) enum Shape<'a> {
    /// A struct: built from its fields, and reset field by field.
    Struct(&'a [Field<'a>]),
    /// An enum: its blank variant, the one marked `#[pool(blank)]`, among `variants` in all.
    Enum {
        blank: &'a Variant<'a>,
        variants: usize,
    },
}

impl Shape<'_> {
    /// The fields that are reset: the struct's, or those of the enum's blank variant. The other
    /// variants' fields are dropped at release, never reset.
    pub(crate) fn reset_fields(&self) -> &[Field<'_>] {
        match self {
            Shape::Struct(fields) => fields,
            Shape::Enum { blank, .. } => &blank.fields,
        }
    }
}

/// The pool type `#[derive(Pooled)]` generates. When the input has errors, `valid` still
/// builds one, with a stand-in for each setting reported wrong, so that the fallback can define
/// the pool type the user's other code names.
pub(crate) struct Pool {
    pub(crate) name: Ident,
    pub(crate) vis: Visibility,
    pub(crate) size: Count,
    pub(crate) engine: Engine,
    /// `layout = columns`: each field in an array of its own, in a `ColumnPool`.
    pub(crate) columns: bool,
}

/// A `size` or `max`: a number of slots.
#[derive(Clone)]
pub(crate) enum Count {
    /// A literal, checked when read (at least 1, indices fit in 32 bits), re-emitted without
    /// its suffix.
    Literal { value: u64, span: Span },
    /// A constant expression, checked when the compiler evaluates it. Boxed: an `Expr` is big
    /// enough with proc-macro2's `span-locations` (bevy enables it) for clippy's
    /// `large_enum_variant`.
    Const(Box<Expr>),
}

impl Count {
    /// A stand-in for a count reported wrong.
    pub(crate) fn stand_in() -> Self {
        Count::Literal {
            value: 1,
            span: Span::call_site(),
        }
    }
}

impl ToTokens for Count {
    fn to_tokens(&self, tokens: &mut TokenStream) {
        match self {
            Count::Literal { value, span } => {
                let mut literal = Literal::u64_unsuffixed(*value);
                literal.set_span(*span);
                literal.to_tokens(tokens);
            }
            Count::Const(expr) => expr.to_tokens(tokens),
        }
    }
}

/// Which runtime pool, where its slots are, and what it does when full: only the combinations
/// the runtime has.
pub(crate) enum Engine {
    /// `Pool<T, S>`: the slots on the heap, in a first chunk and the chunks it grows.
    Heap(OnFull),
    /// `Pool<T, S, Inline<N, W>>`: the slots an array inside the pool, which cannot grow.
    Inline(Bounded),
    /// `SyncPool<T, S>`, or with `inline`, `SyncPool<T, S, Inline<N, W>>`: shared across
    /// threads (and interrupt handlers), so it neither evicts nor grows.
    Sync { refuse: Refuse, inline: bool },
}

/// What a heap pool does when full.
pub(crate) enum OnFull {
    Bounded(Bounded),
    /// `on_full = grow`, up to `max` slots if given.
    Grow(Option<Count>),
}

/// What a pool of fixed size does when full.
pub(crate) enum Bounded {
    Refuse(Refuse),
    /// `on_full = evict`, with the `evict_by` measure. Boxed, as in `Count::Const`.
    Evict(Box<Expr>),
}

/// A full pool refuses to create: `create` returns an error, or panics.
#[derive(Clone, Copy)]
pub(crate) enum Refuse {
    Fail,
    Panic,
}

impl Engine {
    /// The strategy, whatever the storage.
    pub(crate) fn strategy(&self) -> Strategy<'_> {
        match self {
            Engine::Heap(OnFull::Grow(max)) => Strategy::Grow(max.as_ref()),
            Engine::Heap(OnFull::Bounded(bounded)) | Engine::Inline(bounded) => match bounded {
                Bounded::Refuse(refuse) => Strategy::Refuse(*refuse),
                Bounded::Evict(measure) => Strategy::Evict(measure),
            },
            Engine::Sync { refuse, .. } => Strategy::Refuse(*refuse),
        }
    }
}

/// An `Engine`'s strategy, for code that does not care where the slots are.
pub(crate) enum Strategy<'a> {
    Refuse(Refuse),
    Evict(&'a Expr),
    Grow(Option<&'a Count>),
}
