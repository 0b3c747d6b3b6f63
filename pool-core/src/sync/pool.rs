use super::guard::SyncGuard;
use super::iter::SyncIter;
use super::lease::Lent;
use super::lease::SyncLease;
use super::lifecycle::Released;
#[cfg(feature = "alloc")]
use super::owned::OwnedSyncLease;
use super::slots::SyncSlots;
use super::store::SyncStore;
use crate::limits;
#[cfg(feature = "alloc")]
use crate::slot::offset;
use crate::{Handle, Heap, Inline, PoolFull, Pooled, StaleHandle, Stats, Storage};
#[cfg(feature = "alloc")]
use alloc::sync::Arc;
use core::fmt;
use core::marker::PhantomData;

/// A fixed number of `T`s, built up front and shared by many threads: `create`, `get`,
/// `release` and `acquire` take `&self`, never block, and never allocate.
///
/// `#[derive(Pooled)]` with `#[pool(size = N, sync)]` names it for the struct: `JobPool` is
/// `SyncPool<Job>`. It keeps the promises of [`Pool`](crate::Pool): every object is built in
/// [`new`](SyncPool::new), a [`Handle`] never reaches an object created after its own was
/// released, and an object is reset before it is reused. What differs:
///
/// - [`get`](SyncPool::get) returns a [`SyncGuard`], not `&T`. Another thread may release the
///   object while the guard is out: the handle goes stale at once, and the object is reset and
///   its slot freed when the last guard drops. Objects are read-only through a guard; to mutate
///   one shared across threads, give it interior mutability (atomics, a `Mutex` field), or use
///   [`get_mut`](SyncPool::get_mut) with `&mut SyncPool`.
/// - A full pool fails (`on_full = fail`, the default) or panics (`on_full = panic`); it cannot
///   evict (that would reset an object another thread may be reading) nor grow (no lock-free
///   growth without moving objects or an unbounded table of chunks).
/// - [`iter`](SyncPool::iter) visits the objects live as it passes their slots, each behind a
///   guard, while other threads create and release (see there).
/// - With the `async` feature, `acquire_async` waits for a free slot instead of failing;
///   [`try_acquire_owned`](SyncPool::try_acquire_owned) and its kin lend through an
///   `Arc<SyncPool>`, for leases that move into spawned tasks.
/// - [`stats`](SyncPool::stats) read while other threads work is approximate (see there).
///
/// The pool is `Send` when `T` is, and `Sync` when `T` is `Send` and `Sync`. The free slots are
/// spread over 16 lock-free stacks (shards, one without `std`), each head on its own cache line
/// and carrying a tag bumped on every change, so it has no ABA problem. A thread works on the
/// shard of its small thread id (reused when threads exit, as sharded-slab's), and a freed slot
/// goes back to the shard it was taken from, so threads that create and release write no line
/// another thread writes; a thread whose shard is empty takes from the others, and the pool
/// refuses only when all its slots are in use. Each slot keeps its version, state and count of
/// guards in one atomic word, as sharded-slab's slots do.
///
/// ```
/// use pooling::Pooled;
/// use std::thread;
///
/// #[derive(Pooled)]
/// #[pool(size = 64, sync)]
/// struct Job {
///     id: u64,
///     payload: Vec<u8>,
/// }
///
/// let jobs = JobPool::new();
/// let rounds = 100;
/// # let rounds = if cfg!(miri) { 10 } else { rounds }; // Miri runs threads slowly.
/// thread::scope(|s| {
///     for worker in 0..4 {
///         let jobs = &jobs;
///         s.spawn(move || {
///             for id in 0..rounds {
///                 let job = jobs.create(|j| j.id = worker * 1000 + id).unwrap();
///                 assert_eq!(jobs.get(job).unwrap().id, worker * 1000 + id);
///                 jobs.release(job).unwrap();
///             }
///         });
///     }
/// });
/// assert!(jobs.is_empty());
/// assert_eq!(jobs.stats().created, 4 * rounds);
/// ```
pub struct SyncPool<T: Pooled, S = <T as Pooled>::Strategy, B: Storage = Heap> {
    store: B::SyncStore<T>,
    strategy: PhantomData<fn() -> S>,
}

// SAFETY: every storage keeps only `SyncSlot`s, `Sync` when `T` is `Send` and `Sync` (see
// there), and books of atomics; stated here so that generic code over any storage has it.
unsafe impl<T: Pooled + Send + Sync, S, B: Storage> Sync for SyncPool<T, S, B> {}

// SAFETY: the pool owns its objects and atomics: moving it moves them, which `T: Send` allows.
unsafe impl<T: Pooled + Send, S, B: Storage> Send for SyncPool<T, S, B> {}

#[cfg(feature = "alloc")]
impl<T: Pooled, S> SyncPool<T, S, Heap> {
    /// Builds a pool of `T::SIZE` blank objects (the `size` of `#[pool(size = N, sync)]`): the
    /// only allocations the pool makes, two (its slots, and its books: the free lists' heads, the
    /// counts, the waiters).
    ///
    /// ```
    /// # use pooling::Pooled;
    /// # #[derive(Pooled)]
    /// # #[pool(size = 64, sync)]
    /// # struct Job { id: u64 }
    /// let jobs = JobPool::new();
    /// assert_eq!(jobs.capacity(), 64);
    /// ```
    ///
    /// # Panics
    /// If `T::SIZE` exceeds [`MAX_CAPACITY`](SyncPool::MAX_CAPACITY).
    pub fn new() -> Self {
        Self::with_capacity(T::SIZE)
    }

    /// Builds a pool of `capacity` blank objects.
    ///
    /// ```
    /// # use pooling::Pooled;
    /// # #[derive(Pooled)]
    /// # #[pool(size = 64, sync)]
    /// # struct Job { id: u64 }
    /// assert_eq!(JobPool::with_capacity(8).capacity(), 8);
    /// ```
    ///
    /// # Panics
    /// If `capacity` exceeds [`MAX_CAPACITY`](SyncPool::MAX_CAPACITY).
    pub fn with_capacity(capacity: usize) -> Self {
        assert!(
            capacity <= Self::MAX_CAPACITY,
            "a sync pool holds at most {} objects, not {capacity}",
            Self::MAX_CAPACITY
        );
        Self {
            store: super::store::HeapStore::new(capacity, offset::next()),
            strategy: PhantomData,
        }
    }
}

impl<T: Pooled, S, const N: usize, const W: usize> SyncPool<T, S, Inline<N, W>> {
    const_unless_loom! {
        /// A pool of `N` objects inside itself, with no allocation: `const`, so it can be a
        /// `static` that thread mode and interrupt handlers share (`#[pool(size = N, sync, storage
        /// = inline)]`). It builds nothing: each slot's blank object is built the first time the
        /// slot is taken, and reused from then on.
        ///
        /// ```
        /// use pooling::Pooled;
        ///
        /// #[derive(Pooled)]
        /// #[pool(size = 8, sync, storage = inline)]
        /// struct Frame {
        ///     len: u8,
        ///     bytes: [u8; 64],
        /// }
        ///
        /// static FRAMES: FramePool = FramePool::new();
        ///
        /// let frame = FRAMES.create(|f| f.len = 3)?;
        /// assert_eq!(FRAMES.get(frame).unwrap().len, 3);
        /// let lease = FRAMES.acquire(|_| {})?; // a `SyncLease<'static, Frame>`: `Send`, `'static`
        /// std::thread::spawn(move || drop(lease)).join().unwrap();
        /// assert_eq!(FRAMES.stats().live, 1);
        /// # Ok::<(), pooling::PoolFull>(())
        /// ```
        ///
        /// # Panics
        /// If `N` exceeds [`MAX_CAPACITY`](SyncPool::MAX_CAPACITY): at compile time for a `static`.
        pub fn new() -> Self {
            Self {
                store: super::store::InlineStore::new(),
                strategy: PhantomData,
            }
        }
    }
}

impl<T: Pooled, S, B: Storage> SyncPool<T, S, B> {
    /// The largest capacity a pool can have: slot indices are 32-bit, and with 32-bit state
    /// words (on targets without 64-bit atomics) a free list's head holds an index and a tag
    /// of at least 16 bits in one word, so 65,534 there.
    pub const MAX_CAPACITY: usize = super::MAX_CAPACITY;

    /// The number of slots, live or not.
    #[inline]
    pub fn capacity(&self) -> usize {
        self.view().capacity()
    }

    /// The number of live objects: those reachable by handle. O(capacity): it counts the live
    /// slots, one load each. While other threads create and release, it is a snapshot that may
    /// already be out of date (see [`stats`](SyncPool::stats)).
    ///
    /// ```
    /// # use pooling::Pooled;
    /// # #[derive(Pooled)]
    /// # #[pool(size = 4, sync)]
    /// # struct Job { id: u64 }
    /// let jobs = JobPool::new();
    /// let job = jobs.create(|_| {})?;
    /// assert_eq!(jobs.len(), 1);
    /// # Ok::<(), pooling::PoolFull>(())
    /// ```
    #[inline]
    pub fn len(&self) -> usize {
        self.view().live()
    }

    /// Whether no object is live (a snapshot, as [`len`](SyncPool::len)).
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Takes a free slot, hands its blank object to `init`, and publishes the object to every
    /// thread; an error, changing nothing but [`Stats::failed`], when no slot is free.
    ///
    /// It never blocks, panics or allocates, whatever the strategy. If `init` panics, the slot
    /// is reset and goes back to the pool.
    ///
    /// ```
    /// # use pooling::Pooled;
    /// # #[derive(Pooled)]
    /// # #[pool(size = 1, sync)]
    /// # struct Job { id: u64 }
    /// let jobs = JobPool::new();
    /// let job = jobs.try_create(|j| j.id = 7)?;
    /// assert_eq!(jobs.get(job).unwrap().id, 7);
    /// assert!(jobs.try_create(|_| {}).is_err()); // full
    /// # Ok::<(), pooling::PoolFull>(())
    /// ```
    ///
    /// # Errors
    /// [`PoolFull`] when every slot is in use; `init` is not called.
    #[inline]
    pub fn try_create(&self, init: impl FnOnce(&mut T)) -> Result<Handle<T>, PoolFull> {
        self.try_create_with_handle(|_, object| init(object))
    }

    /// [`try_create`](SyncPool::try_create), with `init` seeing the handle the object will have.
    ///
    /// ```
    /// # use pooling::{Handle, Pooled};
    /// # #[derive(Pooled)]
    /// # #[pool(size = 4, sync)]
    /// # struct Node { me: Option<Handle<Node>> }
    /// let nodes = NodePool::new();
    /// let node = nodes.try_create_with_handle(|handle, node| node.me = Some(handle))?;
    /// assert_eq!(nodes.get(node).unwrap().me, Some(node));
    /// # Ok::<(), pooling::PoolFull>(())
    /// ```
    ///
    /// # Errors
    /// [`PoolFull`] when every slot is in use; `init` is not called.
    #[inline]
    pub fn try_create_with_handle(
        &self,
        init: impl FnOnce(Handle<T>, &mut T),
    ) -> Result<Handle<T>, PoolFull> {
        self.create_in_free_slot(init).ok_or_else(|| self.refuse())
    }

    /// Lends a blank object, set up by `init`, if a slot is free; it comes back, reset, when the
    /// [`SyncLease`] drops, on whatever thread. It never blocks, panics or allocates.
    ///
    /// ```
    /// # use pooling::Pooled;
    /// # #[derive(Pooled)]
    /// # #[pool(size = 1, sync)]
    /// # struct Buffer { bytes: Vec<u8> }
    /// let buffers = BufferPool::new();
    /// let lease = buffers.try_acquire(|b| b.bytes.push(1))?;
    /// assert!(buffers.try_acquire(|_| {}).is_err());
    /// drop(lease);
    /// assert!(buffers.try_acquire(|b| assert!(b.bytes.is_empty())).is_ok());
    /// # Ok::<(), pooling::PoolFull>(())
    /// ```
    ///
    /// # Errors
    /// [`PoolFull`] when no slot is free; `init` is not called.
    #[inline]
    pub fn try_acquire(&self, init: impl FnOnce(&mut T)) -> Result<SyncLease<'_, T>, PoolFull> {
        self.lend(init).ok_or_else(|| self.refuse())
    }

    /// [`try_acquire`](SyncPool::try_acquire) through an [`Arc`]: the [`OwnedSyncLease`] keeps
    /// the pool alive instead of borrowing it, so it is `'static` and moves into spawned tasks
    /// and threads. It never blocks, panics or allocates.
    ///
    /// ```
    /// # use pooling::Pooled;
    /// # use std::sync::Arc;
    /// # #[derive(Pooled)]
    /// # #[pool(size = 1, sync)]
    /// # struct Buffer { bytes: Vec<u8> }
    /// let buffers = Arc::new(BufferPool::new());
    /// let lease = buffers.try_acquire_owned(|b| b.bytes.push(1))?;
    /// assert!(buffers.try_acquire_owned(|_| {}).is_err());
    /// std::thread::spawn(move || drop(lease)).join().unwrap();
    /// assert!(buffers.try_acquire_owned(|b| assert!(b.bytes.is_empty())).is_ok());
    /// # Ok::<(), pooling::PoolFull>(())
    /// ```
    ///
    /// # Errors
    /// [`PoolFull`] when no slot is free; `init` is not called.
    #[cfg(feature = "alloc")]
    #[inline]
    pub fn try_acquire_owned(
        self: &Arc<Self>,
        init: impl FnOnce(&mut T),
    ) -> Result<OwnedSyncLease<T, S, B>, PoolFull> {
        match self.lent(init) {
            Some(lent) => Ok(OwnedSyncLease::new(Arc::clone(self), lent)),
            None => Err(self.refuse()),
        }
    }

    /// The live objects, each with its handle and behind a [`SyncGuard`], in slot order; only
    /// objects made by `create` (or a lease's `into_handle`), never lent ones.
    ///
    /// It may run while other threads create and release. It visits each slot once, and yields
    /// its object if it is live at that moment: it takes a guard the way
    /// [`get`](SyncPool::get) does, so it never yields an object being built, reset or lent,
    /// and an object released after it was yielded stays readable until its guard drops (as
    /// with `get`). An object created in a slot the iterator has passed, or released before it
    /// gets there, is not yielded: the result is no snapshot of one moment, but every object
    /// live throughout the iteration is yielded exactly once.
    ///
    /// ```
    /// # use pooling::Pooled;
    /// # #[derive(Pooled)]
    /// # #[pool(size = 8, sync)]
    /// # struct Session { idle: u32 }
    /// let sessions = SessionPool::new();
    /// for idle in [1, 30, 2, 45] {
    ///     sessions.create(|s| s.idle = idle)?;
    /// }
    /// let _lent = sessions.acquire(|s| s.idle = 99)?; // not live: not visited
    /// let stale: Vec<_> = sessions
    ///     .iter()
    ///     .filter(|(_, session)| session.idle > 10)
    ///     .map(|(handle, _)| handle)
    ///     .collect();
    /// for handle in stale {
    ///     sessions.release(handle).unwrap();
    /// }
    /// assert_eq!(sessions.iter().map(|(_, s)| s.idle).collect::<Vec<_>>(), [1, 2]);
    /// # Ok::<(), pooling::PoolFull>(())
    /// ```
    pub fn iter(&self) -> SyncIter<'_, T> {
        SyncIter::new(self.view())
    }

    /// A guard reading the object `handle` names, or `None` once the object has been released
    /// (even if guards from before the release are still out), or if the handle is from another
    /// pool. Lock-free: a compare-and-swap on the slot's state word.
    ///
    /// ```
    /// # use pooling::Pooled;
    /// # #[derive(Pooled)]
    /// # #[pool(size = 4, sync)]
    /// # struct Job { id: u64 }
    /// let jobs = JobPool::new();
    /// let job = jobs.create(|j| j.id = 3)?;
    /// assert_eq!(jobs.get(job).map(|j| j.id), Some(3));
    /// jobs.release(job).unwrap();
    /// assert!(jobs.get(job).is_none());
    /// # Ok::<(), pooling::PoolFull>(())
    /// ```
    #[inline]
    pub fn get(&self, handle: Handle<T>) -> Option<SyncGuard<'_, T>> {
        let slot = self.view().slot(handle)?;
        #[expect(clippy::cast_possible_truncation, reason = "indices end below NIL")]
        let index = handle.index() as u32;
        self.view().guard(slot, index, handle.raw_version())
    }

    /// The object `handle` names, mutably, through an exclusive borrow of the pool (so no guard
    /// or lease is out), or `None` once it has been released.
    ///
    /// ```
    /// # use pooling::Pooled;
    /// # #[derive(Pooled)]
    /// # #[pool(size = 4, sync)]
    /// # struct Job { id: u64 }
    /// let mut jobs = JobPool::new();
    /// let job = jobs.create(|_| {})?;
    /// jobs.get_mut(job).unwrap().id = 9;
    /// assert_eq!(jobs.get(job).unwrap().id, 9);
    /// # Ok::<(), pooling::PoolFull>(())
    /// ```
    #[cfg(not(loom))]
    #[inline]
    pub fn get_mut(&mut self, handle: Handle<T>) -> Option<&mut T> {
        self.store
            .slot_mut(handle.index())?
            .live_mut(handle.raw_version())
    }

    /// Whether `handle` names a live object of this pool (a snapshot: another thread may
    /// release it right after).
    ///
    /// ```
    /// # use pooling::Pooled;
    /// # #[derive(Pooled)]
    /// # #[pool(size = 4, sync)]
    /// # struct Job { id: u64 }
    /// let jobs = JobPool::new();
    /// let job = jobs.create(|_| {})?;
    /// assert!(jobs.contains(job));
    /// jobs.release(job).unwrap();
    /// assert!(!jobs.contains(job));
    /// # Ok::<(), pooling::PoolFull>(())
    /// ```
    #[inline]
    pub fn contains(&self, handle: Handle<T>) -> bool {
        self.view()
            .slot(handle)
            .is_some_and(|slot| slot.life.is_live_at(handle.raw_version()))
    }

    /// Releases the object `handle` names: the handle, and every copy of it, goes stale at once.
    /// The object is reset and its slot freed now if no [`SyncGuard`] reads it, or else when the
    /// last guard drops. Of two threads releasing the same handle, exactly one succeeds.
    ///
    /// If the reset panics, the slot is retired (counted in [`Stats::retired`]) rather than
    /// reused half reset, and the panic goes on from here (or from the last guard's drop).
    ///
    /// ```
    /// # use pooling::Pooled;
    /// # #[derive(Pooled)]
    /// # #[pool(size = 4, sync)]
    /// # struct Job { payload: Vec<u8> }
    /// let jobs = JobPool::new();
    /// let job = jobs.create(|j| j.payload.push(1))?;
    /// assert!(jobs.release(job).is_ok());
    /// assert!(jobs.release(job).is_err()); // already released
    /// # Ok::<(), pooling::PoolFull>(())
    /// ```
    ///
    /// # Errors
    /// [`StaleHandle`] when the object was already released, or the handle is from another
    /// pool; nothing changes.
    #[inline]
    pub fn release(&self, handle: Handle<T>) -> Result<(), StaleHandle> {
        let released = self
            .view()
            .slot(handle)
            .and_then(|slot| slot.life.release(handle.raw_version()));
        match released {
            Some(released) => {
                if let Released::Reclaim = released {
                    #[expect(clippy::cast_possible_truncation, reason = "indices end below NIL")]
                    self.view().reclaim(handle.index() as u32);
                }
                Ok(())
            }
            None => Err(StaleHandle::new(handle)),
        }
    }

    /// A snapshot of the pool's occupancy and traffic, added up over the slots: O(capacity).
    ///
    /// Each slot keeps its own counts, written by the one thread that owns the slot at the
    /// time with relaxed ordering, so that counting costs creating and releasing threads no
    /// shared counter. Read while other threads create and release, each slot is read at its
    /// own moment: the figures may disagree with each other by the operations in flight
    /// (`live + leased + free + retired` need not add up to `capacity`; a released object that
    /// a guard still reads is in none of them). Once the threads are done (joined), every
    /// figure is exact. `high_water` is the number of slots that have ever held an object,
    /// never less than the most in use at once: a thread takes a slot never used only when
    /// the free list of its own shard is empty (slots go back, last in first out, to the shard
    /// of the thread that took them), so with one thread it is exactly the most in use at
    /// once, and with several it may exceed that by the slots other threads had freed and not
    /// yet reused. `evicted` is always 0 and `chunks` 1.
    ///
    /// ```
    /// # use pooling::Pooled;
    /// # #[derive(Pooled)]
    /// # #[pool(size = 8, sync)]
    /// # struct Job { id: u64 }
    /// let jobs = JobPool::new();
    /// std::thread::scope(|s| {
    ///     for _ in 0..2 {
    ///         s.spawn(|| {
    ///             let job = jobs.create(|_| {}).unwrap();
    ///             jobs.release(job).unwrap();
    ///             jobs.create(|_| {}).unwrap();
    ///         });
    ///     }
    /// });
    /// let stats = jobs.stats(); // exact: the threads are joined
    /// assert_eq!((stats.live, stats.free, stats.created, stats.released), (2, 6, 4, 2));
    /// ```
    pub fn stats(&self) -> Stats {
        let tally = self.view().tally();
        let (waited, waiting) = self.waits();
        Stats {
            capacity: self.capacity(),
            live: tally.live,
            leased: tally.leased,
            free: tally.free,
            high_water: tally.used,
            created: tally.created,
            released: tally.released,
            failed: self.view().failed(),
            evicted: 0,
            chunks: 1,
            retired: tally.retired,
            waited,
            waiting,
        }
    }

    /// Walks every slot, free list and count, and says what disagrees with what: a slot lost
    /// (free but on no list), on a list twice or while in use, a version whose parity is not
    /// its state's, counts that do not add up. For tests and fuzzers, with no other thread
    /// working on the pool; O(capacity), and it allocates.
    ///
    /// # Errors
    /// The first inconsistency found, described.
    #[doc(hidden)]
    #[cfg(feature = "alloc")]
    pub fn check_consistency(&self) -> Result<(), alloc::string::String> {
        self.view().check().map_err(alloc::string::String::from)
    }

    /// Fills a free slot and makes it live; `None` when no slot is free.
    #[inline]
    pub(crate) fn create_in_free_slot(
        &self,
        init: impl FnOnce(Handle<T>, &mut T),
    ) -> Option<Handle<T>> {
        let (index, object) = self.view().take_free(init)?;
        // The charge of the object ends before other threads can reach it.
        #[cfg_attr(
            not(loom),
            expect(clippy::drop_non_drop, reason = "loom's pointer has drop")
        )]
        drop(object);
        self.view().owned(index).counts.create();
        Some(self.view().publish(index))
    }

    /// Lends the object of a free slot, set up by `init`; `None` when no slot is free.
    #[inline]
    pub(crate) fn lend(&self, init: impl FnOnce(&mut T)) -> Option<SyncLease<'_, T>> {
        self.lent(init)
            .map(|lent| SyncLease::new(self.view(), lent))
    }

    /// Lends the object of a free slot, set up by `init`, to a lease of any kind.
    #[inline]
    pub(crate) fn lent(&self, init: impl FnOnce(&mut T)) -> Option<Lent<T>> {
        let (index, object) = self.view().take_free(|_, object| init(object))?;
        Some(Lent::new(self.view(), index, object))
    }

    /// The slots and books, as guards and leases reach them.
    #[inline]
    pub(crate) fn view(&self) -> SyncSlots<'_, T> {
        self.store.slots()
    }

    /// `Stats::waited` and `Stats::waiting`.
    #[cfg(feature = "async")]
    fn waits(&self) -> (u64, usize) {
        let waiters = self.view().waiters();
        (waiters.waited(), waiters.waiting())
    }

    #[cfg(not(feature = "async"))]
    #[expect(clippy::unused_self, reason = "the same call with or without `async`")]
    fn waits(&self) -> (u64, usize) {
        (0, 0)
    }

    #[cfg(all(test, not(loom)))]
    pub(crate) fn force_version(&self, index: usize, relative: u32) {
        self.view().force_version(index, relative);
    }

    /// Counts a refusal, and the error saying so.
    #[cold]
    pub(crate) fn refuse(&self) -> PoolFull {
        self.view().fail();
        PoolFull::new(self.capacity())
    }

    /// Counts a refusal, and panics saying so.
    #[cold]
    #[track_caller]
    pub(crate) fn panic_full(&self) -> ! {
        self.view().fail();
        limits::panic_full(T::NAME, self.capacity(), self.view().tally().used);
    }
}

#[cfg(feature = "alloc")]
impl<T: Pooled, S> Default for SyncPool<T, S, Heap> {
    fn default() -> Self {
        Self::new()
    }
}

impl<T: Pooled, S, const N: usize, const W: usize> Default for SyncPool<T, S, Inline<N, W>> {
    fn default() -> Self {
        Self::new()
    }
}

/// Shows the [`Stats`] under the pool's name, not the objects.
impl<T: Pooled, S, B: Storage> fmt::Debug for SyncPool<T, S, B> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.stats().debug_as(T::NAME, f)
    }
}
