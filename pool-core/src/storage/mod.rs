//! Where a pool keeps its slots: the third parameter of [`Pool<T, S, B>`](crate::Pool).

// The sealed `Slots` trait is reachable, so its methods' crate-private types are flagged; no one
// outside the crate can name the trait to call them. `allow`, not `expect`: which of these lints
// fire differs between compiler versions.
#[cfg(feature = "alloc")]
#[allow(
    private_interfaces,
    private_bounds,
    unreachable_pub,
    reason = "the `Slots` trait is sealed"
)]
pub(crate) mod heap;
#[allow(
    private_interfaces,
    private_bounds,
    unreachable_pub,
    reason = "the `Slots` trait is sealed"
)]
mod inline;
// Pure index arithmetic: heap pools place their grown chunks with it, and column pools of every
// storage find a row's chunk with it.
#[cfg_attr(not(feature = "alloc"), allow(dead_code))]
pub(crate) mod geometry;
pub(crate) mod part;
pub(crate) mod slot_ref;
pub(crate) mod slots;
pub(crate) mod view;

#[cfg(feature = "alloc")]
pub(crate) use heap::HeapSlots;
pub use inline::Inline;
pub(crate) use inline::InlineSlots;
pub(crate) use slots::Slots;
pub(crate) use slots::{Chunks, ChunksMut};

/// Where a pool keeps its slots: [`Heap`] (the default: allocated once, sized at run time, and
/// the only storage a [`Grow`](crate::Grow) pool can have) or [`Inline`] (the slots inside the
/// pool itself, for `#![no_std]` code without an allocator). Chosen with
/// `#[pool(storage = heap)]` or `#[pool(storage = inline)]`.
///
/// Sealed: the pool's code relies on what each storage promises. Generic code over every
/// pool names it as a bound, as generic code over `HashMap<K, V, S>` names `BuildHasher`:
///
/// ```
/// use pooling::{Pool, Pooled, Storage};
///
/// fn live_count<T: Pooled, S, B: Storage>(pool: &Pool<T, S, B>) -> usize {
///     pool.iter().count()
/// }
/// ```
pub trait Storage: sealed::Sealed {
    /// The slots of a pool of `T`s kept here.
    #[doc(hidden)]
    type Slots<T>: Slots<T>;

    /// The slots and books of a [`SyncPool`](crate::SyncPool) of `T`s kept here.
    #[cfg(any(target_has_atomic = "32", feature = "portable-atomic"))]
    #[doc(hidden)]
    type SyncStore<T: crate::Pooled>: crate::sync::store::SyncStore<T>;
}

/// Slots on the heap, all built by [`Pool::new`](crate::Pool::new) in four allocations (the
/// objects, their slots' versions, a bit per slot and the free list) whose size is chosen at run
/// time ([`Pool::with_capacity`](crate::Pool::with_capacity)); the only storage
/// a [`Grow`](crate::Grow) pool can have. The default, and `#[pool(storage = heap)]`.
///
/// Needs the `alloc` feature (on by default): without it no heap pool can be built.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Heap;

impl sealed::Sealed for Heap {}

impl Storage for Heap {
    #[cfg(feature = "alloc")]
    type Slots<T> = HeapSlots<T>;
    // Without `alloc` a heap pool has no constructor; the type only has to exist, as the
    // default of `Pool`'s third parameter.
    #[cfg(not(feature = "alloc"))]
    type Slots<T> = inline::InlineSlots<T, 0, 0>;
    #[cfg(all(
        feature = "alloc",
        any(target_has_atomic = "32", feature = "portable-atomic")
    ))]
    type SyncStore<T: crate::Pooled> = crate::sync::store::HeapStore<T>;
    #[cfg(all(
        not(feature = "alloc"),
        any(target_has_atomic = "32", feature = "portable-atomic")
    ))]
    type SyncStore<T: crate::Pooled> = crate::sync::store::InlineStore<T, 0>;
}

impl<const N: usize, const W: usize> sealed::Sealed for Inline<N, W> {}

impl<const N: usize, const W: usize> Storage for Inline<N, W> {
    type Slots<T> = InlineSlots<T, N, W>;
    #[cfg(any(target_has_atomic = "32", feature = "portable-atomic"))]
    type SyncStore<T: crate::Pooled> = crate::sync::store::InlineStore<T, N>;
}

mod sealed {
    pub trait Sealed {}
}
