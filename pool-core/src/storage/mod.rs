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
mod heap;
#[allow(
    private_interfaces,
    private_bounds,
    unreachable_pub,
    reason = "the `Slots` trait is sealed"
)]
mod inline;

#[cfg(feature = "alloc")]
pub(crate) use heap::HeapSlots;
pub use inline::Inline;
pub(crate) use inline::InlineSlots;

use crate::free_list::FreeList;
use crate::lock::Lock;
use crate::occupancy::Bit;
use crate::shared::SharedU64;
use crate::slot::Slot;
use core::iter::{Chain, Once};

/// The version of a slot never used, counted from the pool's offset: even, not live.
pub(crate) const FIRST_VERSION: u32 = 0;

/// The version of a retired slot, counted from the pool's offset: even, and never reached but
/// by a slot that has had 2³¹ − 1 lives, after which the next version would come round to
/// those of its first lives.
pub(crate) const RETIRED_VERSION: u32 = 0u32.wrapping_sub(2);

/// Where a pool keeps its slots: [`Heap`] (the default: one allocation, sized at run time, and
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
}

/// Slots on the heap, all built by [`Pool::new`](crate::Pool::new) in one allocation whose size
/// is chosen at run time ([`Pool::with_capacity`](crate::Pool::with_capacity)); the only storage
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
}

mod sealed {
    pub trait Sealed {}
}

/// What the pool asks of its slots, whatever keeps them. Only this crate implements it.
#[doc(hidden)]
// `allow`, not `expect`: which of these lints fire differs between compiler versions.
#[allow(
    private_interfaces,
    private_bounds,
    unreachable_pub,
    reason = "the `Slots` trait is sealed"
)]
pub trait Slots<T>: Sized {
    /// The version of a retired slot (see `RETIRED_VERSION`).
    fn retired_at(&self) -> u32;

    /// Slots the pool holds, built or to be built.
    fn capacity(&self) -> usize;

    fn chunk_count(&self) -> usize;

    fn slot(&self, index: usize) -> Option<&Slot<T>>;

    /// The slot at `index` and its occupancy bit.
    fn slot_with_bit(&self, index: usize) -> Option<(&Slot<T>, Bit<'_>)>;

    /// The slot at `index`, mutably, and its occupancy bit.
    fn slot_mut(&mut self, index: usize) -> Option<(&mut Slot<T>, Bit<'_>)>;

    /// The slots that index 0 starts, mutably, beside their occupancy words: every slot built
    /// up to the first that is not (a heap pool's first chunk, an inline pool's built slots).
    /// The hot paths look here first, and elsewhere only out of line.
    fn first_mut(&mut self) -> (&mut [Slot<T>], &[SharedU64]);

    /// Every chunk of built slots, the first first.
    fn chunks(&self) -> Chunks<'_, T>;

    /// Every chunk of built slots, mutably, the first first.
    fn chunks_mut(&mut self) -> ChunksMut<'_, T>;

    /// [`chunks`](Slots::chunks) as the first chunk and the rest, for parallel walks to split.
    #[cfg(feature = "rayon")]
    fn parts(&self) -> (Part<'_, T>, Rest<'_, T>);

    /// [`chunks_mut`](Slots::chunks_mut) as the first chunk and the rest.
    #[cfg(feature = "rayon")]
    fn parts_mut(&mut self) -> (PartMut<'_, T>, RestMut<'_, T>);

    /// Builds one more blank slot and puts it on `free` under `lock`, for storage that builds
    /// slots on first use; false when every slot is built (always, for storage built up front).
    /// True also when another thread was building: this one waited for it, and the caller looks
    /// for a free slot again.
    fn build_next(&self, free: &FreeList, lock: &Lock, blank: impl FnOnce() -> T) -> bool;

    /// The same slots at the same versions, each made by `slot` from its pool-wide index and
    /// the slot here: handles into this storage are good in the copy.
    fn map_slots(&self, slot: impl FnMut(usize, &Slot<T>) -> Slot<T>) -> Self;

    /// Whether the layout is one the pool could have reached (a grown chunk where its position
    /// puts it, version floors even and below retirement); what is wrong if not.
    fn check_layout(&self) -> Result<(), &'static str>;

    /// A version counted from the pool's offset, as the slots keep it.
    #[cfg(test)]
    fn version_of(&self, relative: u32) -> u32;
}

/// A chunk of built slots, shared, beside the occupancy words that have a bit for each.
pub(crate) struct Part<'a, T> {
    /// The pool-wide index of `slots[0]`.
    pub(crate) base: usize,
    pub(crate) slots: &'a [Slot<T>],
    pub(crate) words: &'a [SharedU64],
}

impl<T> Clone for Part<'_, T> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<T> Copy for Part<'_, T> {}

/// A chunk of built slots, mutably, beside their occupancy words.
pub(crate) struct PartMut<'a, T> {
    pub(crate) base: usize,
    pub(crate) slots: &'a mut [Slot<T>],
    pub(crate) words: &'a [SharedU64],
}

/// The chunks past the first: a growing pool's, or none.
#[cfg(feature = "alloc")]
pub(crate) type Rest<'a, T> = crate::grown::Chunks<'a, T>;
#[cfg(not(feature = "alloc"))]
pub(crate) type Rest<'a, T> = core::iter::Empty<Part<'a, T>>;

/// The chunks past the first, mutably.
#[cfg(feature = "alloc")]
pub(crate) type RestMut<'a, T> = crate::grown::ChunksMut<'a, T>;
#[cfg(not(feature = "alloc"))]
pub(crate) type RestMut<'a, T> = core::iter::Empty<PartMut<'a, T>>;

/// Every chunk of a pool, the first first.
pub(crate) type Chunks<'a, T> = Chain<Once<Part<'a, T>>, Rest<'a, T>>;

/// Every chunk of a pool, mutably, the first first.
pub(crate) type ChunksMut<'a, T> = Chain<Once<PartMut<'a, T>>, RestMut<'a, T>>;

/// No chunks past the first.
pub(crate) fn no_rest<'a, T>() -> Rest<'a, T> {
    #[cfg(feature = "alloc")]
    return crate::grown::Chunks::empty();
    #[cfg(not(feature = "alloc"))]
    return core::iter::empty();
}

/// No chunks past the first, mutably.
pub(crate) fn no_rest_mut<'a, T>() -> RestMut<'a, T> {
    #[cfg(feature = "alloc")]
    return crate::grown::ChunksMut::empty();
    #[cfg(not(feature = "alloc"))]
    return core::iter::empty();
}
