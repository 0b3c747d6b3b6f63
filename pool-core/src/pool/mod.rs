//! The pool: the struct and its constructors. What it does is in `api` (one object at a time),
//! `scan` (every live object) and `engine` (the slot engine under both).

mod api;
#[cfg(feature = "alloc")]
mod check;
mod clone;
pub(crate) mod counts;
mod disjoint;
mod engine;
mod index;
pub(crate) mod iter;
pub(crate) mod lease;
#[cfg(feature = "rayon")]
pub(crate) mod par;
mod scan;
#[cfg(feature = "serde")]
mod serde;
pub(crate) mod stats;

use crate::Pooled;
use crate::limits;
use crate::pool::counts::Counts;
use crate::pooled::blank;
use crate::slot::free_list::FreeList;
#[cfg(feature = "alloc")]
use crate::storage::HeapSlots;
use crate::storage::lock::Lock;
use crate::storage::{Heap, Inline, InlineSlots, Storage};
use core::fmt;
use core::marker::PhantomData;

/// A fixed number of `T`s, handed out by [`Handle`](crate::Handle), with `S` saying what a full
/// pool does and `B` where the objects live: built up front in one allocation ([`Heap`], the
/// default), or inside the pool itself ([`Inline`], for code without an allocator).
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
    //   set (kept by `slot/state.rs`, the only code that changes either); `counts.live` counts
    //   live slots;
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
        limits::check_capacity(capacity);
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
                N <= limits::MAX_CAPACITY,
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

/// Shows the [`Stats`](crate::Stats) under the pool's name, not the objects.
impl<T: Pooled, S, B: Storage> fmt::Debug for Pool<T, S, B> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.stats().debug_as(T::NAME, f)
    }
}
