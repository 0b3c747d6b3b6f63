//! The state word of a slot: its version, whether it is free, live or being released, and how
//! many guards read its object, in one atomic word (as sharded-slab's `Lifecycle` and
//! `RefCount`), so that every change to them is one compare-and-swap.

#[cfg(not(all(target_has_atomic = "64", not(pool_core_narrow))))]
use super::primitives::AtomicU32;
use super::primitives::Ordering;
use super::primitives::word::{AtomicWord, Word};

/// The slot holds no object: it is on the free list, or being filled.
const FREE: Word = 0;
/// The slot holds a live object, reachable by the handle with its version.
const LIVE: Word = 1;
/// The slot's object was released while guards still read it; the last guard to drop resets
/// it and frees the slot.
const RELEASING: Word = 2;
/// The slot's object is lent to a lease.
const LENT: Word = 3;
/// The slot is out of use for good: its versions ran out, or its object's reset panicked.
const RETIRED: Word = 4;
/// The slot is out of use for good and holds no object: building its blank object panicked.
const VOID: Word = 5;

/// Version in the high 32 bits, state in bits 29 to 31, guard count in the low 29.
#[cfg(all(target_has_atomic = "64", not(pool_core_narrow)))]
mod layout {
    use super::Word;
    pub(super) const STAMP_BITS: u32 = 32;
    pub(super) const STATE_SHIFT: u32 = 29;
    pub(super) const STAMP_SHIFT: u32 = 32;
    pub(super) const MOST_GUARDS: &str = "536,870,911";
    /// The version itself: the word has room for all of it.
    pub(super) const fn stamp(version: u32) -> Word {
        version as Word
    }
}

/// The low 21 bits of the version (its stamp) in the high 21 bits of the word, the state in
/// the next 3, the guard count in the low 8. The whole version is in a word of its own.
#[cfg(not(all(target_has_atomic = "64", not(pool_core_narrow))))]
mod layout {
    use super::Word;
    pub(super) const STAMP_BITS: u32 = 21;
    pub(super) const STATE_SHIFT: u32 = 8;
    pub(super) const STAMP_SHIFT: u32 = 11;
    pub(super) const MOST_GUARDS: &str = "255";
    pub(super) const fn stamp(version: u32) -> Word {
        version & ((1 << STAMP_BITS) - 1)
    }
}

use layout::{STAMP_SHIFT, STATE_SHIFT, stamp};

const REFS: Word = (1 << STATE_SHIFT) - 1;

/// Whether the word holds the whole version; else the slot keeps it in a word of its own.
const WHOLE: bool = layout::STAMP_BITS == 32;

/// The version, state and guard count of a slot.
///
/// Versions follow the single-threaded pool's: odd exactly while the slot is live (so no handle,
/// which carries an odd version, ever matches another state), moved on by one when the slot
/// turns live and by one when its object is released.
///
/// With 64-bit words the word holds the whole version. With 32-bit words it holds the version's
/// low 21 bits, its stamp (the parity among them), and `last`, the version of the slot's last
/// live object, holds the whole version, written only by the slot's owner as it publishes an
/// object. A guard counted in on a matching stamp then checks `last`, which cannot change while
/// the guard is out (see `SyncPool::get`); a release checks `last`, then swaps the word from a
/// matching stamp: so a release of an object that was released meanwhile succeeds only if the
/// slot has had exactly a multiple of 2²⁰ lives between its check and its swap (as a free list's
/// tag). Either way a slot has 2³¹ − 1 lives, as with 64-bit words.
pub(crate) struct Lifecycle {
    word: AtomicWord,
    #[cfg(not(all(target_has_atomic = "64", not(pool_core_narrow))))]
    last: AtomicU32,
}

/// What [`Lifecycle::release`] left to do.
pub(crate) enum Released {
    /// No guard reads the object: the caller resets it and frees the slot.
    Reclaim,
    /// Guards read the object: the last of them to drop resets it.
    Deferred,
}

#[inline]
const fn pack(version: u32, state: Word, refs: Word) -> Word {
    debug_assert!(state < 8 && refs <= REFS);
    stamp(version) << STAMP_SHIFT | state << STATE_SHIFT | refs
}

/// The stamp of the word's version (with 64-bit words, the version).
#[inline]
const fn stamp_of(word: Word) -> Word {
    word >> STAMP_SHIFT
}

#[inline]
const fn state(word: Word) -> Word {
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
    /// Retired, and holding no object.
    Void,
}

#[inline]
const fn refs(word: Word) -> Word {
    word & REFS
}

impl Lifecycle {
    const_unless_loom! {
        /// A free slot at `version` (even).
        pub(crate) fn new(version: u32) -> Self {
            Self {
                word: AtomicWord::new(pack(version, FREE, 0)),
                #[cfg(not(all(target_has_atomic = "64", not(pool_core_narrow))))]
                last: AtomicU32::new(version.wrapping_sub(1)),
            }
        }
    }

    /// The version of the slot's last live object (its current one if it is live). Only the
    /// slot's owner changes it, or a guard holds it still.
    #[cfg(not(all(target_has_atomic = "64", not(pool_core_narrow))))]
    #[inline]
    fn last(&self) -> u32 {
        self.last.load(Ordering::Relaxed)
    }

    /// Whether a guard counted in on `version`'s stamp holds the object of `version`: with
    /// 64-bit words the stamp is the version, and it always does; with 32-bit words it is the
    /// object of `version` only if `last` says so (the guard keeps `last` from changing).
    #[inline]
    #[cfg_attr(
        all(target_has_atomic = "64", not(pool_core_narrow)),
        expect(clippy::unused_self, reason = "the call of 32-bit words")
    )]
    pub(crate) fn holds(&self, version: u32) -> bool {
        #[cfg(not(all(target_has_atomic = "64", not(pool_core_narrow))))]
        {
            self.last() == version
        }
        #[cfg(all(target_has_atomic = "64", not(pool_core_narrow)))]
        {
            let _ = version;
            true
        }
    }

    /// Whether the slot's object is live at `version`. Acquire: a caller that sees it live
    /// sees the object as its creator left it.
    #[inline]
    pub(crate) fn is_live_at(&self, version: u32) -> bool {
        let word = self.word.load(Ordering::Acquire);
        stamp_of(word) == stamp(version) && state(word) == LIVE && (WHOLE || self.holds(version))
    }

    /// The version of the slot's object if it is live now (a snapshot).
    #[inline]
    pub(crate) fn live_version(&self) -> Option<u32> {
        let word = self.word.load(Ordering::Relaxed);
        (state(word) == LIVE).then(|| self.version_in(word))
    }

    /// The version a word says, whole: with 32-bit words, from `last`.
    #[inline]
    #[cfg_attr(
        all(target_has_atomic = "64", not(pool_core_narrow)),
        expect(clippy::unused_self, reason = "the call of 32-bit words")
    )]
    fn version_in(&self, word: Word) -> u32 {
        #[cfg(all(target_has_atomic = "64", not(pool_core_narrow)))]
        {
            #[expect(clippy::cast_possible_truncation, reason = "the high half")]
            let version = stamp_of(word) as u32;
            version
        }
        #[cfg(not(all(target_has_atomic = "64", not(pool_core_narrow))))]
        {
            // Live: the last object's; otherwise one on, released.
            self.last().wrapping_add(u32::from(state(word) != LIVE))
        }
    }

    /// Counts a guard in, if the object is live at `version`'s stamp: with 32-bit words the
    /// caller then checks [`holds`](Lifecycle::holds), and counts the guard out if not.
    ///
    /// # Panics
    /// With the most guards the word counts out on one object (2²⁹ − 1 with 64-bit words, 255
    /// with 32-bit ones).
    #[inline]
    pub(crate) fn add_guard(&self, version: u32) -> bool {
        // A guess, not a load: most objects have no guard out, and a swap that fails reads the
        // word anyway, without first fetching the line for reading only.
        let mut word = pack(version, LIVE, 0);
        loop {
            if stamp_of(word) != stamp(version) || state(word) != LIVE {
                return false;
            }
            assert!(
                refs(word) < REFS,
                "too many guards out on one pooled object (at most {})",
                layout::MOST_GUARDS
            );
            // Acquire on success: the guard reads what the creator wrote before publishing.
            match self.word.compare_exchange_weak(
                word,
                word + 1,
                Ordering::Acquire,
                Ordering::Relaxed,
            ) {
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
        let before = self.word.fetch_sub(1, Ordering::AcqRel);
        state(before) == RELEASING && refs(before) == 1
    }

    /// Ends the life of the object live at `version`: the slot moves to the next version at
    /// once, so that no handle reaches the object any more. `None` when the object is not live
    /// at `version` (released before, or another pool's handle).
    #[inline]
    pub(crate) fn release(&self, version: u32) -> Option<Released> {
        if !WHOLE && !self.holds(version) {
            return None;
        }
        // A guess, as in `add_guard`.
        let mut word = pack(version, LIVE, 0);
        loop {
            if stamp_of(word) != stamp(version) || state(word) != LIVE {
                return None;
            }
            let next = pack(version.wrapping_add(1), RELEASING, refs(word));
            // Acquire: when no guard is out, the caller resets the object after every read of
            // it by a guard that has dropped.
            match self
                .word
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
        match state(self.word.load(Ordering::Relaxed)) {
            FREE => Phase::Free,
            LIVE => Phase::Live,
            RELEASING => Phase::Releasing,
            LENT => Phase::Lent,
            RETIRED => Phase::Retired,
            _ => Phase::Void,
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

    /// Takes a slot whose blank object could not be built out of use for good. Only its
    /// owner calls it.
    pub(crate) fn void(&self) {
        self.set_state(VOID);
    }

    #[inline]
    fn set_state(&self, state: Word) {
        let word = self.word.load(Ordering::Relaxed);
        debug_assert!(refs(word) == 0 && self::state(word) != LIVE);
        self.word.store(
            word & !(0b111 << STATE_SHIFT) | state << STATE_SHIFT,
            Ordering::Relaxed,
        );
    }

    /// The version the slot's next object will have. Only the owner of a free slot calls it.
    #[inline]
    pub(crate) fn next_version(&self) -> u32 {
        self.version().wrapping_add(1)
    }

    /// The version of a slot that is not live. Only its owner calls it.
    #[inline]
    pub(crate) fn version(&self) -> u32 {
        #[cfg(all(target_has_atomic = "64", not(pool_core_narrow)))]
        {
            self.version_now()
        }
        #[cfg(not(all(target_has_atomic = "64", not(pool_core_narrow))))]
        {
            self.last().wrapping_add(1)
        }
    }

    /// The slot's version now, whatever its state: for checks, with no other thread at work.
    #[inline]
    #[cfg_attr(not(feature = "alloc"), allow(dead_code))]
    pub(crate) fn version_now(&self) -> u32 {
        self.version_in(self.word.load(Ordering::Relaxed))
    }

    /// Makes a free or lent slot live at its next version, and returns that version. Only the
    /// slot's owner calls it, after filling the object; Release, so that a guard that sees it
    /// live sees the object filled (and, with 32-bit words, `last`).
    #[inline]
    pub(crate) fn publish(&self) -> u32 {
        let next = self.next_version();
        debug_assert!(
            matches!(state(self.word.load(Ordering::Relaxed)), FREE | LENT) && next % 2 == 1
        );
        #[cfg(not(all(target_has_atomic = "64", not(pool_core_narrow))))]
        self.last.store(next, Ordering::Relaxed);
        self.word.store(pack(next, LIVE, 0), Ordering::Release);
        next
    }

    /// Moves a free slot, never used or owned by the caller, to `version` (even): where a slot
    /// built on first use starts, and how tests reach the end of a slot's versions.
    pub(crate) fn start_at(&self, version: u32) {
        #[cfg(not(all(target_has_atomic = "64", not(pool_core_narrow))))]
        self.last.store(version.wrapping_sub(1), Ordering::Relaxed);
        self.word.store(pack(version, FREE, 0), Ordering::Relaxed);
    }

    /// Whether the word's stamp is that of the slot's version (with 32-bit words, that the
    /// word and `last` agree): for checks, with no other thread at work.
    #[cfg(feature = "alloc")]
    pub(crate) fn agrees(&self) -> bool {
        let word = self.word.load(Ordering::Relaxed);
        stamp_of(word) == stamp(self.version_in(word))
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
