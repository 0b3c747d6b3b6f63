//! The one owner of a pool's books: which slots are live, free, lent or retired, the free list
//! and the counts. Only this module's files touch them; the pool, its iterators and its lender
//! go through the methods here.

#[cfg(feature = "alloc")]
mod check;
mod copy;
pub(crate) mod counts;
mod engine;
pub(crate) mod lend;
#[cfg(feature = "rayon")]
pub(crate) mod par;
#[cfg(all(feature = "serde", feature = "alloc"))]
pub(crate) mod save;

#[cfg(feature = "alloc")]
use crate::pooled::blank;
#[cfg(feature = "alloc")]
use crate::slot::free_list::HeapStack;
use crate::slot::free_list::InlineStack;
use crate::storage::{Chunks, ChunksMut, Inline, InlineSlots, Slots, Storage};
use crate::{Handle, Pooled, Stats};
use counts::Counts;

/// The slots of a pool and their books.
///
/// Invariants, kept by every method:
/// - a slot is live exactly when its version is odd, and exactly then its occupancy bit is set
///   (kept by `slot/state.rs`, the only code that changes either); `counts.live()` counts live
///   slots;
/// - the live slots, the slots on the free list, the slots lent to leases (each held by one
///   lease, or by an `acquire` running its `init`) and the retired slots partition the built
///   slots (inline storage builds slots on first use; heap storage builds them all up front);
/// - a live slot's word is the bits of the handle that made it live; every handle carries an
///   odd version, so no handle ever matches a slot without a live object, from this pool or any
///   other; a slot moves to its next version whenever it stops being live, and a chunk given
///   back by `shrink` passes its highest version on to any chunk grown in its place;
/// - a live object is changed only through `&mut Books`.
pub(crate) struct Books<T, B: Storage> {
    slots: B::Slots<T>,
    /// The free slots' indices, the one `create` takes next on top.
    free: Free<T, B>,
    counts: Counts,
}

/// Where a pool of `T` in `B` keeps its free list.
pub(crate) type Free<T, B> = <<B as Storage>::Slots<T> as Slots<T>>::Free;

#[cfg(feature = "alloc")]
impl<T: Pooled> Books<T, crate::Heap> {
    /// `capacity` blank slots, all free, taken in index order.
    pub(crate) fn with_capacity(capacity: usize) -> Self {
        Self {
            slots: crate::storage::HeapSlots::new(capacity, blank::<T>),
            free: HeapStack::full(capacity),
            counts: Counts::new(),
        }
    }
}

impl<T, const N: usize, const W: usize> Books<T, Inline<N, W>> {
    /// Writes books with no slot built yet at `this`, in place, never passing the slots
    /// through the stack.
    ///
    /// # Safety
    /// `this` is valid for writes and aligned; what it held is overwritten, not dropped.
    pub(crate) const unsafe fn write_inline(this: *mut Self) {
        // SAFETY: `this` is valid for writes (the caller's contract): the address of a field
        // makes no reference to it.
        let slots = unsafe { &raw mut (*this).slots };
        // SAFETY: as for the slots.
        let free = unsafe { &raw mut (*this).free };
        // SAFETY: as for the slots.
        let counts = unsafe { &raw mut (*this).counts };
        // SAFETY: each part is valid for writes, inside `this`.
        unsafe { InlineSlots::write_new(slots) };
        // SAFETY: as for the slots.
        unsafe { InlineStack::write_new(free) };
        // SAFETY: as for the slots; the counts hold nothing to drop.
        unsafe { counts.write(Counts::new()) };
    }
}

impl<T: Pooled, B: Storage> Books<T, B> {
    /// Books from their parts, checked by the caller.
    #[cfg(all(feature = "serde", feature = "alloc"))]
    fn from_parts(slots: B::Slots<T>, free: Free<T, B>, counts: Counts) -> Self {
        Self {
            slots,
            free,
            counts,
        }
    }

    #[inline]
    pub(crate) fn capacity(&self) -> usize {
        self.slots.capacity()
    }

    #[inline]
    pub(crate) fn len(&self) -> usize {
        self.counts.live()
    }

    /// Whether no slot is free, built or to be built.
    #[inline]
    pub(crate) fn is_full(&self) -> bool {
        self.counts.in_use() + self.counts.retired() >= self.capacity()
    }

    /// The object `handle` names.
    #[inline]
    pub(crate) fn get(&self, handle: Handle<T>) -> Option<&T> {
        self.slots.get(handle.index(), handle.to_bits())
    }

    /// The object `handle` names, mutably.
    #[inline]
    pub(crate) fn get_mut(&mut self, handle: Handle<T>) -> Option<&mut T> {
        let slot = self.slots.slot_mut(handle.index())?;
        slot.place.matches(handle).then_some(slot.object)
    }

    /// Whether `handle` names a live object.
    #[inline]
    pub(crate) fn contains(&self, handle: Handle<T>) -> bool {
        self.slots.word(handle.index()) == Some(handle.to_bits())
    }

    /// Every chunk of built slots, the first first.
    #[inline]
    pub(crate) fn chunks(&self) -> Chunks<'_, T> {
        self.slots.chunks()
    }

    /// Every chunk of built slots, mutably: to change live objects, not the books.
    #[inline]
    pub(crate) fn chunks_mut(&mut self) -> ChunksMut<'_, T> {
        self.slots.chunks_mut()
    }

    /// The figures behind [`Stats`].
    pub(crate) fn stats(&self) -> Stats {
        let counts = &self.counts;
        stats(counts, self.capacity(), self.slots.chunk_count())
    }

    /// Counts a refusal.
    #[cold]
    pub(crate) fn fail(&mut self) {
        self.counts.fail();
    }

    #[inline]
    pub(crate) fn high_water(&self) -> usize {
        self.counts.high_water()
    }

    /// The entries the free list has room for.
    #[cfg(test)]
    pub(crate) fn free_room(&self) -> usize {
        crate::slot::free_list::FreeStack::parts(&self.free).0.len()
    }

    /// Sets the version of `handle`'s slot, counted from the pool's offset.
    #[cfg(test)]
    pub(crate) fn force_version(&mut self, handle: Handle<T>, version: u32) {
        let offset = self.slots.offset();
        let slot = self
            .slots
            .slot_mut(handle.index())
            .expect("a slot of this pool");
        slot.place.force_version(offset.wrapping_add(version));
    }

    /// The version that `force_version(handle, relative)` gives a slot: what a handle then
    /// holds.
    #[cfg(test)]
    pub(crate) fn version_of(&self, relative: u32) -> u32 {
        self.slots.offset().wrapping_add(relative)
    }
}

/// The [`Stats`] of a pool with `counts`, `capacity` slots and `chunks` chunks.
pub(crate) fn stats(counts: &Counts, capacity: usize, chunks: usize) -> Stats {
    let (live, leased, retired) = (counts.live(), counts.leased(), counts.retired());
    Stats {
        capacity,
        live,
        leased,
        free: capacity - live - leased - retired,
        high_water: counts.high_water(),
        created: counts.created(),
        released: counts.released(),
        failed: counts.failed(),
        evicted: counts.evicted(),
        chunks,
        retired,
        waited: 0,
        waiting: 0,
    }
}
