//! The counts behind the sync pool's [`Stats`](crate::Stats): kept per slot, so that creating
//! and releasing touch no counter shared between threads, and added up when asked.

use super::primitives::{AtomicCount, Ordering};

/// A slot's own counts. Only the thread that owns the slot at the time writes them (the one
/// that filled it, or reclaimed it), so a write is a load and a store on the slot's own cache
/// line, not a read-modify-write on a line every thread contends for; the free list's push and
/// pop hand them from one owner to the next. 64 bits where the target has 64-bit atomics, else
/// 32 (they count modulo 2³² there).
pub(crate) struct SlotCounts {
    /// Objects created or lent in this slot.
    created: AtomicCount,
    /// Objects released from this slot, or given back by a lease.
    released: AtomicCount,
}

#[inline]
fn bump(counter: &AtomicCount) {
    counter.store(
        counter.load(Ordering::Relaxed).wrapping_add(1),
        Ordering::Relaxed,
    );
}

impl SlotCounts {
    const_unless_loom! {
        pub(crate) fn new() -> Self {
            Self {
                created: AtomicCount::new(0),
                released: AtomicCount::new(0),
            }
        }
    }

    /// An object was created or lent: by the slot's owner.
    #[inline]
    pub(crate) fn create(&self) {
        bump(&self.created);
    }

    /// An object was released or given back: by the slot's owner (its reclaimer).
    #[inline]
    pub(crate) fn release(&self) {
        bump(&self.released);
    }

    #[allow(clippy::useless_conversion, reason = "32 bits with 32-bit words")]
    pub(crate) fn created(&self) -> u64 {
        self.created.load(Ordering::Relaxed).into()
    }

    #[allow(clippy::useless_conversion, reason = "32 bits with 32-bit words")]
    pub(crate) fn released(&self) -> u64 {
        self.released.load(Ordering::Relaxed).into()
    }
}

/// What one pass over the slots found. Each slot is read once, at its own moment: while other
/// threads work, the figures may disagree by the operations in flight; once they are done,
/// every figure is exact.
#[derive(Default)]
pub(crate) struct Tally {
    pub(crate) live: usize,
    pub(crate) leased: usize,
    pub(crate) free: usize,
    pub(crate) retired: usize,
    /// Slots that have held an object. The free list is last in, first out, and starts in
    /// slot order, so a slot that never held one is taken only when every slot that has is
    /// off the list: this is the most slots in use at once.
    pub(crate) used: usize,
    pub(crate) created: u64,
    pub(crate) released: u64,
}
