//! What a pool does with one object at a time: create, get, release, and its size and stats.

use super::Pool;
use crate::limits;
use crate::storage::Storage;
use crate::{Handle, PoolFull, Pooled, StaleHandle, Stats};

impl<T: Pooled, S, B: Storage> Pool<T, S, B> {
    /// The largest capacity a pool can have: slot indices are 32-bit.
    pub const MAX_CAPACITY: usize = limits::MAX_CAPACITY;

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
        self.books().capacity()
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
    /// let pool = pool.lender();
    /// let _lease = pool.try_acquire(|_| {})?;
    /// assert_eq!(pool.len(), 1); // the lease is not counted
    /// assert_eq!(pool.stats().leased, 1);
    /// # Ok::<(), pooling::PoolFull>(())
    /// ```
    #[inline]
    #[doc(alias = "count_active", alias = "CountActive", alias = "count")]
    pub fn len(&self) -> usize {
        self.books().len()
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
        self.books().is_full()
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
        match self.books_mut().create(init) {
            Some(handle) => Ok(handle),
            None => Err(self.refuse()),
        }
    }

    /// Creates up to `count` objects, each set up by `init` with its number in the burst (0,
    /// 1, ...), in as many free slots as there are: a burst of particles, a wave of enemies.
    /// Returns how many it created. Like [`try_create`](Pool::try_create) in a loop it never
    /// evicts, grows or panics for a full pool (a burst cut short counts one refusal in
    /// [`Stats::failed`](crate::Stats::failed)); unlike it, it fetches the slots it is about to
    /// fill ahead of time and keeps the books once for the burst, so that filling slots
    /// scattered over a large pool waits for the memory system once, not once a slot.
    ///
    /// If `init` panics, the objects made before it are live, and the slot in hand is free,
    /// reset.
    ///
    /// ```
    /// # use pooling::Pooled;
    /// # #[derive(Pooled)]
    /// # #[pool(size = 250)]
    /// # struct Particle { x: f32, y: f32, vx: f32, vy: f32 }
    /// let mut pool = ParticlePool::new();
    /// let made = pool.create_many(200, |i, p| {
    ///     let angle = i as f32 * core::f32::consts::TAU / 200.0;
    ///     (p.vx, p.vy) = (angle.cos(), angle.sin());
    /// });
    /// assert_eq!((made, pool.len()), (200, 200));
    /// assert_eq!(pool.create_many(90, |_, _| {}), 50, "as many as there is room for");
    /// ```
    #[doc(alias = "extend", alias = "spawn_batch", alias = "insert_many")]
    #[inline]
    pub fn create_many(&mut self, count: usize, mut init: impl FnMut(usize, &mut T)) -> usize {
        self.create_many_with_handle(count, |i, _, object| init(i, object))
    }

    /// [`create_many`](Pool::create_many), with `init` seeing the handle each object will
    /// have, to file it elsewhere.
    ///
    /// ```
    /// # use pooling::{Handle, Pooled};
    /// # #[derive(Pooled)]
    /// # #[pool(size = 64)]
    /// # struct Enemy { wave: u32 }
    /// let mut enemies = EnemyPool::new();
    /// let mut wave = Vec::new();
    /// enemies.create_many_with_handle(10, |_, handle, enemy| {
    ///     enemy.wave = 1;
    ///     wave.push(handle);
    /// });
    /// assert!(wave.iter().all(|&h| enemies[h].wave == 1));
    /// ```
    #[inline]
    pub fn create_many_with_handle(
        &mut self,
        count: usize,
        init: impl FnMut(usize, Handle<T>, &mut T),
    ) -> usize {
        let made = self.books_mut().create_many(count, init);
        if made < count {
            self.books_mut().fail();
        }
        made
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
        self.books().get(handle)
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
        self.books_mut().get_mut(handle)
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
        self.books().contains(handle)
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
        self.books_mut().release(handle)
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
        self.books().stats()
    }

    /// Counts a refusal, and the error saying so.
    #[cold]
    pub(crate) fn refuse(&mut self) -> PoolFull {
        self.books_mut().fail();
        PoolFull::new(self.capacity())
    }

    /// Counts a refusal, and panics saying so.
    #[cold]
    #[track_caller]
    pub(crate) fn panic_full(&mut self) -> ! {
        self.books_mut().fail();
        limits::panic_full(T::NAME, self.capacity(), self.books().high_water());
    }
}

#[cfg(feature = "alloc")]
impl<T: Pooled, S, B: Storage> Pool<T, S, B> {
    /// Walks every slot, occupancy bit, free-list entry and count, and says what disagrees
    /// with what. For tests and fuzzers; O(capacity), and it allocates.
    ///
    /// # Errors
    /// The first inconsistency found, described.
    #[doc(hidden)]
    pub fn check_consistency(&self) -> Result<(), alloc::string::String> {
        self.books().check()
    }
}

#[cfg(test)]
impl<T: Pooled, S, B: Storage> Pool<T, S, B> {
    /// Sets the version of `handle`'s slot, counted from the pool's offset.
    pub(crate) fn force_version(&mut self, handle: Handle<T>, version: u32) {
        self.books_mut().force_version(handle, version);
    }

    /// The version that `force_version(handle, relative)` gives a slot: what a handle then
    /// holds.
    pub(crate) fn version_of(&self, relative: u32) -> u32 {
        self.books().version_of(relative)
    }
}
