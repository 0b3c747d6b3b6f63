//! The state word of a slot: its version, whether it is free, live or being released, and how
//! many guards read its object, in one `AtomicU64` (as sharded-slab's `Lifecycle` and
//! `RefCount`), so that every change to them is one compare-and-swap.

use super::primitives::{AtomicU64, Ordering};
use crate::slot::word;

/// The slot holds no object: it is on the free list, or being filled.
const FREE: u64 = 0;
/// The slot holds a live object, reachable by the handle with its version.
const LIVE: u64 = 1;
/// The slot's object was released while guards still read it; the last guard to drop resets
/// it and frees the slot.
const RELEASING: u64 = 2;
/// The slot's object is lent to a lease.
const LENT: u64 = 3;
/// The slot is out of use for good: its versions ran out, or its object's reset panicked.
const RETIRED: u64 = 4;

const STATE_SHIFT: u32 = 29;
const REFS: u64 = (1 << STATE_SHIFT) - 1;

/// Version in the high 32 bits, state in bits 29 to 31, guard count in the low 29.
///
/// Versions follow the single-threaded pool's: odd exactly while the slot is live (so no handle,
/// which carries an odd version, ever matches another state), moved on by one when the slot
/// turns live and by one when its object is released.
pub(crate) struct Lifecycle(AtomicU64);

/// What [`Lifecycle::release`] left to do.
pub(crate) enum Released {
    /// No guard reads the object: the caller resets it and frees the slot.
    Reclaim,
    /// Guards read the object: the last of them to drop resets it.
    Deferred,
}

#[inline]
fn pack(version: u32, state: u64, refs: u64) -> u64 {
    debug_assert!(state < 8 && refs <= REFS);
    #[expect(
        clippy::cast_possible_truncation,
        reason = "state and refs fill the low half"
    )]
    let low = (state << STATE_SHIFT | refs) as u32;
    word::pack(version, low)
}

#[inline]
fn version(word: u64) -> u32 {
    word::high(word)
}

#[inline]
fn state(word: u64) -> u64 {
    word >> STATE_SHIFT & 0b111
}

/// What a slot holds, for the stats.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum Phase {
    Free,
    Live,
    Releasing,
    Lent,
    Retired,
}

#[inline]
fn refs(word: u64) -> u64 {
    word & REFS
}

impl Lifecycle {
    /// A free slot at `version` (even).
    pub(crate) fn new(version: u32) -> Self {
        Self(AtomicU64::new(pack(version, FREE, 0)))
    }

    /// Whether the slot's object is live at `version`. Acquire: a caller that sees it live
    /// sees the object as its creator left it.
    #[inline]
    pub(crate) fn is_live_at(&self, version: u32) -> bool {
        let word = self.0.load(Ordering::Acquire);
        self::version(word) == version && state(word) == LIVE
    }

    /// The version of the slot's object if it is live now (a snapshot).
    #[inline]
    pub(crate) fn live_version(&self) -> Option<u32> {
        let word = self.0.load(Ordering::Relaxed);
        (state(word) == LIVE).then_some(version(word))
    }

    /// Counts a guard in, if the object is live at `version`.
    ///
    /// # Panics
    /// With 2²⁹ − 1 guards out on one object (only guards leaked by `mem::forget` get there).
    #[inline]
    pub(crate) fn add_guard(&self, version: u32) -> bool {
        // A guess, not a load: most objects have no guard out, and a swap that fails reads the
        // word anyway, without first fetching the line for reading only.
        let mut word = pack(version, LIVE, 0);
        loop {
            if self::version(word) != version || state(word) != LIVE {
                return false;
            }
            assert!(
                refs(word) < REFS,
                "too many guards out on one pooled object"
            );
            // Acquire on success: the guard reads what the creator wrote before publishing.
            match self
                .0
                .compare_exchange_weak(word, word + 1, Ordering::Acquire, Ordering::Relaxed)
            {
                Ok(_) => return true,
                Err(now) => word = now,
            }
        }
    }

    /// Counts a guard out; true when it was the last guard of a released object, whose reset
    /// now falls to the caller.
    #[inline]
    pub(crate) fn drop_guard(&self) -> bool {
        // Release, so that the guard's reads happen before the reset; Acquire, so that the
        // caller who resets sees every other guard's reads done.
        let before = self.0.fetch_sub(1, Ordering::AcqRel);
        state(before) == RELEASING && refs(before) == 1
    }

    /// Ends the life of the object live at `version`: the slot moves to the next version at
    /// once, so that no handle reaches the object any more. `None` when the object is not live
    /// at `version` (released before, or another pool's handle).
    #[inline]
    pub(crate) fn release(&self, version: u32) -> Option<Released> {
        // A guess, as in `add_guard`.
        let mut word = pack(version, LIVE, 0);
        loop {
            if self::version(word) != version || state(word) != LIVE {
                return None;
            }
            let next = pack(version.wrapping_add(1), RELEASING, refs(word));
            // Acquire: when no guard is out, the caller resets the object after every read of
            // it by a guard that has dropped.
            match self
                .0
                .compare_exchange_weak(word, next, Ordering::AcqRel, Ordering::Relaxed)
            {
                Ok(_) if refs(word) == 0 => return Some(Released::Reclaim),
                Ok(_) => return Some(Released::Deferred),
                Err(now) => word = now,
            }
        }
    }

    /// What the slot holds now (a snapshot).
    pub(crate) fn phase(&self) -> Phase {
        match state(self.0.load(Ordering::Relaxed)) {
            FREE => Phase::Free,
            LIVE => Phase::Live,
            RELEASING => Phase::Releasing,
            LENT => Phase::Lent,
            _ => Phase::Retired,
        }
    }

    /// Marks a released or lent slot free, keeping its version. Only its owner (the reclaimer,
    /// when no guard is out, or the lease) calls it: nothing else writes the word then, and the
    /// free list's push publishes it.
    #[inline]
    pub(crate) fn set_free(&self) {
        self.set_state(FREE);
    }

    /// Marks a free slot, just taken off the free list, lent. Only its owner calls it.
    #[inline]
    pub(crate) fn lend(&self) {
        self.set_state(LENT);
    }

    /// Takes a slot out of use for good. Only its owner calls it.
    #[inline]
    pub(crate) fn retire(&self) {
        self.set_state(RETIRED);
    }

    #[inline]
    fn set_state(&self, state: u64) {
        let word = self.0.load(Ordering::Relaxed);
        debug_assert!(refs(word) == 0 && self::state(word) != LIVE);
        self.0
            .store(pack(version(word), state, 0), Ordering::Relaxed);
    }

    /// The version the slot's next object will have. Only the owner of a free slot calls it.
    #[inline]
    pub(crate) fn next_version(&self) -> u32 {
        version(self.0.load(Ordering::Relaxed)).wrapping_add(1)
    }

    /// The version of a free slot. Only its owner calls it.
    #[inline]
    pub(crate) fn version(&self) -> u32 {
        version(self.0.load(Ordering::Relaxed))
    }

    /// Makes a free or lent slot live at its next version. Only the slot's owner calls it,
    /// after filling the object; Release, so that a guard that sees it live sees the object
    /// filled.
    #[inline]
    pub(crate) fn publish(&self) {
        let word = self.0.load(Ordering::Relaxed);
        debug_assert!(matches!(state(word), FREE | LENT) && version(word).is_multiple_of(2));
        self.0.store(
            pack(version(word).wrapping_add(1), LIVE, 0),
            Ordering::Release,
        );
    }
}

impl Lifecycle {
    /// Moves a free slot to `version` (even), to test what happens as versions run out.
    #[cfg(all(test, not(loom)))]
    pub(crate) fn force_version(&self, version: u32) {
        self.0.store(pack(version, FREE, 0), Ordering::Relaxed);
    }
}

#[cfg(all(test, not(loom)))]
mod tests {
    use super::*;

    #[test]
    fn a_release_waits_for_the_last_guard() {
        let life = Lifecycle::new(4);
        assert!(!life.add_guard(5), "a free slot takes no guard");
        life.publish();
        assert!(life.is_live_at(5));
        assert!(life.add_guard(5) && life.add_guard(5));
        assert!(matches!(life.release(5), Some(Released::Deferred)));
        assert!(life.release(5).is_none(), "released twice");
        assert!(!life.add_guard(5), "a released object takes no new guard");
        assert!(!life.is_live_at(5));
        assert!(!life.drop_guard(), "one guard is still out");
        assert_eq!(life.phase(), Phase::Releasing);
        assert!(life.drop_guard(), "the last guard reclaims");
        life.set_free();
        assert_eq!(life.phase(), Phase::Free);
        assert_eq!(life.next_version(), 7);
    }

    #[test]
    fn a_release_without_guards_reclaims_at_once() {
        let life = Lifecycle::new(u32::MAX - 1);
        life.publish();
        assert!(life.is_live_at(u32::MAX));
        assert!(matches!(life.release(u32::MAX), Some(Released::Reclaim)));
        life.set_free();
        assert_eq!(life.version(), 0, "versions wrap");
    }
}
