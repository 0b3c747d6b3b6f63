pub(crate) mod free_list;
pub(crate) mod handle;
pub(crate) mod occupancy;
pub(crate) mod offset;
pub(crate) mod shared;
pub(crate) mod state;

use crate::slot::handle::Handle;
use crate::slot::shared::{HIGH, LOW, SharedU64};
use core::cell::UnsafeCell;
use core::num::NonZeroU32;

/// The end of the free list.
pub(crate) const NIL: u32 = u32::MAX;

/// One place in a pool: an object, built once and reused, and the bookkeeping of its lives.
///
/// The slot's version says what the slot holds, as slotmap's does: odd while it holds a live
/// object, even while it is free, lent to a lease, or retired. Every handle carries an odd
/// version, so no handle ever matches a slot without a live object.
///
/// The unsafe contract is the slot's own: a live slot's object is borrowed only through the
/// slot, shared by [`get`](Slot::get) or exclusively through `&mut Slot`; a slot that is not live
/// is borrowed only by the one [`Taken`] made from it.
pub(crate) struct Slot<T> {
    /// The version in the high half; in the low half the next slot of the free list while this
    /// one is on it, and this slot's own index while it is live (meaningless otherwise). So a
    /// live slot's word is the bits of its object's handle, and a lookup compares one word.
    ///
    /// In a shared cell: changed through `&Pool` (by leases) only under the pool's lock, and
    /// read without it by lookups and iteration.
    word: SharedU64,
    value: UnsafeCell<T>,
}

/// The word of a slot at `version` whose low half is `low`.
#[inline]
const fn word(version: u32, low: u32) -> u64 {
    (version as u64) << 32 | low as u64
}

/// The version in a slot's word.
#[inline]
const fn version(word: u64) -> u32 {
    (word >> 32) as u32
}

/// The low half of a slot's word.
#[inline]
const fn low(word: u64) -> u32 {
    #[expect(clippy::cast_possible_truncation, reason = "the low half")]
    let low = word as u32;
    low
}

impl<T> Slot<T> {
    /// A slot that is not live, at `version` (even), linked to `next_free`.
    pub(crate) fn new(value: T, version: u32, next_free: u32) -> Self {
        debug_assert!(version & 1 == 0);
        Self {
            word: SharedU64::new(word(version, next_free)),
            value: UnsafeCell::new(value),
        }
    }

    /// A live slot at `index`, at `version` (odd).
    pub(crate) fn new_live(value: T, version: u32, index: usize) -> Self {
        debug_assert!(version & 1 == 1);
        #[expect(clippy::cast_possible_truncation, reason = "indices end below NIL")]
        let index = index as u32;
        Self {
            word: SharedU64::new(word(version, index)),
            value: UnsafeCell::new(value),
        }
    }

    #[inline]
    pub(crate) fn version(&self) -> u32 {
        version(self.word.get())
    }

    /// Whether the slot holds a live object.
    #[inline]
    pub(crate) fn is_live(&self) -> bool {
        self.version() & 1 == 1
    }

    /// Whether `handle` names the slot's object (the caller checks the index). Handles carry odd
    /// versions only, so this is false for a slot without a live object.
    #[inline]
    pub(crate) fn matches(&self, handle: Handle<T>) -> bool {
        self.word.get() == handle.to_bits()
    }

    /// [`matches`](Slot::matches), through `&mut`.
    #[inline]
    pub(crate) fn matches_mut(&mut self, handle: Handle<T>) -> bool {
        self.word.load_mut() == handle.to_bits()
    }

    /// The handle of the slot's live object.
    #[inline]
    pub(crate) fn handle(&self, index: usize) -> Handle<T> {
        let word = self.word.get();
        debug_assert!(version(word) & 1 == 1, "only a live object has a handle");
        debug_assert_eq!(
            low(word) as usize,
            index,
            "a live slot's word holds its index"
        );
        // A live slot's version is odd, so this is the version itself, and not zero.
        let version = NonZeroU32::MIN | version(word);
        #[expect(clippy::cast_possible_truncation, reason = "indices end below NIL")]
        Handle::new(index as u32, version)
    }

    /// [`handle`](Slot::handle), through `&mut`.
    #[inline]
    pub(crate) fn handle_mut(&mut self, index: usize) -> Handle<T> {
        let version = self.word.with_halves_mut(|halves| halves[HIGH]);
        debug_assert!(version & 1 == 1, "only a live object has a handle");
        let version = NonZeroU32::MIN | version;
        #[expect(clippy::cast_possible_truncation, reason = "indices end below NIL")]
        Handle::new(index as u32, version)
    }

    /// The object `handle` names, shared; `None` unless the slot holds it (the caller checks
    /// the index).
    #[inline]
    pub(crate) fn get(&self, handle: Handle<T>) -> Option<&T> {
        if self.matches(handle) {
            // SAFETY: the slot's version is the handle's, and every handle carries an odd
            // version: the slot is live, which is all `get_unchecked` asks.
            Some(unsafe { self.get_unchecked() })
        } else {
            None
        }
    }

    /// The handle the slot's next object will have: the one [`mark_live`](Slot::mark_live)
    /// makes good.
    #[inline]
    pub(crate) fn next_handle(&mut self, index: usize) -> Handle<T> {
        let version = self.word.with_halves_mut(|halves| halves[HIGH]);
        debug_assert!(version & 1 == 0);
        // A slot that is not live has an even version: the next one, `version | 1` (one `or`
        // with the `NonZeroU32`'s), is odd, so not zero.
        let version = NonZeroU32::MIN | (version | 1);
        #[expect(clippy::cast_possible_truncation, reason = "indices end below NIL")]
        Handle::new(index as u32, version)
    }

    /// The live object, shared, without looking at the version.
    ///
    /// # Safety
    /// The slot must be live. A live slot's object is mutated only through `&mut Slot` (a
    /// [`Taken`] exists only while the slot is not live), which cannot coexist with `&self`.
    #[inline]
    pub(crate) unsafe fn get_unchecked(&self) -> &T {
        debug_assert!(self.is_live());
        // SAFETY: the caller guarantees the slot is live, so no `&mut T` to its object exists
        // while `&self` does (see above).
        unsafe { &*self.value.get() }
    }

    /// The object, mutably, whatever the slot holds: `&mut self` makes the borrow exclusive.
    #[inline]
    pub(crate) fn value_mut(&mut self) -> &mut T {
        self.value.get_mut()
    }

    /// The object `handle` names, mutably; `None` unless the slot holds it (the caller checks
    /// the index).
    #[inline]
    pub(crate) fn get_mut(&mut self, handle: Handle<T>) -> Option<&mut T> {
        if self.matches_mut(handle) {
            Some(self.value.get_mut())
        } else {
            None
        }
    }

    /// Takes exclusive charge of the object of a slot that is not live, through `&self`: for an
    /// object being filled, or lent to a lease.
    ///
    /// # Safety
    /// The slot must not be live, and no other `Taken` of it may exist: it has just been taken
    /// off the free list (or built), so nothing else reaches it until the `Taken` is gone.
    #[inline]
    unsafe fn take(&self) -> Taken<'_, T> {
        debug_assert!(!self.is_live());
        Taken {
            // SAFETY: the slot is not live, so `get` does not read its object, and this is its
            // only `Taken` (the caller's promise): no other reference to the object exists.
            value: unsafe { &mut *self.value.get() },
        }
    }

    /// Makes the slot, at `index`, live: its version turns odd, the version of the handle to its
    /// object, and its word the handle's bits.
    ///
    /// This and the other two `mark_` methods are private to `slot`: only `state` calls them,
    /// changing the occupancy bit with the version.
    #[inline]
    fn mark_live(&self, index: usize) {
        let version = self.version();
        debug_assert!(version & 1 == 0);
        #[expect(clippy::cast_possible_truncation, reason = "indices end below NIL")]
        self.word.set(word(version.wrapping_add(1), index as u32));
    }

    /// [`mark_live`](Slot::mark_live), through `&mut`, with the handle
    /// [`next_handle`](Slot::next_handle) gave: the slot's word is its bits.
    #[inline]
    fn mark_live_mut(&mut self, handle: Handle<T>) {
        debug_assert_eq!(
            handle.raw_version(),
            version(self.word.load_mut()).wrapping_add(1)
        );
        self.word.store_mut(handle.to_bits());
    }

    /// Ends the life of the slot's object: its version turns even, so that no handle to that
    /// object matches it any more. Returns true when the slot has used up its versions: it
    /// reached `retired_at`, and must never be used again.
    #[inline]
    fn mark_dead(&mut self, retired_at: u32) -> bool {
        self.word.with_halves_mut(|halves| {
            debug_assert!(halves[HIGH] & 1 == 1);
            halves[HIGH] = halves[HIGH].wrapping_add(1);
            halves[HIGH] == retired_at
        })
    }

    #[inline]
    pub(crate) fn next_free(&self) -> u32 {
        low(self.word.get())
    }

    /// Links the slot, which is not live, to `next` (under the pool's lock, through `&self`).
    #[inline]
    pub(crate) fn set_next_free(&self, next: u32) {
        self.word.set(word(self.version(), next));
    }

    #[inline]
    pub(crate) fn next_free_mut(&mut self) -> u32 {
        self.word.with_halves_mut(|halves| halves[LOW])
    }

    #[inline]
    pub(crate) fn set_next_free_mut(&mut self, next: u32) {
        self.word.with_halves_mut(|halves| halves[LOW] = next);
    }

    #[cfg(test)]
    pub(crate) fn force_version(&self, version: u32) {
        self.word.set(word(version, self.next_free()));
    }
}

/// Exclusive charge of the object in a slot that is not live (see [`Slot::take`]): the object
/// of a lease, or of a `create` or `acquire` running its `init`.
pub(crate) struct Taken<'a, T> {
    value: &'a mut T,
}

impl<T> Taken<'_, T> {
    #[inline]
    pub(crate) fn get(&self) -> &T {
        self.value
    }

    #[inline]
    pub(crate) fn get_mut(&mut self) -> &mut T {
        self.value
    }
}
