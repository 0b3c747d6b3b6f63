use crate::Importance;
use core::marker::PhantomData;

/// A type that lives in a [`Pool`](crate::Pool): its default capacity, how to build it blank and
/// how to reset it field by field.
///
/// Implement it with `#[derive(Pooled)]`, which also generates the typed pool (`ParticlePool` for
/// `Particle`). The derive writes the reset code from the struct's fields; see the crate docs for
/// the attributes that tune it.
///
/// The pool calls the methods; user code has no reason to. [`blank`](Pooled::blank) cannot be
/// called from user code at all, because only the pool can make the [`PoolToken`] it takes, which
/// keeps the pool the only way to build a pooled object.
///
/// Implementing `Pooled` by hand is possible, for a type the derive does not take, and it is the
/// one escape hatch from that rule: such a `blank` can hand out the object it builds. It cannot
/// build any other type's object: a token is made for one type, and lives only for the call it
/// is given to.
///
/// An object is reset in two halves. [`reset_at_release`](Pooled::reset_at_release) runs when the
/// object is released: it resets every field that owns something (a type that needs drop, such as
/// a `Vec`, an `Rc` or a `Box`), so buffers are cleared and references let go at once.
/// [`reset_at_reuse`](Pooled::reset_at_reuse) runs when the slot is reused, right before the
/// caller's `init`: it resets the plain data (types without drop glue, such as numbers), where the
/// optimizer can fold the reset into `init`'s own stores. A released object is unreachable, so
/// the split is invisible: every object a user sees was reset completely.
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be stored in a pool",
    label = "`{Self}` does not implement `pooling::Pooled`",
    note = "add `#[derive(pooling::Pooled)]` and `#[pool(size = N)]` to the struct"
)]
pub trait Pooled: Sized {
    /// The number of slots [`Pool::new`](crate::Pool::new) builds, from `#[pool(size = N)]`.
    const SIZE: usize;

    /// The pool's name, for messages and `Debug`: `ParticlePool` for `Particle`, or the
    /// `#[pool(name = ...)]` given.
    const NAME: &'static str = "Pool";

    /// What a full pool does, from `#[pool(on_full = ...)]`: [`Fail`](crate::Fail),
    /// [`Panic`](crate::Panic), [`Evict`](crate::Evict) or [`Grow`](crate::Grow). It is the
    /// default strategy of [`Pool<Self>`](crate::Pool), so the derive's pool type and
    /// `Pool<Self>` are the same type.
    type Strategy;

    /// Whether [`reset_at_release`](Pooled::reset_at_release) may run code at all: false when
    /// every field is plain data with no `reset_with` function, so that a release runs none of
    /// the type's code and cannot panic (`retain` then decides a whole group of 64 objects
    /// before releasing any). The derive computes it; `true` is always right.
    const RESETS_AT_RELEASE: bool = true;

    /// Builds a blank object, exactly as [`reset_at_release`](Pooled::reset_at_release) followed
    /// by [`reset_at_reuse`](Pooled::reset_at_reuse) would leave it (apart from retained capacity
    /// and `keep` fields, which start from `Default`).
    fn blank(token: PoolToken<'_, Self>) -> Self;

    /// Resets the fields that own something. Runs when the object is released.
    fn reset_at_release(&mut self);

    /// Resets the plain-data fields. Runs when the slot is reused, before `init`.
    fn reset_at_reuse(&mut self);
}

/// A pooled type that `#[pool(on_full = evict, evict_by = ...)]` ranks for eviction: the
/// derive implements it from the `evict_by` measure.
#[diagnostic::on_unimplemented(
    message = "`{Self}` has no `evict_by` measure, so its pool cannot evict",
    label = "`{Self}` does not implement `pooling::Evictable`",
    note = "add `on_full = evict, evict_by = <measure>` to its `#[pool(...)]`"
)]
pub trait Evictable: Pooled {
    /// How much the object matters: of the live objects, the one ranked lowest is evicted.
    fn importance(&self) -> impl Importance + use<Self>;
}

/// Proof that the pool of `T` is the caller of [`Pooled::blank`].
///
/// Only the pool can make one, for its own object type, and the lifetime keeps it from being
/// stored for later: a pooled object cannot be built outside a pool, nor by another type's
/// `blank` that was handed a token.
pub struct PoolToken<'a, T> {
    // Invariant in `'a`, so a token cannot be stretched to outlive the call it was passed to.
    call: PhantomData<fn(&'a ()) -> &'a ()>,
    // Ties the token to one type without owning a `T`.
    object: PhantomData<fn() -> T>,
}

/// Builds a blank `T`, with a token that lives only for the call. Not an associated function of
/// the token, so that the compiler does not suggest it to user code that tries to build one.
#[inline]
pub(crate) fn blank<T: Pooled>() -> T {
    T::blank(token())
}

/// A token for a call the pool makes to build `T`'s blank objects.
#[inline]
pub(crate) fn token<'a, T>() -> PoolToken<'a, T> {
    PoolToken {
        call: PhantomData,
        object: PhantomData,
    }
}

/// A pooled type a kernel may write in a free slot of: every field is plain data (`Copy`) that
/// the next `create` resets anyway, so what a kernel leaves in a free slot never shows in an
/// object. It is what [`Pool::groups_mut`](crate::Pool::groups_mut) and
/// [`ColumnPool::groups_mut`](crate::ColumnPool::groups_mut) require, to hand out whole groups
/// of slots, free ones included.
///
/// `#[derive(Pooled)]` implements it for a struct whose fields are each `Copy` and reset at
/// reuse: reset by its type's `Reset` (numbers, `bool`, arrays of them...) or by
/// `#[pool(reset = <value>)]`. It does not for a field marked `#[pool(keep)]` or
/// `#[pool(reset_with = <fn>)]` (reuse leaves it as it was), nor one that owns something (a
/// `Vec`: a push in a free slot would keep its capacity and contents), nor for an enum.
/// Implementing it by hand promises the same: that after any writes to a free slot's fields,
/// [`Pooled::reset_at_reuse`] (or [`Columnar::reset_at_reuse`](crate::Columnar::reset_at_reuse))
/// leaves the object as a release and a reuse of a live object holding those values would.
#[diagnostic::on_unimplemented(
    message = "a kernel may not write in the free slots of `{Self}`: a field is kept across reuse",
    label = "`{Self}` does not implement `pooling::PlainFields`",
    note = "`groups_mut` needs every field plain data (`Copy`) that reuse resets: no `#[pool(keep)]` nor `#[pool(reset_with = ...)]` field, and no enum; use `runs_mut` or `values_mut` for this type"
)]
pub trait PlainFields {}
