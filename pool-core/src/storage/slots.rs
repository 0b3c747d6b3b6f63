//! What the pool asks of its slots, whatever keeps them: the sealed `Slots` trait, and the
//! chunks of slots it yields.

use super::lock::Lock;
use super::part::{Part, PartMut};
use crate::slot::Slot;
use crate::slot::free_list::FreeList;
use crate::slot::occupancy::Bit;
use core::iter::{Chain, Once};

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

    /// The slot at `index` and its occupancy bit if it is one of those that index 0 starts:
    /// every slot built up to the first that is not (a heap pool's first chunk, an inline
    /// pool's built slots). The hot paths look here first, and elsewhere only out of line.
    fn first_slot_mut(&mut self, index: usize) -> Option<(&mut Slot<T>, Bit<'_>)>;

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

/// The chunks past the first: a growing pool's, or none.
#[cfg(feature = "alloc")]
pub(crate) type Rest<'a, T> = crate::storage::heap::grown::Chunks<'a, T>;
#[cfg(not(feature = "alloc"))]
pub(crate) type Rest<'a, T> = core::iter::Empty<Part<'a, T>>;

/// The chunks past the first, mutably.
#[cfg(feature = "alloc")]
pub(crate) type RestMut<'a, T> = crate::storage::heap::grown::ChunksMut<'a, T>;
#[cfg(not(feature = "alloc"))]
pub(crate) type RestMut<'a, T> = core::iter::Empty<PartMut<'a, T>>;

/// Every chunk of a pool, the first first.
pub(crate) type Chunks<'a, T> = Chain<Once<Part<'a, T>>, Rest<'a, T>>;

/// Every chunk of a pool, mutably, the first first.
pub(crate) type ChunksMut<'a, T> = Chain<Once<PartMut<'a, T>>, RestMut<'a, T>>;

/// No chunks past the first.
pub(crate) fn no_rest<'a, T>() -> Rest<'a, T> {
    #[cfg(feature = "alloc")]
    return crate::storage::heap::grown::Chunks::empty();
    #[cfg(not(feature = "alloc"))]
    return core::iter::empty();
}

/// No chunks past the first, mutably.
pub(crate) fn no_rest_mut<'a, T>() -> RestMut<'a, T> {
    #[cfg(feature = "alloc")]
    return crate::storage::heap::grown::ChunksMut::empty();
    #[cfg(not(feature = "alloc"))]
    return core::iter::empty();
}
