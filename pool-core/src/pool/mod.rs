#[cfg(feature = "alloc")]
mod check;
mod clone;
pub(crate) mod counts;
mod disjoint;
mod index;
pub(crate) mod iter;
pub(crate) mod lease;
#[cfg(feature = "serde")]
mod serde;
pub(crate) mod stats;

use crate::pool::counts::Counts;
use crate::pool::iter::{Iter, IterMut, Values, ValuesMut};
use crate::pool::lease::Lease;
use crate::pooled::blank;
use crate::slot::free_list::FreeList;
use crate::slot::occupancy::{BITS, Bit};
use crate::slot::{INDEX_END, NIL, Slot};
#[cfg(feature = "alloc")]
use crate::storage::HeapSlots;
use crate::storage::lock::Lock;
use crate::storage::{Heap, Inline, InlineSlots, Slots, Storage};
use crate::{Handle, Importance, PoolFull, Pooled, StaleHandle, Stats};
use core::fmt;
use core::marker::PhantomData;
use scopeguard::ScopeGuard;

/// A fixed number of `T`s, handed out by [`Handle`], with `S` saying what a full pool does and
/// `B` where the objects live: built up front in one allocation ([`Heap`], the default), or
/// inside the pool itself ([`Inline`], for code without an allocator).
///
/// `#[derive(Pooled)]` names it for the struct: `ParticlePool` is `Pool<Particle>`, and `S`
/// defaults to the struct's own strategy, from `#[pool(on_full = ...)]`: [`Fail`](crate::Fail),
/// [`Panic`](crate::Panic), [`Evict`](crate::Evict) or [`Grow`](crate::Grow). The methods
/// every pool has are here; each strategy adds its own `create` (and `acquire`, `victim`,
/// `shrink` where they apply). Generic code takes any pool:
///
/// ```
/// use pooling::{Pool, Pooled};
///
/// #[derive(Pooled)]
/// #[pool(size = 256)]
/// struct Particle {
///     frames_left: u32,
///     x: f64,
/// }
///
/// /// Ages every particle, releasing the ones whose time is up: for any strategy.
/// fn age<T: Pooled, S>(pool: &mut Pool<T, S>, alive: impl FnMut(&mut T) -> bool) {
///     pool.retain(alive);
/// }
///
/// let mut pool = ParticlePool::new();
/// let p = pool.create(|p| {
///     p.frames_left = 2;
///     p.x = 10.0;
/// })?;
/// assert_eq!(pool.get(p).map(|p| p.x), Some(10.0));
/// for _frame in 0..2 {
///     age(&mut pool, |p| {
///         p.frames_left -= 1;
///         p.frames_left > 0
///     });
/// }
/// assert!(pool.is_empty());
/// assert!(pool.get(p).is_none());
/// # Ok::<(), pooling::PoolFull>(())
/// ```
///
/// Creating and releasing objects is O(1) and never allocates (unless a [`Grow`](crate::Grow)
/// pool grows): free slots are threaded into a list, and a slot's object is reset in place
/// when released. Iteration visits live objects only, skipping free slots 64 at a time.
///
/// # Sharing a pool between threads
///
/// A pool is [`Send`] when `T` is, and [`Sync`] when `T` is `Send + Sync` (with the `std`
/// feature, on targets with 64-bit atomics), as slotmap's `SlotMap` is: it fits an
/// `Arc<RwLock<_>>`, a `static` `LazyLock<RwLock<_>>` or a Bevy `Resource`, and threads sharing
/// one `&Pool` read it (`get`, iteration, [`stats`](Pool::stats)) and lease objects from it
/// ([`try_acquire`](Pool::try_acquire), `acquire`) at once: no slot is lent twice, and the stats
/// add up once they are done.
///
/// The `&self` paths that change the pool hold a short spin lock: taking a slot for a lease (and
/// the high-water mark), a lease's give-back after its reset, `into_handle`, growth through
/// `acquire` (adding the chunk, once built) and an inline slot built on first use, `stats`, and
/// the snapshots of `clone` and `serialize`. No user code runs under it: `init`, resets,
/// `Default`, `Clone` and `Serialize` run outside, and may use the pool again. One thread at a
/// time builds blank objects to grow the pool; the others wait for it. `get`, `contains`,
/// iteration, `len` and `is_full` take no lock (while other threads lease, the last two are of
/// a moment that may already be gone). Through `&mut self` (`create`, `release`, `get_mut`,
/// `retain`...) the pool takes no lock and its atomics are plain loads and stores.
///
/// Without `std`, or without 64-bit atomics, the pool is not `Sync`: its books are cells, and a
/// shared pool sits behind the program's own lock (a critical-section mutex on firmware).
///
/// Code generic over the storage too names [`Storage`] as a bound:
/// `fn f<T: Pooled, S, B: Storage>(pool: &mut Pool<T, S, B>)`.
pub struct Pool<T: Pooled, S = <T as Pooled>::Strategy, B: Storage = Heap> {
    // Invariants, kept by every method:
    // - a slot is live exactly when its version is odd, and exactly then its occupancy bit is
    //   set; `counts.live` counts live slots;
    // - the live slots, the slots on `free`, the slots lent to leases (each held by one
    //   `Taken`) and the retired slots partition the built slots of `storage` (inline storage
    //   builds slots on first use; heap storage builds them all up front);
    // - a live slot's version is the one in the handle that made it live; every handle carries
    //   an odd version, so no handle ever matches a slot without a live object, from this pool
    //   or any other; a slot moves to its next version whenever it stops being live, and a chunk
    //   given back by `shrink` passes its highest version on to any chunk grown in its place;
    // - a live object is mutated only through `&mut Pool`.
    pub(crate) storage: B::Slots<T>,
    pub(crate) free: FreeList,
    pub(crate) counts: Counts,
    /// Held by every `&self` path that changes `free` or `counts` (see `unsafe impl Sync`).
    pub(crate) lock: Lock,
    pub(crate) strategy: PhantomData<fn() -> S>,
}

// SAFETY: through `&Pool`, from any thread:
// - every path that changes the free list, the counts, a slot's version or link, an occupancy
//   bit, or the storage's shape (a grown chunk, an inline slot built) does so holding `lock`, and
//   reads what it changes under it; readers without the lock (`get`, `contains`, iteration, `len`)
//   read those through atomics, whose acquire loads see the object written before the release
//   that made its slot live;
// - an object is reached only through a live slot (shared, which `T: Sync` allows), or through
//   the one `Taken` made from a slot taken off the free list under the lock, so no two threads
//   ever hold the same slot (which `T: Send` allows: a lease's object moves between threads as
//   its slot is reused);
// - no user code runs while `lock` is held; building blank objects, which does run it, is
//   claimed by one thread at a time (`Builder`), and a claim made again by the same thread
//   panics rather than waiting for itself.
// Without `std` or 64-bit atomics the books are `Cell`s, and the pool is not `Sync`.
#[cfg(all(feature = "std", target_has_atomic = "64"))]
unsafe impl<T: Pooled + Send + Sync, S, B: Storage> Sync for Pool<T, S, B> {}

#[cfg(feature = "alloc")]
impl<T: Pooled, S> Pool<T, S, Heap> {
    /// Builds a pool of `T::SIZE` blank objects (the `size` of `#[pool(size = N)]`).
    ///
    /// This is the one allocation the pool makes until it grows, besides a bitmask of one bit
    /// per slot.
    ///
    /// ```
    /// use pooling::{Pool, Pooled};
    ///
    /// #[derive(Pooled)]
    /// #[pool(size = 256)]
    /// struct Particle {
    ///     frames_left: u32,
    /// }
    ///
    /// let pool = ParticlePool::new(); // the same as `Pool::<Particle>::new()`
    /// assert_eq!(pool.capacity(), 256);
    /// assert!(pool.is_empty());
    /// let same: Pool<Particle> = pool;
    /// # drop(same);
    /// ```
    ///
    /// # Panics
    /// If `T::SIZE` exceeds [`MAX_CAPACITY`](Pool::MAX_CAPACITY).
    pub fn new() -> Self {
        Self::with_capacity(T::SIZE)
    }

    /// Builds a pool of `capacity` blank objects, for a scene that needs another size than
    /// `#[pool(size = N)]`. A [`Grow`](crate::Grow) pool still grows up to its `max`, or stays
    /// at `capacity` if that is larger, and its `shrink` gives back what it grew beyond
    /// `capacity`.
    ///
    /// ```
    /// # use pooling::Pooled;
    /// # #[derive(Pooled)]
    /// # #[pool(size = 256)]
    /// # struct Particle { frames_left: u32 }
    /// let sparse_level = ParticlePool::with_capacity(64);
    /// assert_eq!(sparse_level.capacity(), 64);
    /// ```
    ///
    /// # Panics
    /// If `capacity` exceeds [`MAX_CAPACITY`](Pool::MAX_CAPACITY).
    pub fn with_capacity(capacity: usize) -> Self {
        assert!(
            capacity <= Self::MAX_CAPACITY,
            "a pool holds at most {} objects, not {capacity}",
            Self::MAX_CAPACITY,
        );
        Self {
            storage: HeapSlots::new(capacity, blank::<T>),
            free: FreeList::new(capacity),
            counts: Counts::new(),
            lock: Lock::new(),
            strategy: PhantomData,
        }
    }

    /// Adds a chunk of free slots, if the pool may hold more than it does and `limit` allows.
    #[cold]
    pub(crate) fn grow(&self, limit: usize) -> bool {
        self.storage.grow(
            limit.min(Self::MAX_CAPACITY),
            &self.lock,
            &self.free,
            blank::<T>,
        )
    }

    /// Gives back the grown chunks whose every slot is free.
    pub(crate) fn shrink_grown(&mut self) -> usize {
        self.storage.shrink(&self.free)
    }
}

impl<T: Pooled, S, const N: usize, const W: usize> Pool<T, S, Inline<N, W>> {
    /// An inline pool of `N` slots, none built yet: `const`, so that it can initialise a
    /// `static`, and free of any allocation. Each slot's blank object is built the first time
    /// the slot is needed, by a `create` or `acquire` that finds no slot free; call
    /// [`prefill`](Pool::prefill) to build them all now.
    ///
    /// ```
    /// use pooling::Pooled;
    /// use std::sync::Mutex;
    ///
    /// #[derive(Pooled)]
    /// #[pool(size = 8, storage = inline)]
    /// struct Packet {
    ///     len: u16,
    ///     bytes: [u8; 64],
    /// }
    ///
    /// // `create` and `release` take `&mut self`: a `static` pool sits behind a lock.
    /// static PACKETS: Mutex<PacketPool> = Mutex::new(PacketPool::new());
    ///
    /// let mut pool = PACKETS.lock().unwrap();
    /// let p = pool.create(|p| p.len = 3)?;
    /// assert_eq!(pool[p].len, 3);
    /// assert_eq!(pool.capacity(), 8);
    /// assert_eq!(pool.len(), 1);
    /// # Ok::<(), pooling::PoolFull>(())
    /// ```
    ///
    /// A hand-written `Inline<N, W>` whose `W` is not `N.div_ceil(64)`, or an `N` past
    /// [`MAX_CAPACITY`](Pool::MAX_CAPACITY), fails to compile.
    #[cfg(not(loom))]
    pub const fn new() -> Self {
        const {
            assert!(
                W == N.div_ceil(64),
                "`Inline<N, W>`: `W` must be `N.div_ceil(64)`, the number of 64-bit words of \
                 occupancy bits for `N` slots (the derive computes it)"
            );
            assert!(
                N <= INDEX_END,
                "`Inline<N, W>`: a pool holds at most `Pool::MAX_CAPACITY` objects"
            );
        }
        Self {
            storage: InlineSlots::new(),
            free: FreeList::new(0),
            counts: Counts::new(),
            lock: Lock::new(),
            strategy: PhantomData,
        }
    }

    /// `new`, under loom, whose atomics are not `const`.
    #[cfg(loom)]
    #[doc(hidden)]
    pub fn new() -> Self {
        Self {
            storage: InlineSlots::new(),
            free: FreeList::new(0),
            counts: Counts::new(),
            lock: Lock::new(),
            strategy: PhantomData,
        }
    }

    /// Builds the blank object of every slot not built yet, so that no later `create` or
    /// `acquire` runs `T`'s blank code: the "everything built up front" of a heap pool, for an
    /// inline pool that wants it (before a frame that must not run `Default`s). Slots are
    /// taken in index order after, as a heap pool's are.
    ///
    /// ```
    /// # use pooling::Pooled;
    /// # #[derive(Pooled)]
    /// # #[pool(size = 4, storage = inline)]
    /// # struct Packet { len: u16 }
    /// let mut pool = PacketPool::new();
    /// pool.prefill();
    /// let first = pool.create(|_| {})?;
    /// assert_eq!(first.index(), 0);
    /// # Ok::<(), pooling::PoolFull>(())
    /// ```
    ///
    /// # Panics
    /// When a blank object's code (a field's `Default`) panics, after the slots built before
    /// it are in the pool, free; or when that code reaches this pool.
    pub fn prefill(&mut self) {
        self.storage.build_all(&self.free, &self.lock, blank::<T>);
    }
}

impl<T: Pooled, S, B: Storage> Pool<T, S, B> {
    /// The largest capacity a pool can have: slot indices are 32-bit.
    pub const MAX_CAPACITY: usize = INDEX_END;

    /// The number of slots, live or not.
    ///
    /// ```
    /// # use pooling::Pooled;
    /// # #[derive(Pooled)]
    /// # #[pool(size = 2)]
    /// # struct Spark { heat: u32 }
    /// let mut pool = SparkPool::new();
    /// pool.try_create(|_| {})?;
    /// assert_eq!((pool.len(), pool.capacity()), (1, 2));
    /// # Ok::<(), pooling::PoolFull>(())
    /// ```
    #[inline]
    #[doc(alias = "count_all", alias = "CountAll")]
    pub fn capacity(&self) -> usize {
        self.storage.capacity()
    }

    /// The number of live objects: those reachable by handle. Leased objects are counted apart,
    /// in [`Stats::leased`].
    ///
    /// ```
    /// # use pooling::Pooled;
    /// # #[derive(Pooled)]
    /// # #[pool(size = 2)]
    /// # struct Spark { heat: u32 }
    /// let mut pool = SparkPool::new();
    /// let spark = pool.try_create(|_| {})?;
    /// let _lease = pool.try_acquire(|_| {})?;
    /// assert_eq!(pool.len(), 1); // the lease is not counted
    /// assert_eq!(pool.stats().leased, 1);
    /// # Ok::<(), pooling::PoolFull>(())
    /// ```
    #[inline]
    #[doc(alias = "count_active", alias = "CountActive", alias = "count")]
    pub fn len(&self) -> usize {
        self.counts.live()
    }

    /// Whether no object is live.
    ///
    /// ```
    /// # use pooling::Pooled;
    /// # #[derive(Pooled)]
    /// # #[pool(size = 2)]
    /// # struct Spark { heat: u32 }
    /// let mut pool = SparkPool::new();
    /// assert!(pool.is_empty());
    /// let spark = pool.try_create(|_| {})?;
    /// assert!(!pool.is_empty());
    /// # Ok::<(), pooling::PoolFull>(())
    /// ```
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Whether no slot is free, so that [`try_create`](Pool::try_create) would fail (and the
    /// strategy's `create` would fail, panic, evict or grow).
    ///
    /// ```
    /// # use pooling::Pooled;
    /// # #[derive(Pooled)]
    /// # #[pool(size = 2)]
    /// # struct Spark { heat: u32 }
    /// let mut pool = SparkPool::new();
    /// pool.try_create(|_| {})?;
    /// assert!(!pool.is_full());
    /// pool.try_create(|_| {})?;
    /// assert!(pool.is_full());
    /// # Ok::<(), pooling::PoolFull>(())
    /// ```
    #[inline]
    pub fn is_full(&self) -> bool {
        self.counts.in_use() + self.counts.retired() >= self.capacity()
    }

    /// Takes a free slot, hands its blank object to `init`, and returns the object's handle; an
    /// error, changing nothing but [`Stats::failed`], when no slot is free.
    ///
    /// It never panics, evicts, or grows the pool (so it never allocates), whatever the
    /// strategy: code that must not is the same for every pool. O(1). If `init` panics, the
    /// slot is reset and stays free.
    ///
    /// ```
    /// # use pooling::Pooled;
    /// # #[derive(Pooled)]
    /// # #[pool(size = 1)]
    /// # struct Particle { frames_left: u32, x: f64 }
    /// let mut pool = ParticlePool::new();
    /// let p = pool.try_create(|p| p.frames_left = 30)?;
    /// assert_eq!(pool.get(p).unwrap().frames_left, 30);
    /// assert_eq!(pool.get(p).unwrap().x, 0.0); // what init did not set is blank
    ///
    /// assert!(pool.try_create(|p| p.frames_left = 30).is_err()); // full
    /// # Ok::<(), pooling::PoolFull>(())
    /// ```
    ///
    /// # Errors
    /// [`PoolFull`] when every slot is live, lent or retired; `init` is not called.
    #[doc(alias = "insert", alias = "push", alias = "spawn")]
    #[inline]
    pub fn try_create(&mut self, init: impl FnOnce(&mut T)) -> Result<Handle<T>, PoolFull> {
        self.try_create_with_handle(|_, object| init(object))
    }

    /// [`try_create`](Pool::try_create), with `init` seeing the handle the object will have:
    /// for an object that refers to itself, or is filed under its handle elsewhere (slotmap's
    /// `insert_with_key`, slab's `vacant_entry`).
    ///
    /// ```
    /// # use pooling::{Handle, Pooled};
    /// # #[derive(Pooled)]
    /// # #[pool(size = 4)]
    /// # struct Node { me: Option<Handle<Node>> }
    /// let mut nodes = NodePool::new();
    /// let node = nodes.try_create_with_handle(|handle, node| node.me = Some(handle))?;
    /// assert_eq!(nodes[node].me, Some(node));
    /// # Ok::<(), pooling::PoolFull>(())
    /// ```
    ///
    /// # Errors
    /// [`PoolFull`] when every slot is live, lent or retired; `init` is not called.
    #[doc(alias = "insert_with_key")]
    #[inline]
    pub fn try_create_with_handle(
        &mut self,
        init: impl FnOnce(Handle<T>, &mut T),
    ) -> Result<Handle<T>, PoolFull> {
        self.create_in_free_slot(init).ok_or_else(|| self.refuse())
    }

    /// Lends a blank object, set up by `init`, through `&self`, if a slot is free: many leases
    /// can be out at once, and each gives its object back, reset, when it drops. See [`Lease`].
    ///
    /// Like [`try_create`](Pool::try_create), it never panics, evicts or grows, whatever the
    /// strategy.
    ///
    /// `init` may reach the pool (through `&Pool`, a thread-local pool): the slot it fills is
    /// counted as lent while it runs, so an `acquire` from `init` sees it in use. If `init`, or
    /// the reset before it, panics, the slot goes back to the free list and nothing is counted.
    ///
    /// ```
    /// # use pooling::Pooled;
    /// # #[derive(Pooled)]
    /// # #[pool(size = 2)]
    /// # struct Scratch { points: Vec<[f32; 3]> }
    /// let pool = ScratchPool::new();
    /// let mut a = pool.try_acquire(|_| {})?;
    /// let mut b = pool.try_acquire(|_| {})?;
    /// a.points.push([1.0; 3]);
    /// b.points.extend_from_slice(&a.points);
    /// assert!(pool.try_acquire(|_| {}).is_err()); // both slots are lent
    /// drop(a);
    /// assert!(pool.try_acquire(|_| {}).is_ok());
    /// # Ok::<(), pooling::PoolFull>(())
    /// ```
    ///
    /// # Errors
    /// [`PoolFull`] when no slot is free; `init` is not called and nothing changes but
    /// [`Stats::failed`].
    #[inline]
    pub fn try_acquire(&self, init: impl FnOnce(&mut T)) -> Result<Lease<'_, T>, PoolFull> {
        self.lend(init).ok_or_else(|| self.refuse())
    }

    /// The object `handle` names, or `None` once it has been released, or if the handle is from
    /// another pool (see [`Handle`](crate::Handle#handles-from-another-pool)).
    ///
    /// ```
    /// # use pooling::Pooled;
    /// # #[derive(Pooled)]
    /// # #[pool(size = 4)]
    /// # struct Particle { x: f64 }
    /// let mut pool = ParticlePool::new();
    /// let p = pool.try_create(|p| p.x = 2.5)?;
    /// assert_eq!(pool.get(p).map(|p| p.x), Some(2.5));
    /// pool.release(p).unwrap();
    /// assert!(pool.get(p).is_none());
    /// # Ok::<(), pooling::PoolFull>(())
    /// ```
    #[inline]
    pub fn get(&self, handle: Handle<T>) -> Option<&T> {
        self.storage.slot(handle.index())?.get(handle)
    }

    /// The object `handle` names, mutably, or `None` once it has been released.
    ///
    /// ```
    /// # use pooling::Pooled;
    /// # #[derive(Pooled)]
    /// # #[pool(size = 4)]
    /// # struct Particle { x: f64 }
    /// let mut pool = ParticlePool::new();
    /// let p = pool.try_create(|_| {})?;
    /// if let Some(p) = pool.get_mut(p) {
    ///     p.x += 1.5;
    /// }
    /// assert_eq!(pool.get(p).unwrap().x, 1.5);
    /// # Ok::<(), pooling::PoolFull>(())
    /// ```
    #[inline]
    pub fn get_mut(&mut self, handle: Handle<T>) -> Option<&mut T> {
        let (slot, _) = self.storage.slot_mut(handle.index())?;
        slot.get_mut(handle)
    }

    /// Whether `handle` names a live object of this pool.
    ///
    /// ```
    /// # use pooling::Pooled;
    /// # #[derive(Pooled)]
    /// # #[pool(size = 4)]
    /// # struct Particle { x: f64 }
    /// let mut pool = ParticlePool::new();
    /// let p = pool.try_create(|_| {})?;
    /// assert!(pool.contains(p));
    /// pool.release(p).unwrap();
    /// assert!(!pool.contains(p));
    /// # Ok::<(), pooling::PoolFull>(())
    /// ```
    #[inline]
    #[doc(alias = "contains_key")]
    pub fn contains(&self, handle: Handle<T>) -> bool {
        self.storage
            .slot(handle.index())
            .is_some_and(|slot| slot.matches(handle))
    }

    /// Resets the object `handle` names and frees its slot, in O(1).
    ///
    /// Fields that own something are reset now, so buffers are cleared (keeping their capacity)
    /// and references are let go at once. The handle, and every copy of it, becomes stale.
    ///
    /// If a reset panics (in a `reset_with` function or a field's `Drop`), the object stays live
    /// and its handle valid.
    ///
    /// ```
    /// # use pooling::Pooled;
    /// # #[derive(Pooled)]
    /// # #[pool(size = 4)]
    /// # struct Particle { trail: Vec<(f64, f64)> }
    /// let mut pool = ParticlePool::new();
    /// let p = pool.try_create(|p| p.trail.push((1.0, 2.0)))?;
    /// assert!(pool.release(p).is_ok());
    /// assert!(pool.release(p).is_err()); // already released
    /// assert!(!pool.contains(p));
    /// # Ok::<(), pooling::PoolFull>(())
    /// ```
    ///
    /// # Errors
    /// [`StaleHandle`] when the object was already released, or the handle is from another
    /// pool (see [`Handle`](crate::Handle#handles-from-another-pool)); nothing changes.
    #[inline]
    #[doc(
        alias = "remove",
        alias = "try_remove",
        alias = "Release",
        alias = "free",
        alias = "despawn",
        alias = "recycle"
    )]
    pub fn release(&mut self, handle: Handle<T>) -> Result<(), StaleHandle> {
        let retired_at = self.storage.retired_at();
        let index = handle.index();
        let (slots, words) = self.storage.first_mut();
        if let Some(slot) = slots.get_mut(index) {
            if !slot.matches_mut(handle) {
                return Err(StaleHandle::new(handle));
            }
            Self::vacate(
                slot,
                &Bit::new(words, index),
                index,
                retired_at,
                &mut self.free,
                &mut self.counts,
            );
            return Ok(());
        }
        self.release_past_first(handle)
    }

    /// [`release`](Pool::release) for a handle past the first slots: out of line, so that the
    /// hot path keeps its registers.
    #[cold]
    #[inline(never)]
    fn release_past_first(&mut self, handle: Handle<T>) -> Result<(), StaleHandle> {
        let retired_at = self.storage.retired_at();
        match self.storage.slot_mut(handle.index()) {
            Some((slot, bit)) if slot.matches(handle) => {
                Self::vacate(
                    slot,
                    &bit,
                    handle.index(),
                    retired_at,
                    &mut self.free,
                    &mut self.counts,
                );
                Ok(())
            }
            _ => Err(StaleHandle::new(handle)),
        }
    }

    /// Resets a live object and frees its slot. If the reset panics, the object stays live.
    #[inline]
    fn vacate(
        slot: &mut Slot<T>,
        bit: &Bit<'_>,
        index: usize,
        retired_at: u32,
        free: &mut FreeList,
        counts: &mut Counts,
    ) {
        slot.value_mut().reset_at_release();
        bit.clear();
        counts.release_mut();
        // Pushed whatever happens, and taken off again when retired: the same push on every
        // path lets the compiler see that the next `create` takes this slot.
        let retired = slot.mark_dead(retired_at);
        free.push_mut(index, slot);
        if retired {
            free.pop_head_mut(slot);
            counts.retire_mut();
        }
    }

    /// Live objects with their handles, in slot order.
    ///
    /// ```
    /// # use pooling::Pooled;
    /// # #[derive(Pooled)]
    /// # #[pool(size = 8)]
    /// # struct Particle { x: f64 }
    /// let mut pool = ParticlePool::new();
    /// for x in [1.0, 2.0, 3.0] {
    ///     pool.try_create(|p| p.x = x)?;
    /// }
    /// let sum: f64 = pool.iter().map(|(_, p)| p.x).sum();
    /// assert_eq!(sum, 6.0);
    /// # Ok::<(), pooling::PoolFull>(())
    /// ```
    #[inline]
    #[doc(alias = "iter_active")]
    pub fn iter(&self) -> Iter<'_, T> {
        Iter::new(self.storage.chunks(), self.len())
    }

    /// Live objects with their handles, mutably, in slot order.
    ///
    /// ```
    /// # use pooling::Pooled;
    /// # #[derive(Pooled)]
    /// # #[pool(size = 8)]
    /// # struct Particle { x: f64, x_velocity: f64 }
    /// let mut pool = ParticlePool::new();
    /// let p = pool.try_create(|p| p.x_velocity = 0.5)?;
    /// for (_, p) in pool.iter_mut() {
    ///     p.x += p.x_velocity;
    /// }
    /// assert_eq!(pool.get(p).unwrap().x, 0.5);
    /// # Ok::<(), pooling::PoolFull>(())
    /// ```
    #[inline]
    pub fn iter_mut(&mut self) -> IterMut<'_, T> {
        let len = self.counts.live_mut();
        IterMut::new(self.storage.chunks_mut(), len)
    }

    /// Live objects without their handles, in slot order.
    ///
    /// ```
    /// # use pooling::Pooled;
    /// # #[derive(Pooled)]
    /// # #[pool(size = 8)]
    /// # struct Particle { x: f64 }
    /// let mut pool = ParticlePool::new();
    /// for x in [1.0, 2.0] {
    ///     pool.try_create(|p| p.x = x)?;
    /// }
    /// assert_eq!(pool.values().map(|p| p.x).sum::<f64>(), 3.0);
    /// # Ok::<(), pooling::PoolFull>(())
    /// ```
    #[inline]
    pub fn values(&self) -> Values<'_, T> {
        Values::new(self.iter())
    }

    /// Live objects without their handles, mutably, in slot order: the "animate everything"
    /// loop.
    ///
    /// ```
    /// # use pooling::Pooled;
    /// # #[derive(Pooled)]
    /// # #[pool(size = 8)]
    /// # struct Particle { x: f64, x_velocity: f64 }
    /// let mut pool = ParticlePool::new();
    /// let p = pool.try_create(|p| p.x_velocity = 2.0)?;
    /// for particle in pool.values_mut() {
    ///     particle.x += particle.x_velocity;
    /// }
    /// assert_eq!(pool.get(p).unwrap().x, 2.0);
    /// # Ok::<(), pooling::PoolFull>(())
    /// ```
    #[inline]
    pub fn values_mut(&mut self) -> ValuesMut<'_, T> {
        ValuesMut::new(self.iter_mut())
    }

    /// Calls `keep` on every live object, and releases (resets and frees) each one for which it
    /// returns false: the animate-and-collect-the-dead loop of a particle system, in one pass.
    ///
    /// If `keep` or a reset panics, the objects visited so far are released or kept as decided,
    /// and the rest are untouched.
    ///
    /// ```
    /// # use pooling::Pooled;
    /// # #[derive(Pooled)]
    /// # #[pool(size = 8)]
    /// # struct Particle { frames_left: u32 }
    /// let mut pool = ParticlePool::new();
    /// for frames in [1, 3] {
    ///     pool.try_create(|p| p.frames_left = frames)?;
    /// }
    /// pool.retain(|p| {
    ///     p.frames_left -= 1;
    ///     p.frames_left > 0
    /// });
    /// assert_eq!(pool.len(), 1);
    /// # Ok::<(), pooling::PoolFull>(())
    /// ```
    #[inline]
    pub fn retain(&mut self, mut keep: impl FnMut(&mut T) -> bool) {
        self.retain_with_handle(|_, object| keep(object));
    }

    /// [`retain`](Pool::retain), with `keep` seeing each object's handle as well: to drop it
    /// from an index kept elsewhere as the object goes.
    ///
    /// ```
    /// # use pooling::{Handle, Pooled};
    /// # use std::collections::HashSet;
    /// # #[derive(Pooled)]
    /// # #[pool(size = 8)]
    /// # struct Enemy { health: i32 }
    /// let mut enemies = EnemyPool::new();
    /// let mut targeted: HashSet<Handle<Enemy>> = HashSet::new();
    /// for health in [0, 10] {
    ///     targeted.insert(enemies.try_create(|e| e.health = health)?);
    /// }
    /// enemies.retain_with_handle(|handle, enemy| {
    ///     let alive = enemy.health > 0;
    ///     if !alive {
    ///         targeted.remove(&handle);
    ///     }
    ///     alive
    /// });
    /// assert_eq!(targeted.len(), 1);
    /// assert!(targeted.iter().all(|&h| enemies.contains(h)));
    /// # Ok::<(), pooling::PoolFull>(())
    /// ```
    pub fn retain_with_handle(&mut self, mut keep: impl FnMut(Handle<T>, &mut T) -> bool) {
        let retired_at = self.storage.retired_at();
        let (free, counts) = (&mut self.free, &mut self.counts);
        for chunk in self.storage.chunks_mut() {
            let (base, words) = (chunk.base, chunk.words);
            // The slots of word `w`, `group`, a word at a time: the bits are read once, and only
            // a release writes them.
            let mut visit = |w: usize, group: &mut [Slot<T>]| {
                let Some(word) = words.get(w) else { return };
                let mut bits = word.get();
                while bits != 0 {
                    let bit = bits.trailing_zeros() as usize;
                    bits &= bits - 1;
                    let Some(slot) = group.get_mut(bit) else {
                        break;
                    };
                    let local = w * BITS + bit;
                    let handle = slot.handle_mut(base + local);
                    if !keep(handle, slot.value_mut()) {
                        Self::vacate(
                            slot,
                            &Bit::new(words, local),
                            base + local,
                            retired_at,
                            free,
                            counts,
                        );
                    }
                }
            };
            // Whole groups of 64 slots apart from the last, shorter one: in a group whose length
            // the compiler knows, a bit's slot needs no bounds check.
            let (groups, tail) = chunk.slots.as_chunks_mut::<BITS>();
            let whole = groups.len();
            for (w, group) in groups.iter_mut().enumerate() {
                visit(w, group);
            }
            visit(whole, tail);
        }
    }

    /// Releases every live object at once: the per-frame reset of a scratch pool. Every
    /// outstanding handle becomes stale.
    ///
    /// ```
    /// # use pooling::Pooled;
    /// # #[derive(Pooled)]
    /// # #[pool(size = 8)]
    /// # struct Contact { depth: f32 }
    /// let mut contacts = ContactPool::new();
    /// let c = contacts.try_create(|c| c.depth = 0.1)?;
    /// contacts.release_all(); // end of frame
    /// assert!(contacts.is_empty());
    /// assert!(contacts.get(c).is_none());
    /// # Ok::<(), pooling::PoolFull>(())
    /// ```
    #[doc(alias = "clear", alias = "Clear")]
    pub fn release_all(&mut self) {
        self.retain(|_| false);
    }

    /// The live object that `importance` ranks lowest, the lowest slot of equals; `None` when
    /// no object is live. One pass over the live objects.
    ///
    /// An [`Evict`](crate::Evict) pool's `victim()` is this with its `evict_by` measure.
    ///
    /// ```
    /// # use pooling::Pooled;
    /// # #[derive(Pooled)]
    /// # #[pool(size = 2)]
    /// # struct Voice { volume: u32 }
    /// let mut voices = VoicePool::new();
    /// let quiet = voices.try_create(|v| v.volume = 1)?;
    /// voices.try_create(|v| v.volume = 5)?;
    /// assert_eq!(voices.least_important(|v| v.volume), Some(quiet));
    /// # Ok::<(), pooling::PoolFull>(())
    /// ```
    pub fn least_important<K: Importance>(
        &self,
        mut importance: impl FnMut(&T) -> K,
    ) -> Option<Handle<T>> {
        let (handle, _) = self.iter().min_by_key(|(_, object)| importance(object))?;
        Some(handle)
    }

    /// Occupancy and traffic figures for sizing the pool; see [`Stats`].
    ///
    /// ```
    /// # use pooling::Pooled;
    /// # #[derive(Pooled)]
    /// # #[pool(size = 4)]
    /// # struct Spark { heat: u32 }
    /// let mut pool = SparkPool::new();
    /// let spark = pool.try_create(|_| {})?;
    /// pool.release(spark).unwrap();
    /// let stats = pool.stats();
    /// assert_eq!((stats.created, stats.released, stats.high_water), (1, 1, 1));
    /// # Ok::<(), pooling::PoolFull>(())
    /// ```
    #[doc(alias = "count_inactive", alias = "CountInactive")]
    pub fn stats(&self) -> Stats {
        let _locked = self.lock.lock();
        let counts = &self.counts;
        let (live, leased, retired) = (counts.live(), counts.leased(), counts.retired());
        let capacity = self.capacity();
        Stats {
            capacity,
            live,
            leased,
            free: capacity - live - leased - retired,
            high_water: counts.high_water(),
            created: counts.created(),
            released: counts.released(),
            failed: counts.failed(),
            evicted: counts.evicted(),
            chunks: self.storage.chunk_count(),
            retired,
            waited: 0,
        }
    }

    /// Creates an object in the slot at the head of the free list, handing `init` its
    /// handle-to-be; `None` when no slot is free.
    #[inline]
    pub(crate) fn create_in_free_slot(
        &mut self,
        init: impl FnOnce(Handle<T>, &mut T),
    ) -> Option<Handle<T>> {
        let index = self.free.head_mut() as usize;
        let (slots, words) = self.storage.first_mut();
        match slots.get_mut(index) {
            Some(slot) => Some(Self::fill(
                slot,
                &Bit::new(words, index),
                index,
                &mut self.free,
                &mut self.counts,
                init,
            )),
            _ => self.create_past_first(init),
        }
    }

    /// [`create_in_free_slot`](Pool::create_in_free_slot) when the head of the free list is
    /// not a slot of the first ones, or there is none: out of line, so that the hot
    /// path keeps its registers.
    #[cold]
    #[inline(never)]
    fn create_past_first(&mut self, init: impl FnOnce(Handle<T>, &mut T)) -> Option<Handle<T>> {
        let Some((index, slot, bit)) = self.free.head_slot(|index| self.storage.slot_mut(index))
        else {
            return self.create_in_new_slot(init);
        };
        Some(Self::fill(
            slot,
            &bit,
            index,
            &mut self.free,
            &mut self.counts,
            init,
        ))
    }

    /// Fills the free slot at the head of the free list with a new object: resets it, hands
    /// it to `init` with its handle-to-be, then takes the slot off the list and makes it live.
    #[inline]
    fn fill(
        slot: &mut Slot<T>,
        bit: &Bit<'_>,
        index: usize,
        free: &mut FreeList,
        counts: &mut Counts,
        init: impl FnOnce(Handle<T>, &mut T),
    ) -> Handle<T> {
        let handle = slot.next_handle(index);
        // The slot stays on the free list until `init` returns, so that if it unwinds,
        // resetting what it wrote is all there is to undo. (`init` cannot reach the pool: it is
        // borrowed mutably.)
        let value = slot.value_mut();
        value.reset_at_reuse();
        let mut value = scopeguard::guard(value, T::reset_at_release);
        init(handle, &mut value);
        ScopeGuard::into_inner(value);
        free.pop_head_mut(slot);
        slot.mark_live_mut(handle);
        bit.set();
        counts.create_mut();
        handle
    }

    /// Builds a slot (for storage that builds slots on first use) and creates the object in
    /// it; `None` when every slot is built.
    #[cold]
    fn create_in_new_slot(&mut self, init: impl FnOnce(Handle<T>, &mut T)) -> Option<Handle<T>> {
        if self.storage.build_next(&self.free, &self.lock, blank::<T>) {
            self.create_in_free_slot(init)
        } else {
            None
        }
    }

    /// Takes the slot at the head of the free list off it and counts it as lent, under the
    /// lock, building a slot first for storage that builds slots on first use; `None` when no
    /// slot is free. The slot is the caller's to lend ([`lend_slot`](Pool::lend_slot)), with
    /// the high water mark from before the count, to undo it.
    #[inline]
    pub(crate) fn take_slot(&self) -> Option<Taking<'_, T>> {
        loop {
            {
                let _locked = self.lock.lock();
                let index = self.free.head();
                if index != NIL {
                    let (slot, bit) = (self.storage)
                        .slot_with_bit(index as usize)
                        .expect("free-list indices are in the pool");
                    self.free.pop_head(slot);
                    let high_water = self.counts.high_water();
                    self.counts.lend();
                    return Some(Taking {
                        index: index as usize,
                        slot,
                        bit,
                        high_water,
                    });
                }
            }
            if !self.storage.build_next(&self.free, &self.lock, blank::<T>) {
                return None;
            }
        }
    }

    /// Lends the object of a slot just taken off the free list by
    /// [`take_slot`](Pool::take_slot), set up by `init`.
    ///
    /// No lock is held while the object's code runs: `init` may acquire again (the slot in
    /// hand is counted, so a growing pool grows), or be slow, and other threads go on. If the
    /// reset or `init` unwinds, the slot goes back on the free list and the count is undone:
    /// after `init`, reset; after the reset, as it is, as its plain data is reset again when
    /// the slot is next taken.
    #[inline]
    pub(crate) fn lend_slot<'a>(
        &'a self,
        taking: Taking<'a, T>,
        init: impl FnOnce(&mut T),
    ) -> Lease<'a, T> {
        let Taking {
            index,
            slot,
            bit,
            high_water,
        } = taking;
        // SAFETY: the slot was just taken off the free list under the lock, so it is not live,
        // and nothing else has it.
        let mut taken = unsafe { slot.take() };
        let (free, counts, lock) = (&self.free, &self.counts, &self.lock);
        let give_back = scopeguard::guard((), |()| {
            let _locked = lock.lock();
            counts.unlend(high_water);
            free.push(index, slot);
        });
        taken.get_mut().reset_at_reuse();
        let mut value = scopeguard::guard(taken.get_mut(), T::reset_at_release);
        init(&mut value);
        ScopeGuard::into_inner(value);
        ScopeGuard::into_inner(give_back);
        Lease::new(taken, index, bit, &self.free, &self.counts, &self.lock)
    }

    /// Lends the object of a free slot, set up by `init`; `None` when no slot is free.
    #[inline]
    pub(crate) fn lend(&self, init: impl FnOnce(&mut T)) -> Option<Lease<'_, T>> {
        let taking = self.take_slot()?;
        Some(self.lend_slot(taking, init))
    }

    /// Releases the live object `handle` names to make room, counting an eviction.
    pub(crate) fn evict(&mut self, handle: Handle<T>) {
        self.release(handle)
            .expect("the object to evict was just found live");
        self.counts.evict_mut();
    }

    /// Counts a refusal, and the error saying so.
    #[cold]
    pub(crate) fn refuse(&self) -> PoolFull {
        {
            let _locked = self.lock.lock();
            self.counts.fail();
        }
        PoolFull::new(self.capacity())
    }

    /// Counts a refusal, and panics saying so.
    #[cold]
    #[track_caller]
    pub(crate) fn panic_full(&self) -> ! {
        {
            let _locked = self.lock.lock();
            self.counts.fail();
        }
        panic!(
            "{} is full: all {} slots are in use (high water {}); raise `#[pool(size = N)]` or release objects sooner",
            T::NAME,
            self.capacity(),
            self.counts.high_water(),
        );
    }

    /// Sets the version of `handle`'s slot, counted from the pool's offset.
    #[cfg(test)]
    pub(crate) fn force_version(&self, handle: Handle<T>, version: u32) {
        self.storage
            .slot(handle.index())
            .expect("a slot of this pool")
            .force_version(self.storage.version_of(version));
    }

    /// The version that `force_version(handle, relative)` gives a slot: what a handle then
    /// holds.
    #[cfg(test)]
    pub(crate) fn version_of(&self, relative: u32) -> u32 {
        self.storage.version_of(relative)
    }
}

#[cfg(feature = "alloc")]
impl<T: Pooled, S> Default for Pool<T, S, Heap> {
    fn default() -> Self {
        Self::new()
    }
}

impl<T: Pooled, S, const N: usize, const W: usize> Default for Pool<T, S, Inline<N, W>> {
    fn default() -> Self {
        Self::new()
    }
}

/// Shows the [`Stats`] under the pool's name, not the objects.
impl<T: Pooled, S, B: Storage> fmt::Debug for Pool<T, S, B> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.stats().debug_as(T::NAME, f)
    }
}

impl<'a, T: Pooled, S, B: Storage> IntoIterator for &'a Pool<T, S, B> {
    type Item = (Handle<T>, &'a T);
    type IntoIter = Iter<'a, T>;

    fn into_iter(self) -> Iter<'a, T> {
        self.iter()
    }
}

impl<'a, T: Pooled, S, B: Storage> IntoIterator for &'a mut Pool<T, S, B> {
    type Item = (Handle<T>, &'a mut T);
    type IntoIter = IterMut<'a, T>;

    fn into_iter(self) -> IterMut<'a, T> {
        self.iter_mut()
    }
}

/// A slot taken off the free list and counted as lent, not yet lent: see
/// [`Pool::take_slot`].
pub(crate) struct Taking<'a, T> {
    index: usize,
    slot: &'a Slot<T>,
    bit: Bit<'a>,
    /// The high water mark before the slot was counted.
    high_water: usize,
}
