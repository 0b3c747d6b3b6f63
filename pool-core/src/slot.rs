use crate::Handle;
use core::cell::{Cell, UnsafeCell};
use core::num::NonZeroU32;

/// The end of the free list.
pub(crate) const NIL: u32 = u32::MAX;

/// `next_free` of a live slot: it is on no list.
const LIVE: u32 = u32::MAX - 1;

/// Slot indices stay below this, so that neither `NIL` nor `LIVE` is ever an index.
pub(crate) const INDEX_END: usize = LIVE as usize;

/// One place in the pool: an object, built once and reused, and the bookkeeping of its lives.
pub(crate) struct Slot<T> {
    /// The generation of the object in the slot while it is live, or of the next one while the
    /// slot is free; 0 once the slot is retired, which no handle carries.
    generation: Cell<u32>,
    /// The next slot of the free list while this one is free; `LIVE` while it holds a live
    /// object, which makes it the truth about liveness that the occupancy bits only hint at.
    next_free: Cell<u32>,
    value: UnsafeCell<T>,
}

impl<T> Slot<T> {
    pub(crate) const fn new(value: T, generation: NonZeroU32, next_free: u32) -> Self {
        Self {
            generation: Cell::new(generation.get()),
            next_free: Cell::new(next_free),
            value: UnsafeCell::new(value),
        }
    }

    /// The generation of the slot's current or next object; `None` once retired.
    #[inline]
    pub(crate) fn generation(&self) -> Option<NonZeroU32> {
        NonZeroU32::new(self.generation.get())
    }

    /// Whether `handle` names the slot's current object (the caller checks the index).
    #[inline]
    pub(crate) fn matches(&self, handle: Handle<T>) -> bool {
        self.generation.get() == handle.generation().get()
    }

    /// The handle of the slot's current object.
    #[inline]
    pub(crate) fn handle(&self, index: usize) -> Handle<T> {
        // A live slot is never retired. Without a branch for the impossible case, iteration that
        // ignores handles does not pay for them.
        debug_assert!(
            self.generation().is_some(),
            "a retired slot holds no object"
        );
        let generation = self.generation().unwrap_or(NonZeroU32::MIN);
        #[expect(clippy::cast_possible_truncation, reason = "indices fit in u32")]
        Handle::new(index as u32, generation)
    }

    /// Moves the slot to its next generation, so that no handle to the object it held matches it
    /// any more. Returns false, and retires the slot for good, when the generation would wrap.
    #[inline]
    pub(crate) fn next_generation(&self) -> bool {
        let next = self.generation.get().wrapping_add(1);
        self.generation.set(next);
        next != 0
    }

    /// Whether the slot holds a live object.
    #[inline]
    pub(crate) fn is_live(&self) -> bool {
        self.next_free.get() == LIVE
    }

    #[inline]
    pub(crate) fn mark_live(&self) {
        self.next_free.set(LIVE);
    }

    #[inline]
    pub(crate) fn next_free(&self) -> u32 {
        self.next_free.get()
    }

    #[inline]
    pub(crate) fn set_next_free(&self, next: u32) {
        self.next_free.set(next);
    }

    #[inline]
    pub(crate) fn value_mut(&mut self) -> &mut T {
        self.value.get_mut()
    }

    /// The object, shared.
    ///
    /// # Safety
    /// No `&mut T` to this slot's object may exist for the returned lifetime. The pool upholds it
    /// by calling this for live slots under `&Pool` (a live object is mutated only through
    /// `&mut Pool`, which cannot coexist with that borrow), and for a slot a `Lease` owns, under
    /// `&Lease`.
    #[inline]
    pub(crate) unsafe fn value(&self) -> &T {
        // SAFETY: the caller guarantees that no mutable reference to the value exists.
        unsafe { &*self.value.get() }
    }

    /// The object, mutably, through a shared reference to the slot.
    ///
    /// # Safety
    /// The caller must own the slot exclusively for the returned lifetime: it is off the free
    /// list and not live (taken by `create` or `acquire` and not yet made live, or held by a
    /// `Lease`), so neither `get`, nor iteration, nor another `create` or `acquire` reaches it,
    /// and the caller hands out no other reference to it meanwhile.
    #[inline]
    #[expect(
        clippy::mut_from_ref,
        reason = "exclusive ownership of the slot is the contract"
    )]
    pub(crate) unsafe fn value_owned(&self) -> &mut T {
        // SAFETY: the caller owns the slot exclusively, so no other reference to the value exists.
        unsafe { &mut *self.value.get() }
    }

    #[cfg(test)]
    pub(crate) fn force_generation(&self, generation: u32) {
        self.generation.set(generation);
    }
}
