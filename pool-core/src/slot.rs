use crate::Handle;
use core::cell::{Cell, UnsafeCell};
use core::num::NonZeroU32;

/// The end of the free list.
pub(crate) const NIL: u32 = u32::MAX;

/// Slot indices stay below this, so that `NIL` is never an index.
pub(crate) const INDEX_END: usize = u32::MAX as usize - 1;

/// One place in the pool: an object, built once and reused, and the bookkeeping of its lives.
pub(crate) struct Slot<T> {
    /// Odd while the slot holds a live object, even otherwise (free, lent, or retired), as
    /// slotmap's versions: a handle always carries an odd version, so no handle ever matches a
    /// slot that holds no live object. Counted from the pool's offset (see `Versions`).
    version: Cell<u32>,
    /// The next slot of the free list while this one is on it; meaningless otherwise.
    next_free: Cell<u32>,
    value: UnsafeCell<T>,
}

impl<T> Slot<T> {
    pub(crate) const fn new(value: T, version: u32, next_free: u32) -> Self {
        Self {
            version: Cell::new(version),
            next_free: Cell::new(next_free),
            value: UnsafeCell::new(value),
        }
    }

    #[inline]
    pub(crate) fn version(&self) -> u32 {
        self.version.get()
    }

    /// Whether `handle` names the slot's current object (the caller checks the index). Handles
    /// carry odd versions only, so this is false for a slot without a live object.
    #[inline]
    pub(crate) fn matches(&self, handle: Handle<T>) -> bool {
        self.version.get() == handle.generation().get()
    }

    /// The handle of the slot's current object.
    #[inline]
    pub(crate) fn handle(&self, index: usize) -> Handle<T> {
        debug_assert!(self.is_live(), "only a live object has a handle");
        // A live slot's version is odd; `| 1` lets the compiler see that it is not zero.
        let version = NonZeroU32::new(self.version.get() | 1).unwrap_or(NonZeroU32::MIN);
        #[expect(clippy::cast_possible_truncation, reason = "indices fit in u32")]
        Handle::new(index as u32, version)
    }

    /// Whether the slot holds a live object.
    #[inline]
    pub(crate) fn is_live(&self) -> bool {
        self.version.get() & 1 == 1
    }

    /// Makes the slot live: its version turns odd, the version of the handle to its object.
    #[inline]
    pub(crate) fn mark_live(&self) {
        debug_assert!(!self.is_live());
        self.version.set(self.version.get().wrapping_add(1));
    }

    /// Ends the life of the slot's object: its version turns even, so that no handle to that
    /// object matches it any more. Returns false when the slot has used up its versions (the
    /// next one would be `retired_at`, where it started) and must be retired.
    #[inline]
    pub(crate) fn mark_dead(&self, retired_at: u32) -> bool {
        debug_assert!(self.is_live());
        let next = self.version.get().wrapping_add(1);
        self.version.set(next);
        next != retired_at
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
    pub(crate) fn force_version(&self, version: u32) {
        self.version.set(version);
    }
}
