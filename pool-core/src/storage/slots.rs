//! What the pool asks of its slots, whatever keeps them: the sealed `Slots` trait, and the
//! chunks of slots it yields.

use super::part::{Part, PartMut};
use super::slot_ref::SlotMut;
use super::view::SlotsView;
use crate::slot::free_list::FreeStack;
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
    /// What a [`Lender`](crate::Lender) sees of the slots while it borrows them.
    type View<'a>: SlotsView<'a, T>
    where
        Self: 'a,
        T: 'a;

    /// Where the pool keeps its free list.
    type Free: FreeStack + Clone;

    /// The version of a retired slot (see `RETIRED_VERSION`).
    fn retired_at(&self) -> u32;

    /// Where the versions count from.
    #[cfg(any(test, all(feature = "serde", feature = "alloc")))]
    fn offset(&self) -> u32;

    /// Slots the pool holds, built or to be built.
    fn capacity(&self) -> usize;

    /// Slots built now.
    fn built(&self) -> usize;

    fn chunk_count(&self) -> usize;

    /// The object of the built slot at `index` if the slot's word is `word` (a live slot's:
    /// the bits of its object's handle).
    fn get(&self, index: usize, word: u64) -> Option<&T>;

    /// The word of the built slot at `index`.
    fn word(&self, index: usize) -> Option<u64>;

    /// The built slot at `index`, mutably.
    fn slot_mut(&mut self, index: usize) -> Option<SlotMut<'_, T>>;

    /// The slots that index 0 starts, mutably: every slot built up to the first that is not (a
    /// heap pool's first chunk, an inline pool's built slots). The hot paths look here first,
    /// and elsewhere only out of line.
    fn first_part_mut(&mut self) -> PartMut<'_, T>;

    /// The slot at `index`, mutably, if it is one of the [first](Slots::first_part_mut).
    #[inline]
    fn first_slot_mut(&mut self, index: usize) -> Option<SlotMut<'_, T>> {
        self.first_part_mut().into_slot(index)
    }

    /// The chunk holding the built slot at `index`, mutably, and the index within it.
    fn part_mut(&mut self, index: usize) -> Option<(PartMut<'_, T>, usize)>;

    /// Asks the memory system for the slot at `index`, if it is one of the first slots: a
    /// hint, which changes nothing.
    #[inline]
    fn prefetch(&self, index: usize) {
        let _ = index;
    }

    /// Every chunk of built slots, the first first.
    fn chunks(&self) -> Chunks<'_, T>;

    /// Every chunk of built slots, mutably, the first first.
    fn chunks_mut(&mut self) -> ChunksMut<'_, T>;

    /// Builds one more blank slot, for storage that builds slots on first use, and returns its
    /// index; it is on no list. `None` when every slot is built (always, for storage
    /// built up front). If `blank` panics, nothing changed.
    fn build_next(&mut self, blank: impl FnOnce() -> T) -> Option<usize>;

    /// Adds a chunk of blank slots, for storage that grows, while the pool holds fewer than
    /// `limit`: its first index and length, its slots on no list. `None`
    /// when it cannot grow. If `blank` panics, nothing changed but the table of positions.
    fn grow(&mut self, limit: usize, blank: impl FnMut() -> T) -> Option<(usize, usize)>;

    /// What a lender sees of the slots, for as long as it borrows them.
    fn view(&mut self) -> Self::View<'_>;

    /// The same slots at the same versions, each object made by `object` from whether its slot
    /// is live and the object here: handles into this storage are good in the copy.
    fn clone_with(&self, object: impl FnMut(bool, &T) -> T) -> Self;

    /// Whether the layout is one the pool could have reached (a grown chunk where its position
    /// puts it, version floors even and below retirement, bits set for the live slots only);
    /// what is wrong if not.
    fn check_layout(&self) -> Result<(), &'static str>;
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
