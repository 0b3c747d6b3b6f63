//! The shared state of a sync pool, which guards and leases reach through `&`: the slots, the
//! free lists and the count of refusals.

use super::atomic::{AtomicU32, AtomicU64, Ordering};
use super::cell::{MutPtr, UnsafeCell};
use super::counts::{SlotCounts, Tally};
use super::free_list::FreeList;
use super::lifecycle::{Lifecycle, Phase};
use super::shard::{self, IDS, SHARDS};
use crate::pooled::blank;
use crate::slot::NIL;
use crate::{Handle, Pooled};
use alloc::boxed::Box;
use core::num::NonZeroU32;
use scopeguard::ScopeGuard;

/// One place in a sync pool: an object, built once and reused, its state word, its link in a
/// free list and the shard its owner took it on.
///
/// Aligned to a cache line, so that threads working on neighbouring slots do not write one line
/// (most objects fill the line anyway: the state word and counts take 32 bytes).
///
/// Who may touch the object (the unsafe contract, kept by [`Slots`]):
/// - while the state word says live, or releasing with guards out, only guards, and only to
///   read it;
/// - otherwise only the one thread that owns the slot: it took the slot off a free list or
///   fresh (to fill it, or for a lease), or out of a cache by swapping its state word from
///   cached to free, or it reclaimed it (the releaser when no guard was out, or the last guard
///   to drop), until it puts it on a free list or marks it cached.
#[repr(align(64))]
pub(crate) struct Slot<T> {
    pub(crate) life: Lifecycle,
    pub(crate) counts: SlotCounts,
    next: AtomicU32,
    /// The shard the slot goes back to when freed, wherever that happens: the one its owner
    /// took it on, so that a thread that creates what other threads release finds the slots on
    /// its own shard. Written by the owner before it hands the slot on.
    home: AtomicU32,
    value: UnsafeCell<T>,
}

/// The slots, the free lists threaded through them, the caches and the count of refusals.
///
/// A free slot is in one of the [`SHARDS`] free lists, or cached (its state word says so, and
/// the cache of the thread that released it names it), or among the fresh slots (those from
/// `fresh` on, never used). A thread takes its cached slot, then from its own shard, then from
/// the others, then a fresh slot; a thread that reclaims a slot caches it if its cache names no
/// cached slot, and otherwise puts it back on the shard it was taken on. So a thread that
/// creates and releases touches its own slot, cache and shard head: no line that other threads
/// write, unlike one free list for all, whose head moves between cores on every operation; and
/// one create and release does two read-modify-writes (take the cached slot, end the object's
/// life), not three (a pop and a push more).
///
/// A cache is one `AtomicU32` per thread id, written only by the thread holding the id; it is
/// a hint, not a list: any thread takes the slot it names by swapping the slot's state from
/// cached to free, and a cache that names a slot no longer cached names nothing. A slot is
/// cached only by its reclaimer, after naming it in its own cache, so every cached slot is
/// named by a cache, and it is on no free list.
pub(crate) struct Slots<T> {
    all: Box<[Slot<T>]>,
    shards: Box<[FreeList]>,
    /// The slot each thread id last cached, or `NIL`.
    caches: Box<[Cache]>,
    /// The first slot never taken: the slots from here on are free and on no list.
    fresh: AtomicU32,
    /// Creations refused because the pool was full: rare, so shared.
    failed: AtomicU64,
    /// The version at which a slot retires instead of going back on the free list: it has had
    /// 2³¹ − 1 lives, and its next version would come round to those of its first.
    retired_at: u32,
}

/// The slot a thread last cached, on a cache line of its own.
#[repr(align(64))]
struct Cache(AtomicU32);

// SAFETY: the slots hand out `&T` to guards on any thread (so `T: Sync`) and let any thread
// fill, reset and drop objects made on another (so `T: Send`); everything else is atomics.
unsafe impl<T: Send + Sync> Sync for Slots<T> {}

impl<T: Pooled> Slots<T> {
    /// `capacity` blank objects, all free, their versions counted from `offset`.
    pub(crate) fn new(capacity: usize, offset: u32) -> Self {
        let slots = (0..capacity)
            .map(|_| Slot {
                life: Lifecycle::new(offset),
                counts: SlotCounts::default(),
                next: AtomicU32::new(NIL),
                home: AtomicU32::new(0),
                value: UnsafeCell::new(blank::<T>()),
            })
            .collect();
        Self {
            all: slots,
            shards: (0..SHARDS).map(|_| FreeList::new()).collect(),
            caches: (0..IDS).map(|_| Cache(AtomicU32::new(NIL))).collect(),
            fresh: AtomicU32::new(0),
            failed: AtomicU64::new(0),
            retired_at: offset.wrapping_sub(2),
        }
    }

    #[inline]
    pub(crate) fn capacity(&self) -> usize {
        self.all.len()
    }

    /// Counts a creation refused because the pool was full.
    pub(crate) fn fail(&self) {
        self.failed.fetch_add(1, Ordering::Relaxed);
    }

    pub(crate) fn failed(&self) -> u64 {
        self.failed.load(Ordering::Relaxed)
    }

    /// Adds up what the slots hold and have held: O(capacity).
    pub(crate) fn tally(&self) -> Tally {
        let mut tally = Tally::default();
        for slot in &self.all {
            match slot.life.phase() {
                Phase::Free => tally.free += 1,
                Phase::Live => tally.live += 1,
                Phase::Releasing => {}
                Phase::Lent => tally.leased += 1,
                Phase::Retired => tally.retired += 1,
            }
            let created = slot.counts.created();
            tally.used += usize::from(created > 0);
            tally.created += created;
            tally.released += slot.counts.released();
        }
        tally
    }

    /// Counts live slots only, for `len`: O(capacity).
    pub(crate) fn live(&self) -> usize {
        self.all
            .iter()
            .filter(|slot| slot.life.phase() == Phase::Live)
            .count()
    }

    /// The slot `handle` points into, if the pool has one there.
    #[inline]
    pub(crate) fn slot(&self, handle: Handle<T>) -> Option<&Slot<T>> {
        self.all.get(handle.index())
    }

    #[cfg(not(loom))]
    #[inline]
    pub(crate) fn slot_mut(&mut self, handle: Handle<T>) -> Option<&mut Slot<T>> {
        self.all.get_mut(handle.index())
    }

    /// Takes a free slot, resets its plain data and hands the object to `init` with the handle
    /// it will have if made live; the slot's index and a pointer to its object, in the caller's
    /// sole charge. `None` when no slot is free. If `init` panics, the object is reset and the
    /// slot goes back on the free list.
    #[inline]
    pub(crate) fn take_free(
        &self,
        init: impl FnOnce(Handle<T>, &mut T),
    ) -> Option<(u32, MutPtr<T>)> {
        let (index, home) = self.take_index()?;
        let slot = &self.all[index as usize];
        // Mostly the same shard as last time: no store then.
        if slot.home.load(Ordering::Relaxed) != home {
            slot.home.store(home, Ordering::Relaxed);
        }
        let version = NonZeroU32::MIN | slot.life.next_version();
        let handle = Handle::new(index, version);
        let object = slot.value.get_mut();
        {
            // SAFETY: the slot was just taken off the free list, so this thread owns it (see
            // `Slot`): no other reference to the object exists.
            let value = unsafe { object.deref() };
            value.reset_at_reuse();
            let mut value = scopeguard::guard(value, |value| {
                value.reset_at_release();
                self.untake(index);
            });
            init(handle, &mut value);
            ScopeGuard::into_inner(value);
        }
        Some((index, object))
    }

    /// A free slot, now the caller's, and the caller's shard; `None` when every slot is in use.
    ///
    /// `None` only if, at one moment during the call, every shard was empty, no cache named a
    /// cached slot and no fresh slot was left: so a pool of N refuses only with N objects in
    /// use, even with free slots on other threads' shards or in their caches. Fresh slots only
    /// run out, so once none is left, a pass that finds every shard empty and no cached slot,
    /// then a second that finds every head word, every cache and the stamp of every slot named
    /// as the first left them, proves that at the moment between the passes nothing was free:
    /// every push and pop moves a head's tag on, and a slot is cached only at a version it was
    /// never cached at before (see `Lifecycle::stamp`). Otherwise another thread freed or took
    /// a slot meanwhile, and it tries again: lock-free. Every swap that takes a slot (a pop,
    /// taking a cached slot, a fresh one) is a Release and every reading here an Acquire, so a
    /// thread that sees a slot taken also sees the slots its taker freed before taking it:
    /// without that, both passes could read a shard emptied, and not the push that came first.
    #[inline]
    fn take_index(&self) -> Option<(u32, u32)> {
        let id = shard::id();
        let own = shard::shard_of(id);
        #[expect(clippy::cast_possible_truncation, reason = "SHARDS is small")]
        let home = own as u32;
        if let Some(cache) = id.and_then(|id| self.caches.get(id)) {
            let cached = cache.0.load(Ordering::Relaxed);
            if cached != NIL && self.all[cached as usize].life.claim_cached().is_ok() {
                return Some((cached, home));
            }
        }
        let next = |index: u32| &self.all[index as usize].next;
        if let Ok(index) = self.shards[own].pop(next) {
            return Some((index, home));
        }
        self.take_elsewhere(own).map(|index| (index, home))
    }

    /// A slot from another shard, else a fresh one, else from any shard: the slow path of
    /// `take_index`. Fresh slots come after the other shards, so that a slot is used for the
    /// first time only when none used before was seen free, which keeps `high_water` close to
    /// the most slots in use at once.
    #[cold]
    #[cfg_attr(
        not(any(feature = "std", loom)),
        expect(
            clippy::modulo_one,
            clippy::reversed_empty_ranges,
            reason = "one shard without std"
        )
    )]
    fn take_elsewhere(&self, own: usize) -> Option<u32> {
        let next = |index: u32| &self.all[index as usize].next;
        if (self.fresh.load(Ordering::Acquire) as usize) < self.all.len() {
            for step in 1..SHARDS {
                if let Ok(index) = self.shards[(own + step) % SHARDS].pop(next) {
                    return Some(index);
                }
            }
            if let Some(index) = self.take_fresh() {
                return Some(index);
            }
        }
        let mut seen = [0; SHARDS];
        let mut named = [(NIL, 0); IDS];
        loop {
            for step in 0..SHARDS {
                let shard = (own + step) % SHARDS;
                match self.shards[shard].pop(next) {
                    Ok(index) => return Some(index),
                    Err(head) => seen[shard] = head,
                }
            }
            for (cache, named) in self.caches.iter().zip(&mut named) {
                let index = cache.0.load(Ordering::Acquire);
                *named = (NIL, 0);
                if index != NIL {
                    match self.all[index as usize].life.claim_cached() {
                        Ok(()) => return Some(index),
                        Err(stamp) => *named = (index, stamp),
                    }
                }
            }
            let shards_unchanged = self
                .shards
                .iter()
                .zip(seen)
                .all(|(list, head)| list.unchanged(head));
            let caches_unchanged = self
                .caches
                .iter()
                .zip(named)
                .all(|(cache, (index, stamp))| {
                    cache.0.load(Ordering::Acquire) == index
                        && (index == NIL || self.all[index as usize].life.stamp() == stamp)
                });
            if shards_unchanged && caches_unchanged {
                return None;
            }
        }
    }

    /// The first slot never taken, if any is left. `AcqRel`, as every swap that takes a slot: a
    /// thread that finds no fresh slot left sees every slot freed by the threads that took the
    /// last ones, before they took them (see `take_index`).
    #[inline]
    fn take_fresh(&self) -> Option<u32> {
        let mut fresh = self.fresh.load(Ordering::Acquire);
        while (fresh as usize) < self.all.len() {
            match self.fresh.compare_exchange_weak(
                fresh,
                fresh + 1,
                Ordering::AcqRel,
                Ordering::Acquire,
            ) {
                Ok(_) => return Some(fresh),
                Err(now) => fresh = now,
            }
        }
        None
    }

    /// The slot at `index`, which the caller owns.
    #[inline]
    pub(crate) fn owned(&self, index: u32) -> &Slot<T> {
        &self.all[index as usize]
    }

    /// Makes the slot the caller filled (or leased) live, and returns its handle.
    #[inline]
    pub(crate) fn publish(&self, index: u32) -> Handle<T> {
        let life = &self.all[index as usize].life;
        let version = NonZeroU32::MIN | life.next_version();
        life.publish();
        Handle::new(index, version)
    }

    /// Puts a free slot the caller owns, its object reset, back on the free list.
    #[inline]
    pub(crate) fn untake(&self, index: u32) {
        let slot = &self.all[index as usize];
        let home = slot.home.load(Ordering::Relaxed) as usize;
        self.shards[home].push(index, &slot.next);
    }

    /// Frees a released or lent slot the caller owns, its object reset.
    #[inline]
    pub(crate) fn give_back(&self, index: u32) {
        self.all[index as usize].life.set_free();
        self.untake(index);
    }

    /// Resets the object of a released slot the caller reclaimed (no guard is out) and frees
    /// the slot, or retires it if its versions are used up. If the reset panics, the slot is
    /// retired, so that no half-reset object is handed out again.
    pub(crate) fn reclaim(&self, index: u32) {
        let slot = &self.all[index as usize];
        slot.counts.release();
        let retire = scopeguard::guard((), |()| slot.life.retire());
        self.reset(index);
        if slot.life.version() == self.retired_at {
            return;
        }
        ScopeGuard::into_inner(retire);
        if !self.cache(index) {
            self.give_back(index);
        }
    }

    /// Caches a reclaimed slot the caller owns in the caller's cache, if it names no cached
    /// slot (which it must not lose): the next create on this thread takes it back with one
    /// swap, and no free list is touched. False when the slot must go on a free list instead.
    #[inline]
    fn cache(&self, index: u32) -> bool {
        let Some(Cache(cache)) = shard::id().and_then(|id| self.caches.get(id)) else {
            return false;
        };
        let named = cache.load(Ordering::Relaxed);
        // A named slot not cached now is either taken, on a free list, or cached again by
        // another thread, whose own cache names it then: this cache may forget it.
        if named != NIL && named != index && self.all[named as usize].life.is_cached() {
            return false;
        }
        if named != index {
            cache.store(index, Ordering::Relaxed);
        }
        self.all[index as usize].life.cache();
        true
    }

    /// Counts a guard of slot `index` out; true when the caller must now reclaim the slot.
    #[inline]
    pub(crate) fn drop_guard(&self, index: u32) -> bool {
        self.all[index as usize].life.drop_guard()
    }

    /// Moves free slot `index` to version `relative`, counted from the pool's offset.
    #[cfg(all(test, not(loom)))]
    pub(crate) fn force_version(&mut self, index: usize, relative: u32) {
        let offset = self.retired_at.wrapping_add(2);
        self.all[index]
            .life
            .force_version(offset.wrapping_add(relative));
    }

    /// Resets the object of a slot the caller owns (see `Slot`).
    #[inline]
    pub(crate) fn reset(&self, index: u32) {
        let object = self.all[index as usize].value.get_mut();
        // SAFETY: the caller owns the slot: no other reference to the object exists.
        unsafe { object.deref() }.reset_at_release();
    }
}

impl<T> Slot<T> {
    /// A pointer to the object, for a guard to read.
    #[inline]
    pub(crate) fn value(&self) -> super::cell::ConstPtr<T> {
        self.value.get()
    }

    /// The object, through an exclusive borrow: no guard or lease can be out.
    #[cfg(not(loom))]
    #[inline]
    pub(crate) fn value_mut(&mut self) -> &mut T {
        self.value.exclusive()
    }
}
