use crate::Handle;
use crate::slot::NIL;
use crate::storage::Chunk;
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
    pub(crate) created: Cell<u64>,
    pub(crate) released: Cell<u64>,
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
            released: Cell::new(0),
            failed: Cell::new(0),
            evicted: Cell::new(0),
        }
    }

    /// Makes a slot taken off the free list (or out of a lease) live, and returns the handle to
    /// its object.
    #[inline]
    pub(crate) fn occupy<T>(&self, chunk: &Chunk<T>, local: usize) -> Handle<T> {
        chunk.occupancy.insert(local);
        self.len.set(self.len.get() + 1);
        self.raise_high_water();
        chunk.slots[local].handle(chunk.base + local)
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
        self.high_water.set(self.high_water.get().max(in_use));
    }

    /// Ends the life of a live slot whose object has been reset: the slot moves to its next
    /// generation and back onto the free list, or is retired when its generation would wrap.
    #[inline]
    pub(crate) fn vacate<T>(&self, chunk: &Chunk<T>, local: usize) {
        chunk.occupancy.remove(local);
        self.len.set(self.len.get() - 1);
        if chunk.slots[local].next_generation() {
            self.push_free(chunk, local);
        } else {
            self.retired.set(self.retired.get() + 1);
        }
    }

    /// Puts a slot that was never made live back on the free list. Its generation was never
    /// handed out, so it stays.
    #[inline]
    pub(crate) fn push_free<T>(&self, chunk: &Chunk<T>, local: usize) {
        chunk.slots[local].set_next_free(self.free_head.get());
        #[expect(clippy::cast_possible_truncation, reason = "indices end below NIL")]
        self.free_head.set((chunk.base + local) as u32);
    }

    pub(crate) fn has_free(&self) -> bool {
        self.free_head.get() != NIL
    }
}

#[inline]
pub(crate) fn bump(counter: &Cell<u64>) {
    counter.set(counter.get() + 1);
}
