//! The one owner of a slot's state. A slot's word holds its version in the high half and, in the
//! low half, its own index while it is live or free (so a live slot's word is its handle's bits,
//! and a lookup compares one word; a free slot's next handle is its word one version on), `LENT`
//! while a lease holds it, or the next slot of a `par_retain` chain while on one. A slot is
//! live ⇔ its version is odd ⇔ its occupancy bit is set: every change of a slot's version goes
//! through a [`Place`], which changes the bit with it. Iteration's unsafe relies on this file.
//!
//! A place is made of cells, so that one implementation serves both ways a pool is changed:
//! through `&mut Pool` (the cells made with `Cell::from_mut`, plain loads and stores) and
//! through a [`Lender`](crate::Lender), which holds cell views of the pool's books while its
//! leases are out.

use crate::slot::handle::Handle;
use crate::slot::word;
use core::cell::Cell;

/// The word of the free slot at `index`, at `version` (even).
#[inline]
pub(crate) const fn free_word(version: u32, index: usize) -> u64 {
    #[expect(clippy::cast_possible_truncation, reason = "indices end below NIL")]
    let index = index as u32;
    word::pack(version, index)
}

/// The word of the slot at `index`, live at `version` (odd).
#[cfg(all(feature = "serde", feature = "alloc"))]
#[inline]
pub(crate) const fn live_word(version: u32, index: usize) -> u64 {
    #[expect(clippy::cast_possible_truncation, reason = "indices end below NIL")]
    let index = index as u32;
    word::pack(version, index)
}

/// The version in a slot's word.
#[inline]
pub(crate) const fn version(word: u64) -> u32 {
    word::high(word)
}

/// Whether a slot's word says it is live: its version is odd.
#[inline]
pub(crate) const fn is_live(word: u64) -> bool {
    version(word) & 1 == 1
}

/// Links the word of a slot that is not live to `next` on a chain of freed slots held by their
/// words alone (`par_retain`'s parts), as [`Place::chain`] does.
#[cfg(feature = "rayon")]
#[inline]
pub(crate) fn link_word(slot: &mut u64, next: u32) {
    debug_assert!(!is_live(*slot));
    *slot = word::pack(version(*slot), next);
}

/// Whether a slot's word says it is lent to a lease (or filled by an `acquire`'s `init`).
#[inline]
pub(crate) const fn is_lent(word: u64) -> bool {
    !is_live(word) && word::low(word) == crate::slot::LENT
}

/// The index of a word's low half in [`Place::halves`]'s array.
const LOW: usize = if cfg!(target_endian = "little") { 0 } else { 1 };
/// The index of a word's high half in [`Place::halves`]'s array.
const HIGH: usize = 1 - LOW;

/// A slot's word and its occupancy bit.
#[derive(Clone, Copy)]
pub(crate) struct Place<'a> {
    word: &'a Cell<u64>,
    /// The word of occupancy bits holding the slot's bit, and the mask of that bit.
    bits: &'a Cell<u64>,
    mask: u64,
}

impl<'a> Place<'a> {
    #[inline]
    pub(crate) fn new(word: &'a Cell<u64>, bits: &'a Cell<u64>, mask: u64) -> Self {
        Self { word, bits, mask }
    }

    /// The word's two halves, as cells: the version and the link change apart, as 32-bit
    /// loads and stores, where changing one half of the whole word would take a shift and a
    /// mask more.
    #[inline]
    fn halves(&self) -> &'a [Cell<u32>; 2] {
        let word: *const Cell<u64> = self.word;
        // SAFETY: `Cell<u64>` has the layout of `u64`, and `[Cell<u32>; 2]` that of `[u32; 2]`
        // (a cell has its value's): the same size, a `u64` aligned at least as a `u32`, every
        // bit pattern valid for both. Cells allow writes through shared references, and the
        // two views live on the word's one thread (a cell is not `Sync`).
        unsafe { &*word.cast::<[Cell<u32>; 2]>() }
    }

    #[inline]
    pub(crate) fn version(&self) -> u32 {
        self.halves()[HIGH].get()
    }

    #[inline]
    pub(crate) fn is_live(&self) -> bool {
        is_live(self.word.get())
    }

    /// Whether `handle` names the slot's object (the caller checks the index). Handles carry odd
    /// versions only, so this is false for a slot without a live object.
    #[inline]
    pub(crate) fn matches<T>(&self, handle: Handle<T>) -> bool {
        self.word.get() == handle.to_bits()
    }

    /// The handle the slot's next object, at `index`, will have: the one [`fill`](Place::fill)
    /// makes good. The slot is free: its word, which holds its index, one version on (two
    /// instructions where packing the version and the index took four).
    #[inline]
    pub(crate) fn next_handle<T>(&self, index: usize) -> Handle<T> {
        let word = self.word.get();
        debug_assert!(!is_live(word));
        debug_assert_eq!(
            word::low(word) as usize,
            index,
            "a free slot's word holds its index"
        );
        Handle::after_free_word(word)
    }

    /// [`next_handle`](Place::next_handle) for a slot a lease holds, whose word says so.
    #[inline]
    pub(crate) fn next_handle_lent<T>(&self, index: usize) -> Handle<T> {
        debug_assert!(is_lent(self.word.get()));
        Handle::next_at(index, self.version())
    }

    /// Links the slot, just freed by a part of `par_retain`, to `next` on the part's chain of
    /// freed slots, which the pool puts on its free list when every part is done.
    #[cfg(feature = "rayon")]
    #[inline]
    pub(crate) fn chain(&self, next: u32) {
        debug_assert!(!self.is_live());
        self.halves()[LOW].set(next);
    }

    /// Takes the slot at `index` off the chain of `par_retain`'s freed slots that
    /// [`chain`](Place::chain) put it on, free: its word holds its index again. Returns the next
    /// slot of the chain.
    #[cfg(feature = "rayon")]
    #[inline]
    pub(crate) fn unchain(&self, index: usize) -> u32 {
        let next = self.halves()[LOW].get();
        self.unlend(index);
        next
    }

    /// Marks the slot at `index`, lent or on a `par_retain` chain, free: it goes back on the
    /// free list, its word holding its index again.
    #[inline]
    pub(crate) fn unlend(&self, index: usize) {
        debug_assert!(!self.is_live());
        #[expect(clippy::cast_possible_truncation, reason = "indices end below NIL")]
        self.halves()[LOW].set(index as u32);
    }

    /// Makes the slot, not live, live with `handle`, the one
    /// [`next_handle`](Place::next_handle) gave: its version odd, its word the handle's bits,
    /// its bit set.
    #[inline]
    pub(crate) fn fill<T>(&self, handle: Handle<T>) {
        self.fill_word(handle);
        self.bits.set(self.bits.get() | self.mask);
    }

    /// [`fill`](Place::fill) but for the bit, for a stretch of slots whose bits its caller sets
    /// together ([`occupancy::set_run`](crate::slot::occupancy::set_run)) before the pool is
    /// read again, also if a creation unwinds.
    #[inline]
    pub(crate) fn fill_word<T>(&self, handle: Handle<T>) {
        debug_assert_eq!(handle.raw_version(), self.version().wrapping_add(1));
        self.word.set(handle.to_bits());
    }

    /// Ends the life of the live slot's object: its bit cleared, its version even. Returns true
    /// when the slot is retired (it reached `retired_at`) and must never be used again.
    #[inline]
    pub(crate) fn vacate(&self, retired_at: u32) -> bool {
        self.end_life() == retired_at
    }

    /// [`vacate`](Place::vacate), returning the slot's new version: the slot is retired if it
    /// is the pool's `retired_at`.
    #[inline]
    pub(crate) fn end_life(&self) -> u32 {
        debug_assert!(self.is_live());
        // The whole word, its high half one version on: the next `create` here loads the whole
        // word, which a store of its half alone cannot forward (churn took 2.2 x slotmap's time).
        // Before the bit's store, which could alias it: the word is not loaded again.
        let word = self.word.get().wrapping_add(1 << 32);
        self.word.set(word);
        self.bits.set(self.bits.get() & !self.mask);
        version(word)
    }

    /// Marks the slot, just taken off the free list for a lease, lent: its word says so until
    /// the lease gives it back or makes it live.
    #[inline]
    pub(crate) fn lend(&self) {
        debug_assert!(!self.is_live());
        self.halves()[LOW].set(crate::slot::LENT);
    }

    /// Gives the slot at `index`, just built, its first word: free, at `version`.
    #[inline]
    pub(crate) fn start(&self, version: u32, index: usize) {
        debug_assert!(version.is_multiple_of(2));
        self.word.set(free_word(version, index));
    }

    /// Takes the slot, not live and on no list (a lease's), out of use for good: its object's
    /// reset panicked, and no one is to see it half reset.
    #[inline]
    pub(crate) fn retire(&self, retired_at: u32) {
        debug_assert!(!self.is_live());
        self.word.set(word::pack(retired_at, crate::slot::NIL));
    }

    /// Sets the slot's version, keeping the low half of its word.
    #[cfg(test)]
    pub(crate) fn force_version(&self, version: u32) {
        self.word
            .set(word::pack(version, word::low(self.word.get())));
    }
}
