use crate::Handle;
use crate::slot::{NIL, Slot};
use crate::storage::Place;
use core::cell::Cell;

/// The pool's bookkeeping: the free list's head and the counts behind [`Stats`](crate::Stats).
///
/// It lives apart from the slots, so that the pool can update it while holding a chunk mutably,
/// and in cells, so that leases can update it through `&Pool`.
pub(crate) struct Ledger {
    pub(crate) free_head: Cell<u32>,
    /// Live objects: reachable by handle.
    pub(crate) len: Cell<usize>,
    /// Objects held by a `Lease`.
    pub(crate) leased: Cell<usize>,
    pub(crate) high_water: Cell<usize>,
    pub(crate) retired: Cell<usize>,
    /// Objects created or lent; released ones are counted by difference.
    pub(crate) created: Cell<u64>,
    pub(crate) failed: Cell<u64>,
    pub(crate) evicted: Cell<u64>,
}

impl Ledger {
    pub(crate) fn new(free_head: u32) -> Self {
        Self {
            free_head: Cell::new(free_head),
            len: Cell::new(0),
            leased: Cell::new(0),
            high_water: Cell::new(0),
            retired: Cell::new(0),
            created: Cell::new(0),
            failed: Cell::new(0),
            evicted: Cell::new(0),
        }
    }

    /// Makes a slot taken off the free list (or out of a lease) live, and returns the handle to
    /// its object.
    #[inline]
    pub(crate) fn occupy<T>(&self, place: &Place<'_, &Slot<T>>) -> Handle<T> {
        place.slot.mark_live();
        place.occupancy.insert(place.local);
        self.len.set(self.len.get() + 1);
        self.raise_high_water();
        place.slot.handle(place.index)
    }

    /// Counts a slot taken off the free list into a lease.
    #[inline]
    pub(crate) fn lend(&self) {
        self.leased.set(self.leased.get() + 1);
        self.raise_high_water();
    }

    #[inline]
    fn raise_high_water(&self) {
        let in_use = self.len.get() + self.leased.get();
        if in_use > self.high_water.get() {
            self.high_water.set(in_use);
        }
    }

    /// Ends the life of a live slot whose object has been reset: the slot moves to its next
    /// version and back onto the free list, or is retired when its versions have come round to
    /// `retired_at`. Its occupancy bit stays set until iteration or `retain` clears it.
    #[inline]
    pub(crate) fn vacate<T>(&self, place: &Place<'_, &Slot<T>>, retired_at: u32) {
        self.len.set(self.len.get() - 1);
        if place.slot.mark_dead(retired_at) {
            self.push_free(place);
        } else {
            self.retired.set(self.retired.get() + 1);
        }
    }

    /// Puts a slot that holds no live object on the free list. A slot that was never made live
    /// keeps its version: it was never handed out.
    #[inline]
    pub(crate) fn push_free<T>(&self, place: &Place<'_, &Slot<T>>) {
        place.slot.set_next_free(self.free_head.get());
        #[expect(clippy::cast_possible_truncation, reason = "indices end below NIL")]
        self.free_head.set(place.index as u32);
    }

    pub(crate) fn has_free(&self) -> bool {
        self.free_head.get() != NIL
    }
}

#[inline]
pub(crate) fn bump(counter: &Cell<u64>) {
    counter.set(counter.get() + 1);
}
