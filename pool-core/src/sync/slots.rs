//! The shared state of a sync pool, which guards and leases reach through `&`: the slots, and
//! the books beside them (the free lists, the count of refusals).

use super::counts::{SlotCounts, Tally};
use super::free_shard::FreeShard;
use super::guard::SyncGuard;
use super::lifecycle::{Lifecycle, Phase};
use super::primitives::{AtomicCount, AtomicU32, MutPtr, ObjectCell, Ordering};
use super::shard::{self, SHARDS};
#[cfg(feature = "async")]
use super::wait::Waiters;
use crate::limits;
use crate::pooled::blank;
use crate::slot::{NIL, offset};
use crate::{Handle, Pooled};
use core::num::NonZeroU32;
use scopeguard::ScopeGuard;

/// One place in a sync pool: an object, built once and reused, its state word, its link in a
/// free list and the shard its owner took it on.
///
/// Aligned to a cache line with `std`, so that threads working on neighbouring slots do not
/// write one line (most objects fill the line anyway: the state word and counts take 32
/// bytes); without `std`, on a microcontroller, RAM is better spent on slots.
///
/// Who may touch the object (the unsafe contract, kept by [`SyncSlots`]):
/// - while the state word says live, or releasing with guards out, only guards, and only to
///   read it;
/// - otherwise only the one thread that owns the slot: it took the slot off the free list (to
///   fill it, or for a lease), or it reclaimed it (the releaser when no guard was out, or the
///   last guard to drop).
///
/// The object is built ([`Books::built`] says which are built up front, the others are built
/// by the first thread to take them) unless the slot is void.
#[cfg_attr(feature = "std", repr(align(64)))]
pub(crate) struct SyncSlot<T> {
    pub(crate) life: Lifecycle,
    pub(crate) counts: SlotCounts,
    next: AtomicU32,
    /// The shard the slot goes back to when freed, wherever that happens: the one its owner
    /// took it on, so that a thread that creates what other threads release finds the slots on
    /// its own shard. Written by the owner before it hands the slot on.
    home: AtomicU32,
    value: ObjectCell<T>,
}

// SAFETY: the slots hand out `&T` to guards on any thread (so `T: Sync`) and let any thread
// fill, reset and drop objects made on another (so `T: Send`); everything else is atomics.
unsafe impl<T: Send + Sync> Sync for SyncSlot<T> {}

/// What a pool keeps beside its slots: the free lists threaded through them and the count of
/// refusals.
///
/// A free slot is in one of the [`SHARDS`] free lists, or among the fresh slots (those from
/// `fresh` on, never used). A thread takes from its own shard, then from the others, then a
/// fresh slot; a freed slot goes back to the shard it was taken on. So a thread that creates
/// and releases touches its own shard's head and its own slots: no line that other threads
/// write, unlike one free list for all, whose head moves between cores on every operation.
pub(crate) struct Books {
    shards: [FreeShard; SHARDS],
    /// The first slot never taken: the slots from here on are free and on no list.
    fresh: AtomicU32,
    /// Creations refused because the pool was full: rare, so shared.
    failed: AtomicCount,
    /// The tasks waiting for a free slot, woken as slots are freed.
    #[cfg(feature = "async")]
    pub(crate) waiters: Waiters,
    /// The version at which a slot retires instead of going back on the free list: it has had
    /// 2³¹ − 1 lives, and its next version would come round to those of its first. Even;
    /// `UNDRAWN` until a pool built by a `const fn` takes its first slot.
    retired_at: AtomicU32,
    /// The slots whose objects were built up front: the others are built as they are first
    /// taken.
    built: u32,
}

/// `Books::retired_at` before the pool's versions are drawn: odd, so never a version at which
/// a slot retires.
const UNDRAWN: u32 = 1;

impl Books {
    /// The books of a pool of `capacity` slots, all built, whose versions start at `offset`.
    #[cfg(feature = "alloc")]
    pub(crate) fn up_front(capacity: usize, offset: u32) -> Self {
        #[expect(clippy::cast_possible_truncation, reason = "capacities end below NIL")]
        let built = capacity as u32;
        Self {
            shards: core::array::from_fn(|_| FreeShard::new(capacity)),
            fresh: AtomicU32::new(0),
            failed: AtomicCount::new(0),
            #[cfg(feature = "async")]
            waiters: Waiters::new(),
            retired_at: AtomicU32::new(limits::retired_at(offset)),
            built,
        }
    }

    const_unless_loom! {
        /// The books of a pool of `N` slots, none built, whose versions are drawn when the
        /// first slot is taken.
        pub(crate) fn unbuilt<const N: usize>() -> Self {
            Self {
                shards: array_unless_loom!(FreeShard::new(N); SHARDS),
                fresh: AtomicU32::new(0),
                failed: AtomicCount::new(0),
                #[cfg(feature = "async")]
                waiters: Waiters::new(),
                retired_at: AtomicU32::new(UNDRAWN),
                built: 0,
            }
        }
    }

    /// The version at which slots retire (see `retired_at`).
    #[inline]
    fn retired_at(&self) -> u32 {
        self.retired_at.load(Ordering::Relaxed)
    }

    /// The version at which slots retire, drawing the pool's versions if no slot was taken
    /// before. Relaxed: whoever draws first, every thread then reads the same.
    #[cold]
    fn draw_versions(&self) -> u32 {
        let drawn = self.retired_at();
        if drawn != UNDRAWN {
            return drawn;
        }
        let retired_at = limits::retired_at(offset::next());
        match self.retired_at.compare_exchange(
            UNDRAWN,
            retired_at,
            Ordering::Relaxed,
            Ordering::Relaxed,
        ) {
            Ok(_) => retired_at,
            Err(drawn) => drawn,
        }
    }
}

impl<T> SyncSlot<T> {
    /// A free slot at `version`, with `object`.
    #[cfg(feature = "alloc")]
    pub(crate) fn with(version: u32, object: T) -> Self {
        Self {
            life: Lifecycle::new(version),
            counts: SlotCounts::new(),
            next: AtomicU32::new(NIL),
            home: AtomicU32::new(0),
            value: ObjectCell::with(object),
        }
    }

    const_unless_loom! {
        /// A slot whose object is built when it is first taken.
        pub(crate) fn unbuilt() -> Self {
            Self {
                life: Lifecycle::new(0),
                counts: SlotCounts::new(),
                next: AtomicU32::new(NIL),
                home: AtomicU32::new(0),
                value: ObjectCell::new(),
            }
        }
    }

    /// A pointer to the object, for a guard to read.
    #[inline]
    pub(crate) fn value(&self) -> super::primitives::ConstPtr<T> {
        self.value.get()
    }

    /// The object live at `version`, through an exclusive borrow: no guard or lease can be
    /// out.
    #[cfg(not(loom))]
    #[inline]
    pub(crate) fn live_mut(&mut self, version: u32) -> Option<&mut T> {
        if !self.life.is_live_at(version) {
            return None;
        }
        // SAFETY: a live slot's object is built (see `SyncSlot`), and `&mut self` rules out
        // any other reference to it.
        Some(unsafe { self.value.exclusive() })
    }
}

/// Drops the objects of a pool's slots: those built up front, and those built since.
pub(crate) fn drop_objects<T>(all: &mut [SyncSlot<T>], books: &Books) {
    let built = books.built.max(books.fresh.load(Ordering::Relaxed)) as usize;
    for slot in all.iter_mut().take(built) {
        if slot.life.phase() != Phase::Void {
            // SAFETY: a slot below `built` or `fresh` that is not void holds an object (see
            // `SyncSlot`), and `&mut` rules out any other access.
            unsafe { slot.value.drop_object() };
        }
    }
}

/// A pool's slots and books, as guards and leases reach them: the same for every storage.
pub(crate) struct SyncSlots<'a, T> {
    all: &'a [SyncSlot<T>],
    books: &'a Books,
}

impl<T> Clone for SyncSlots<'_, T> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<T> Copy for SyncSlots<'_, T> {}

impl<'a, T: Pooled> SyncSlots<'a, T> {
    pub(crate) fn new(all: &'a [SyncSlot<T>], books: &'a Books) -> Self {
        Self { all, books }
    }

    #[inline]
    pub(crate) fn capacity(&self) -> usize {
        self.all.len()
    }

    /// Counts a creation refused because the pool was full.
    pub(crate) fn fail(&self) {
        self.books.failed.fetch_add(1, Ordering::Relaxed);
    }

    #[allow(clippy::useless_conversion, reason = "32 bits with 32-bit words")]
    pub(crate) fn failed(&self) -> u64 {
        self.books.failed.load(Ordering::Relaxed).into()
    }

    /// Adds up what the slots hold and have held: O(capacity).
    pub(crate) fn tally(&self) -> Tally {
        let mut tally = Tally::default();
        for slot in self.all {
            match slot.life.phase() {
                Phase::Free => tally.free += 1,
                Phase::Live => tally.live += 1,
                Phase::Releasing => {}
                Phase::Lent => tally.leased += 1,
                Phase::Retired | Phase::Void => tally.retired += 1,
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
    pub(crate) fn slot(&self, handle: Handle<T>) -> Option<&'a SyncSlot<T>> {
        self.all.get(handle.index())
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
        Some((index, self.fill(index, home, init)))
    }

    /// `take_free` of slot `index`, which the caller took off a free list (or was handed) on
    /// shard `home`: a pointer to its object, reset and set up by `init`.
    #[inline]
    pub(crate) fn fill(
        &self,
        index: u32,
        home: u32,
        init: impl FnOnce(Handle<T>, &mut T),
    ) -> MutPtr<T> {
        let slot = &self.all[index as usize];
        // Mostly the same shard as last time: no store then; and with one shard, never.
        if SHARDS > 1 && slot.home.load(Ordering::Relaxed) != home {
            slot.home.store(home, Ordering::Relaxed);
        }
        let version = NonZeroU32::MIN | slot.life.next_version();
        let handle = Handle::new(index, version);
        let object = slot.value.get_mut();
        {
            // SAFETY: the slot was just taken off the free list, so this thread owns it (see
            // `SyncSlot`): no other reference to the object exists.
            let value = unsafe { object.deref() };
            // A reset that panics leaves the plain data half reset, which the next take resets
            // again: the slot goes back as it is.
            let untake = scopeguard::guard((), |()| self.untake(index));
            value.reset_at_reuse();
            ScopeGuard::into_inner(untake);
            let mut value = scopeguard::guard(value, |value| {
                value.reset_at_release();
                self.untake(index);
            });
            init(handle, &mut value);
            ScopeGuard::into_inner(value);
        }
        object
    }

    /// A free slot, now the caller's, and the caller's shard; `None` when every slot is in use.
    ///
    /// `None` only if, at one moment during the call, every shard was empty and no fresh slot
    /// was left: so a pool of N refuses only with N objects in use, even with free slots on
    /// other threads' shards. Fresh slots only run out, so once none is left, a pass that
    /// finds every shard empty, then a second that finds every head word as the first left it
    /// (every push and pop moves a head's tag on) proves each shard empty from its first
    /// reading to its second, so all of them at the moment between the passes. Otherwise
    /// another thread freed or took a slot meanwhile, and it tries again: lock-free.
    #[inline]
    pub(super) fn take_index(&self) -> Option<(u32, u32)> {
        let own = shard::shard();
        #[expect(clippy::cast_possible_truncation, reason = "SHARDS is small")]
        let home = own as u32;
        let next = |index: u32| &self.all[index as usize].next;
        if let Ok(index) = self.books.shards[own].pop(next) {
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
        if (self.books.fresh.load(Ordering::Relaxed) as usize) < self.all.len() {
            for step in 1..SHARDS {
                if let Ok(index) = self.books.shards[(own + step) % SHARDS].pop(next) {
                    return Some(index);
                }
            }
            if let Some(index) = self.take_fresh() {
                if index >= self.books.built {
                    self.build(index);
                }
                return Some(index);
            }
        }
        let mut seen = [0; SHARDS];
        loop {
            for step in 0..SHARDS {
                let shard = (own + step) % SHARDS;
                match self.books.shards[shard].pop(next) {
                    Ok(index) => return Some(index),
                    Err(head) => seen[shard] = head,
                }
            }
            if self
                .books
                .shards
                .iter()
                .zip(seen)
                .all(|(list, head)| list.unchanged(head))
            {
                return None;
            }
        }
    }

    /// The first slot never taken, if any is left. Relaxed: a slot built up front was built
    /// before the pool reached other threads, and one built on first use is its taker's.
    #[inline]
    fn take_fresh(&self) -> Option<u32> {
        let len = self.all.len();
        (self.books.fresh)
            .fetch_update(Ordering::Relaxed, Ordering::Relaxed, |fresh| {
                ((fresh as usize) < len).then_some(fresh + 1)
            })
            .ok()
    }

    /// Builds the blank object of slot `index`, which the caller just took fresh and whose
    /// object was not built up front, after starting its versions. If building panics, the
    /// slot is void: out of use for good, with no object to drop.
    #[cold]
    fn build(&self, index: u32) {
        let slot = &self.all[index as usize];
        slot.life
            .start_at(limits::offset_of(self.books.draw_versions()));
        let void = scopeguard::guard((), |()| slot.life.void());
        let object = blank::<T>();
        ScopeGuard::into_inner(void);
        // SAFETY: the caller took the slot fresh, so it owns it and its object was never
        // built: nothing else reaches the cell, and nothing is overwritten.
        unsafe { slot.value.get_mut().write(object) };
    }

    /// The tasks waiting for a free slot.
    #[cfg(feature = "async")]
    #[inline]
    pub(super) fn waiters(&self) -> &'a Waiters {
        &self.books.waiters
    }

    /// The slot at `index`, which the caller owns.
    #[inline]
    pub(crate) fn owned(&self, index: u32) -> &'a SyncSlot<T> {
        &self.all[index as usize]
    }

    /// Makes the slot the caller filled (or leased) live, and returns its handle.
    #[inline]
    pub(crate) fn publish(&self, index: u32) -> Handle<T> {
        let version = self.all[index as usize].life.publish();
        Handle::new(index, NonZeroU32::MIN | version)
    }

    /// Puts a free slot the caller owns, its object reset, back on the free list.
    #[inline]
    pub(crate) fn untake(&self, index: u32) {
        self.push_free(index, &self.all[index as usize]);
    }

    /// `untake` of a slot already looked up: one bounds check per give-back, not one per step.
    #[inline]
    fn push_free(&self, index: u32, slot: &SyncSlot<T>) {
        // While tasks wait, the slot goes to the one that has waited longest, on no free list
        // where a fresh acquisition could take it first (see `sync/wait.rs`).
        #[cfg(feature = "async")]
        if self.waiters().any() {
            self.hand_over(index);
            return;
        }
        self.list(index, slot);
        #[cfg(feature = "async")]
        self.freed();
    }

    /// Puts a free slot the caller owns on the free list of its shard.
    #[inline]
    pub(super) fn list(&self, index: u32, slot: &SyncSlot<T>) {
        let home = if SHARDS > 1 {
            slot.home.load(Ordering::Relaxed) as usize
        } else {
            0
        };
        self.books.shards[home].push(index, &slot.next);
    }

    /// Frees a released or lent slot the caller owns, its object reset.
    #[inline]
    pub(crate) fn give_back(&self, index: u32) {
        self.free(index, &self.all[index as usize]);
    }

    #[inline]
    fn free(&self, index: u32, slot: &SyncSlot<T>) {
        slot.life.set_free();
        self.push_free(index, slot);
    }

    /// Resets the object of a released slot the caller reclaimed (no guard is out) and frees
    /// the slot, or retires it if its versions are used up. If the reset panics, the slot is
    /// retired, so that no half-reset object is handed out again.
    pub(crate) fn reclaim(&self, index: u32) {
        let slot = &self.all[index as usize];
        slot.counts.release();
        let retire = scopeguard::guard((), |()| slot.life.retire());
        {
            // The pointer (under loom, a write in progress) ends before the slot goes back.
            let object = slot.value.get_mut();
            // SAFETY: the caller owns the slot: no other reference to the object exists.
            unsafe { object.deref() }.reset_at_release();
        }
        if slot.life.version() == self.books.retired_at() {
            return;
        }
        ScopeGuard::into_inner(retire);
        self.free(index, slot);
    }

    /// A guard on the object of slot `index` and its handle, if it is live: counted in the way
    /// `get` counts one, so that it is never reset while the guard is out.
    pub(crate) fn guard_live(&self, index: u32) -> Option<(Handle<T>, SyncGuard<'a, T>)> {
        let slot = &self.all[index as usize];
        let version = slot.life.live_version()?;
        let guard = self.guard(slot, index, version)?;
        Some((Handle::new(index, NonZeroU32::MIN | version), guard))
    }

    /// A guard on the object of `slot`, slot `index`, if it is live at `version`.
    #[inline]
    pub(crate) fn guard(
        &self,
        slot: &'a SyncSlot<T>,
        index: u32,
        version: u32,
    ) -> Option<SyncGuard<'a, T>> {
        if !slot.life.add_guard(version) {
            return None;
        }
        let guard = SyncGuard::new(*self, index, slot.value());
        // With 32-bit words, the stamp may have matched another object's version: the guard
        // then counts itself out as it drops.
        slot.life.holds(version).then_some(guard)
    }

    /// Counts a guard of slot `index` out; true when the caller must now reclaim the slot.
    #[inline]
    pub(crate) fn drop_guard(&self, index: u32) -> bool {
        self.all[index as usize].life.drop_guard()
    }

    /// Walks every slot, free list and count (see `SyncPool::check_consistency`); with no other
    /// thread working on the pool.
    #[cfg(feature = "alloc")]
    pub(crate) fn check(&self) -> Result<(), &'static str> {
        let offset = limits::offset_of(self.books.retired_at());
        let fresh = self.books.fresh.load(Ordering::Relaxed) as usize;
        if fresh > self.all.len() {
            return Err("a first fresh slot past the pool's slots");
        }
        let mut listed = alloc::vec![false; self.all.len()];
        for shard in &self.books.shards {
            let mut index = shard.top();
            while index != NIL {
                let at = index as usize;
                let slot = self
                    .all
                    .get(at)
                    .ok_or("a free-list entry past the pool's slots")?;
                if at >= fresh {
                    return Err("a fresh slot on a free list");
                }
                if core::mem::replace(&mut listed[at], true) {
                    return Err("a slot twice on the free lists (or a cycle)");
                }
                if slot.life.phase() != Phase::Free {
                    return Err("a slot on a free list that is not free");
                }
                index = slot.next.load(Ordering::Relaxed);
            }
        }
        // A slot handed to a waiting task that has not taken it yet: free, on no list.
        #[cfg(feature = "async")]
        for index in self.waiters().handed() {
            let at = index as usize;
            let handed = listed.get_mut(at).filter(|_| at < fresh);
            if handed.is_none_or(|listed| core::mem::replace(listed, true)) {
                return Err("a slot handed to a waiting task and listed, or fresh");
            }
        }
        let (mut in_use, mut created, mut released) = (0u64, 0u64, 0u64);
        let built = fresh.max(self.books.built as usize);
        for (at, slot) in self.all.iter().enumerate() {
            let phase = slot.life.phase();
            if at >= built {
                if phase != Phase::Free || slot.counts.created() != 0 {
                    return Err("a slot never built that has been used");
                }
                continue;
            }
            if !slot.life.agrees() {
                return Err("a slot whose state word and version disagree");
            }
            let version = slot.life.version_now();
            if (phase == Phase::Live) != (version % 2 == 1) {
                return Err("a slot whose version's parity is not its phase's");
            }
            if version.wrapping_sub(offset) > self.books.retired_at().wrapping_sub(offset) {
                return Err("a slot past the version at which it retires");
            }
            let free = listed[at] || at >= fresh;
            match phase {
                Phase::Free if !free => return Err("a free slot on no free list: lost"),
                Phase::Free if version == self.books.retired_at() => {
                    return Err("a free slot at the retired version");
                }
                Phase::Free => {}
                _ if free => return Err("a slot in use or retired on a free list or fresh"),
                Phase::Live | Phase::Lent | Phase::Releasing => in_use += 1,
                Phase::Retired | Phase::Void => {}
            }
            created += slot.counts.created();
            released += slot.counts.released();
        }
        if created.checked_sub(released) != Some(in_use) {
            return Err("objects created less objects released is not the number in use");
        }
        Ok(())
    }

    /// Moves free slot `index` to version `relative`, counted from the pool's offset.
    #[cfg(all(test, not(loom)))]
    pub(crate) fn force_version(&self, index: usize, relative: u32) {
        let offset = limits::offset_of(self.books.retired_at());
        self.all[index].life.start_at(offset.wrapping_add(relative));
    }
}
