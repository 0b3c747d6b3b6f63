//! The one owner of a slot's state. A slot is live ⇔ its version is odd ⇔ its occupancy bit is
//! set: every change of a slot's version goes through a [`Place`], which changes the bit with it
//! (the version and bit setters are private to `slot`). Iteration's unsafe relies on this file.

use crate::slot::free_list::FreeList;
use crate::slot::handle::Handle;
use crate::slot::occupancy::Bit;
use crate::slot::{Slot, Taken};

/// A slot and its occupancy bit, through `&Slot`: for leases, which change a slot's state
/// through `&Pool` under the pool's lock, and for storage being restored.
pub(crate) struct Place<'a, T> {
    slot: &'a Slot<T>,
    bit: Bit<'a>,
}

impl<'a, T> Place<'a, T> {
    #[inline]
    pub(crate) fn new(slot: &'a Slot<T>, bit: Bit<'a>) -> Self {
        Self { slot, bit }
    }

    #[inline]
    pub(crate) fn slot(&self) -> &'a Slot<T> {
        self.slot
    }

    /// Takes the slot, the head of `free`, off the free list, to lend it (under the pool's
    /// lock).
    #[inline]
    pub(crate) fn take(&self, free: &FreeList) {
        free.pop_head(self.slot);
    }

    /// Lends the object of the slot just [taken](Place::take): exclusive charge of it while
    /// the slot stays not live.
    ///
    /// # Safety
    /// The slot must have just been taken off the free list, and not lent since: nothing else
    /// reaches its object until the `Taken` is gone.
    #[inline]
    pub(crate) unsafe fn lend(&self) -> Taken<'a, T> {
        // SAFETY: a slot taken off the free list is not live (only `make_live` makes it so),
        // and this is its only `Taken` (the caller's promise).
        unsafe { self.slot.take() }
    }

    /// Gives the slot at `index`, lent and not live, back to `free` (under the pool's lock).
    #[inline]
    pub(crate) fn unlend(&self, index: usize, free: &FreeList) {
        free.push(index, self.slot);
    }

    /// Makes the slot, at `index` and not live, live: its version odd, its bit set (under the
    /// pool's lock).
    #[inline]
    pub(crate) fn make_live(&self, index: usize) {
        self.slot.mark_live(index);
        self.bit.set();
    }

    /// Sets the bit of a slot just built or loaded (restored from a save, or cloned) if it is
    /// live; the bit is clear before.
    #[inline]
    pub(crate) fn restore(&self) {
        if self.slot.is_live() {
            self.bit.set();
        }
    }
}

/// A slot and its occupancy bit, through `&mut Slot`: for `create`, `release` and `retain`.
pub(crate) struct PlaceMut<'s, 'a, T> {
    slot: &'s mut Slot<T>,
    bit: &'s Bit<'a>,
}

impl<'s, 'a, T> PlaceMut<'s, 'a, T> {
    #[inline]
    pub(crate) fn new(slot: &'s mut Slot<T>, bit: &'s Bit<'a>) -> Self {
        Self { slot, bit }
    }

    /// Makes the slot, not live, live with `handle`, the one
    /// [`next_handle`](Slot::next_handle) gave: its version odd, its bit set.
    #[inline]
    pub(crate) fn fill(self, handle: Handle<T>) {
        self.slot.mark_live_mut(handle);
        self.bit.set();
    }

    /// Ends the life of the live slot's object: its bit cleared, its version even. Returns true
    /// when the slot is retired (it reached `retired_at`) and must never be used again.
    #[inline]
    pub(crate) fn vacate(self, retired_at: u32) -> bool {
        self.bit.clear();
        self.slot.mark_dead(retired_at)
    }
}
