use crate::iter::{Iter, IterMut, Values, ValuesMut};
use crate::lease::Lease;
use crate::ledger::{Ledger, bump};
use crate::pooled::blank;
use crate::slot::Slot;
use crate::slot::{INDEX_END, NIL};
use crate::storage::{Chunk, Place, Storage};
use crate::{Growth, Handle, Importance, PoolFull, Pooled, StaleHandle, Stats};
use core::fmt;
use core::mem;

/// A fixed number of `T`s, built up front in one allocation and handed out by [`Handle`].
///
/// `#[derive(Pooled)]` wraps this engine in a pool named for the struct (`ParticlePool` for
/// `Particle`), with the same methods; generic code can use `Pool<T>` directly.
///
/// Creating and releasing objects is O(1) and never allocates: free slots are threaded into a
/// list, and a slot's object is reset in place when released. Iteration visits live objects
/// only, skipping free slots 64 at a time.
///
/// ```
/// use pooled::Pooled;
///
/// #[derive(Pooled)]
/// #[pool(size = 256)]
/// struct Particle {
///     frames_left: u32,
///     x: f64,
///     y: f64,
/// }
///
/// let mut pool = ParticlePool::new();
/// let p = pool.create(|p| {
///     p.frames_left = 2;
///     p.x = 10.0;
/// })?;
/// assert_eq!(pool.get(p).map(|p| p.x), Some(10.0));
///
/// // Animate every particle; the ones whose time is up go back to the pool.
/// for _frame in 0..2 {
///     pool.retain(|p| {
///         p.frames_left -= 1;
///         p.frames_left > 0
///     });
/// }
/// assert!(pool.is_empty());
/// assert!(pool.get(p).is_none());
/// # Ok::<(), pooled::PoolFull>(())
/// ```
///
/// When every slot is live, [`create`](Pool::create) fails; the derive's `on_full` attribute
/// picks [`create_or_panic`](Pool::create_or_panic), [`create_evicting`](Pool::create_evicting)
/// or growth instead, and the generated pool's `create` calls it.
///
/// A pool is [`Send`] when `T` is, and is not [`Sync`]: its bookkeeping lives in cells, so that
/// objects can one day be lent out through `&self`.
pub struct Pool<T> {
    // Invariants, kept by every method:
    // - a slot is live exactly when its version is odd (`Slot::is_live`); a live slot's occupancy
    //   bit is set, and a released slot's bit may stay set until iteration or `retain` clears
    //   it; `ledger.len` counts live slots;
    // - the live slots, the free list from `ledger.free_head`, the slots lent to leases and the
    //   retired slots partition the slots of `storage`;
    // - a live slot's version is the one in the handle that `create` returned for it, and every
    //   handle carries an odd version, so no handle ever matches a slot that holds no live
    //   object (free, lent, or retired), from this pool or any other; a slot moves to its next
    //   version whenever it stops being live, and a chunk given back by `shrink` passes its
    //   highest version on to any chunk grown in its place;
    // - a live object is mutated only through `&mut Pool`.
    storage: Storage<T>,
    ledger: Ledger,
}

impl<T: Pooled> Pool<T> {
    /// The largest capacity a pool can have: slot indices are 32-bit.
    pub const MAX_CAPACITY: usize = INDEX_END;

    /// Builds a pool of `T::SIZE` blank objects (the `size` of `#[pool(size = N)]`), which grows
    /// as `#[pool(on_full = grow, max = M)]` says.
    ///
    /// This is the one allocation the pool makes until it grows, besides a bitmask of one bit
    /// per slot.
    ///
    /// # Panics
    /// If `T::SIZE` exceeds [`MAX_CAPACITY`](Pool::MAX_CAPACITY).
    pub fn new() -> Self {
        Self::with_capacity(T::SIZE)
    }

    /// Builds a pool of `capacity` blank objects, for a scene that needs another size than
    /// `#[pool(size = N)]`. A growing pool still grows up to `max`, or stays at `capacity` if
    /// that is larger, and [`shrink`](Pool::shrink) gives back what it grew beyond `capacity`.
    ///
    /// ```
    /// # use pooled::Pooled;
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
        let limit = match T::GROWTH {
            Growth::Fixed => capacity,
            Growth::UpTo(max) => max.min(Self::MAX_CAPACITY),
        };
        Self {
            storage: Storage::new(capacity, limit, blank::<T>),
            ledger: Ledger::new(if capacity == 0 { NIL } else { 0 }),
        }
    }

    /// Takes a free slot, hands its blank object to `init`, and returns the object's handle.
    ///
    /// O(1), and it never allocates, unless the pool grows (`#[pool(on_full = grow)]`): then
    /// it adds a chunk of slots, leaving every existing object where it is. If `init` panics,
    /// the slot is reset and goes back to the free list.
    ///
    /// ```
    /// # use pooled::Pooled;
    /// # #[derive(Pooled)]
    /// # #[pool(size = 1)]
    /// # struct Particle { frames_left: u32, x: f64 }
    /// let mut pool = ParticlePool::new();
    /// let p = pool.create(|p| p.frames_left = 30)?;
    /// assert_eq!(pool.get(p).unwrap().frames_left, 30);
    /// assert_eq!(pool.get(p).unwrap().x, 0.0); // what init did not set is blank
    ///
    /// assert!(pool.create(|p| p.frames_left = 30).is_err()); // full
    /// # Ok::<(), pooled::PoolFull>(())
    /// ```
    ///
    /// # Errors
    /// [`PoolFull`] when every slot is live and the pool cannot grow; `init` is not called and
    /// nothing changes but [`Stats::failed`].
    #[inline]
    pub fn create(&mut self, init: impl FnOnce(&mut T)) -> Result<Handle<T>, PoolFull> {
        match self.create_with(init) {
            Some(handle) => Ok(handle),
            None => Err(self.refuse()),
        }
    }

    /// Like [`create`](Pool::create), but panics when the pool is full: for pools sized so that
    /// they never fill (`#[pool(on_full = panic)]`). The message names the pool's capacity and
    /// high-water mark, to tune its size.
    ///
    /// ```should_panic
    /// # use pooled::Pooled;
    /// # #[derive(Pooled)]
    /// # #[pool(size = 1)]
    /// # struct Boss { health: u32 }
    /// let mut bosses = pooled::Pool::<Boss>::new();
    /// bosses.create_or_panic(|b| b.health = 900);
    /// bosses.create_or_panic(|b| b.health = 900); // panics: the pool is full
    /// ```
    ///
    /// # Panics
    /// When every slot is live and the pool cannot grow.
    #[inline]
    #[track_caller]
    pub fn create_or_panic(&mut self, init: impl FnOnce(&mut T)) -> Handle<T> {
        let name = format_args!("Pool<{}>", core::any::type_name::<T>());
        self.create_or_panic_named(&name, init)
    }

    #[inline]
    #[track_caller]
    pub(crate) fn create_or_panic_named(
        &mut self,
        name: &dyn fmt::Display,
        init: impl FnOnce(&mut T),
    ) -> Handle<T> {
        match self.create_with(init) {
            Some(handle) => handle,
            None => self.panic_full(name),
        }
    }

    /// Lends a blank object, set up by `init`, through `&self`: many leases can be out at once,
    /// and each gives its object back, reset, when it drops. See [`Lease`].
    ///
    /// It takes a slot as [`create`](Pool::create) does, growing a growing pool, but it never
    /// evicts: evicting resets a live object, which someone may be reading through `&self`.
    ///
    /// ```
    /// # use pooled::Pooled;
    /// # #[derive(Pooled)]
    /// # #[pool(size = 2)]
    /// # struct Scratch { points: Vec<[f32; 3]> }
    /// let pool = ScratchPool::new();
    /// let mut a = pool.acquire(|_| {})?;
    /// let mut b = pool.acquire(|_| {})?;
    /// a.points.push([1.0; 3]);
    /// b.points.extend_from_slice(&a.points);
    /// assert!(pool.acquire(|_| {}).is_err()); // both slots are lent
    /// drop(a);
    /// assert!(pool.acquire(|_| {}).is_ok());
    /// # Ok::<(), pooled::PoolFull>(())
    /// ```
    ///
    /// # Errors
    /// [`PoolFull`] when no slot is free and the pool cannot grow; `init` is not called and
    /// nothing changes but [`Stats::failed`].
    #[inline]
    pub fn acquire(&self, init: impl FnOnce(&mut T)) -> Result<Lease<'_, T>, PoolFull> {
        match self.take(init) {
            Some(place) => Ok(Lease::new(&self.ledger, place)),
            None => Err(self.refuse()),
        }
    }

    /// Like [`acquire`](Pool::acquire), but panics when no slot is free, as
    /// [`create_or_panic`](Pool::create_or_panic) does.
    ///
    /// # Panics
    /// When no slot is free and the pool cannot grow.
    #[inline]
    #[track_caller]
    pub fn acquire_or_panic(&self, init: impl FnOnce(&mut T)) -> Lease<'_, T> {
        let name = format_args!("Pool<{}>", core::any::type_name::<T>());
        self.acquire_or_panic_named(&name, init)
    }

    #[inline]
    #[track_caller]
    pub(crate) fn acquire_or_panic_named(
        &self,
        name: &dyn fmt::Display,
        init: impl FnOnce(&mut T),
    ) -> Lease<'_, T> {
        match self.take(init) {
            Some(place) => Lease::new(&self.ledger, place),
            None => self.panic_full(name),
        }
    }

    /// Like [`create`](Pool::create), but when the pool is full it releases the least important
    /// live object, as `importance` ranks them, and reuses its slot: the seed's sound pool,
    /// which cuts the quietest voice to play a new one (`#[pool(on_full = evict)]`).
    ///
    /// Choosing costs one pass over the live objects, only when the pool is full; of equally
    /// unimportant objects the one in the lowest slot goes. The evicted object is reset at once,
    /// letting its references go, and its handle becomes stale. Rank floats with
    /// [`TotalOrder`](crate::TotalOrder).
    ///
    /// ```
    /// use pooled::{Pooled, TotalOrder};
    ///
    /// #[derive(Pooled)]
    /// #[pool(size = 2)]
    /// struct Voice {
    ///     volume: f32,
    /// }
    ///
    /// let mut voices = pooled::Pool::<Voice>::new();
    /// let loud = voices.create(|v| v.volume = 0.9)?;
    /// let quiet = voices.create(|v| v.volume = 0.1)?;
    /// let new = voices.create_evicting(|v| v.volume = 0.5, |v| TotalOrder(v.volume));
    /// assert!(voices.contains(loud) && voices.contains(new));
    /// assert!(!voices.contains(quiet));
    /// # Ok::<(), pooled::PoolFull>(())
    /// ```
    ///
    /// # Panics
    /// When the pool is full and holds no live object to evict: a pool of capacity 0, or one
    /// whose every slot is retired.
    pub fn create_evicting<K: Importance>(
        &mut self,
        init: impl FnOnce(&mut T),
        mut importance: impl FnMut(&T) -> K,
    ) -> Handle<T> {
        while !self.ledger.has_free() && !self.grow() {
            let Some(victim) = self.least_important(&mut importance) else {
                panic!(
                    "Pool<{}> cannot evict: it is full but holds no live object",
                    core::any::type_name::<T>()
                );
            };
            self.remove(victim).expect("the victim was just found live");
            bump(&self.ledger.evicted);
        }
        self.create_with(init).expect("a slot was just freed")
    }

    /// The live object that [`create_evicting`](Pool::create_evicting) would evict if the pool
    /// were full now: the one `importance` ranks lowest, the lowest slot of equals. `None` when
    /// no object is live. One pass over the live objects.
    ///
    /// Look before creating, to fade out the voice that is about to be cut:
    ///
    /// ```
    /// # use pooled::Pooled;
    /// # #[derive(Pooled)]
    /// # #[pool(size = 2)]
    /// # struct Voice { volume: u32 }
    /// let mut voices = pooled::Pool::<Voice>::new();
    /// let quiet = voices.create(|v| v.volume = 1)?;
    /// voices.create(|v| v.volume = 5)?;
    /// assert_eq!(voices.least_important(|v| v.volume), Some(quiet));
    /// # Ok::<(), pooled::PoolFull>(())
    /// ```
    pub fn least_important<K: Importance>(
        &self,
        mut importance: impl FnMut(&T) -> K,
    ) -> Option<Handle<T>> {
        let (handle, _) = self.iter().min_by_key(|(_, object)| importance(object))?;
        Some(handle)
    }

    /// The object `handle` names, or `None` once it has been released, or if the handle is from
    /// another pool (see [`Handle`](crate::Handle#handles-from-another-pool)).
    #[inline]
    pub fn get(&self, handle: Handle<T>) -> Option<&T> {
        let slot = self.storage.slot(handle.index())?;
        if slot.matches(handle) {
            // SAFETY: the version matches, so the slot is live (see the invariants on `Pool`),
            // and a live object is mutated only through `&mut Pool`, which cannot exist while
            // `&self` is borrowed for the returned lifetime.
            Some(unsafe { slot.value() })
        } else {
            None
        }
    }

    /// The object `handle` names, mutably, or `None` once it has been released.
    ///
    /// ```
    /// # use pooled::Pooled;
    /// # #[derive(Pooled)]
    /// # #[pool(size = 4)]
    /// # struct Particle { x: f64 }
    /// let mut pool = ParticlePool::new();
    /// let p = pool.create(|_| {})?;
    /// if let Some(p) = pool.get_mut(p) {
    ///     p.x += 1.5;
    /// }
    /// assert_eq!(pool.get(p).unwrap().x, 1.5);
    /// # Ok::<(), pooled::PoolFull>(())
    /// ```
    #[inline]
    pub fn get_mut(&mut self, handle: Handle<T>) -> Option<&mut T> {
        let place = self.storage.place_mut(handle.index())?;
        if place.slot.matches(handle) {
            Some(place.slot.value_mut())
        } else {
            None
        }
    }

    /// Whether `handle` names a live object of this pool.
    #[inline]
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
    /// # use pooled::Pooled;
    /// # #[derive(Pooled)]
    /// # #[pool(size = 4)]
    /// # struct Particle { trail: Vec<(f64, f64)> }
    /// let mut pool = ParticlePool::new();
    /// let p = pool.create(|p| p.trail.push((1.0, 2.0)))?;
    /// assert!(pool.release(p).is_ok());
    /// assert!(pool.release(p).is_err()); // already released
    /// assert!(!pool.contains(p));
    /// # Ok::<(), pooled::PoolFull>(())
    /// ```
    ///
    /// # Errors
    /// [`StaleHandle`] when the object was already released, or the handle is from another
    /// pool (see [`Handle`](crate::Handle#handles-from-another-pool)); nothing changes.
    #[inline]
    pub fn release(&mut self, handle: Handle<T>) -> Result<(), StaleHandle> {
        self.remove(handle)
    }

    /// Live objects with their handles, in slot order.
    ///
    /// ```
    /// # use pooled::Pooled;
    /// # #[derive(Pooled)]
    /// # #[pool(size = 8)]
    /// # struct Particle { x: f64 }
    /// let mut pool = ParticlePool::new();
    /// for x in [1.0, 2.0, 3.0] {
    ///     pool.create(|p| p.x = x)?;
    /// }
    /// let sum: f64 = pool.iter().map(|(_, p)| p.x).sum();
    /// assert_eq!(sum, 6.0);
    /// # Ok::<(), pooled::PoolFull>(())
    /// ```
    #[inline]
    pub fn iter(&self) -> Iter<'_, T> {
        Iter::new(self.storage.chunks(), self.len())
    }

    /// Live objects with their handles, mutably, in slot order.
    ///
    /// ```
    /// # use pooled::Pooled;
    /// # #[derive(Pooled)]
    /// # #[pool(size = 8)]
    /// # struct Particle { x: f64, x_velocity: f64 }
    /// let mut pool = ParticlePool::new();
    /// let p = pool.create(|p| p.x_velocity = 0.5)?;
    /// for (_, p) in pool.iter_mut() {
    ///     p.x += p.x_velocity;
    /// }
    /// assert_eq!(pool.get(p).unwrap().x, 0.5);
    /// # Ok::<(), pooled::PoolFull>(())
    /// ```
    #[inline]
    pub fn iter_mut(&mut self) -> IterMut<'_, T> {
        let len = self.len();
        IterMut::new(self.storage.chunks_mut(), len)
    }

    /// Live objects without their handles, in slot order.
    ///
    /// ```
    /// # use pooled::Pooled;
    /// # #[derive(Pooled)]
    /// # #[pool(size = 8)]
    /// # struct Particle { x: f64 }
    /// let mut pool = ParticlePool::new();
    /// for x in [1.0, 2.0] {
    ///     pool.create(|p| p.x = x)?;
    /// }
    /// assert_eq!(pool.values().map(|p| p.x).sum::<f64>(), 3.0);
    /// # Ok::<(), pooled::PoolFull>(())
    /// ```
    #[inline]
    pub fn values(&self) -> Values<'_, T> {
        Values::new(self.iter())
    }

    /// Live objects without their handles, mutably, in slot order: the "animate everything"
    /// loop.
    ///
    /// ```
    /// # use pooled::Pooled;
    /// # #[derive(Pooled)]
    /// # #[pool(size = 8)]
    /// # struct Particle { x: f64, x_velocity: f64 }
    /// let mut pool = ParticlePool::new();
    /// let p = pool.create(|p| p.x_velocity = 2.0)?;
    /// for particle in pool.values_mut() {
    ///     particle.x += particle.x_velocity;
    /// }
    /// assert_eq!(pool.get(p).unwrap().x, 2.0);
    /// # Ok::<(), pooled::PoolFull>(())
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
    /// # use pooled::Pooled;
    /// # #[derive(Pooled)]
    /// # #[pool(size = 8)]
    /// # struct Particle { frames_left: u32 }
    /// let mut pool = ParticlePool::new();
    /// for frames in [1, 3] {
    ///     pool.create(|p| p.frames_left = frames)?;
    /// }
    /// pool.retain(|p| {
    ///     p.frames_left -= 1;
    ///     p.frames_left > 0
    /// });
    /// assert_eq!(pool.len(), 1);
    /// # Ok::<(), pooled::PoolFull>(())
    /// ```
    pub fn retain(&mut self, mut keep: impl FnMut(&mut T) -> bool) {
        let ledger = &self.ledger;
        let retired_at = self.storage.retired_at();
        for chunk in self.storage.chunks_mut() {
            let Chunk {
                base,
                slots,
                occupancy,
            } = chunk;
            for local in occupancy.indices() {
                let Some(place) = Chunk::split_place(*base, slots, occupancy, local) else {
                    continue;
                };
                if !place.slot.is_live() {
                    occupancy.remove(local);
                    continue;
                }
                let value = place.slot.value_mut();
                if !keep(value) {
                    value.reset_at_release();
                    ledger.vacate(&place.shared(), retired_at);
                    occupancy.remove(local);
                }
            }
        }
    }

    /// Releases every live object at once: the per-frame reset of a scratch pool. Every
    /// outstanding handle becomes stale.
    ///
    /// ```
    /// # use pooled::Pooled;
    /// # #[derive(Pooled)]
    /// # #[pool(size = 8)]
    /// # struct Contact { depth: f32 }
    /// let mut contacts = ContactPool::new();
    /// let c = contacts.create(|c| c.depth = 0.1)?;
    /// contacts.release_all(); // end of frame
    /// assert!(contacts.is_empty());
    /// assert!(contacts.get(c).is_none());
    /// # Ok::<(), pooled::PoolFull>(())
    /// ```
    pub fn release_all(&mut self) {
        self.retain(|_| false);
    }

    /// Gives back the chunks a growing pool added that hold no live object, and returns how
    /// many slots it freed. The slots built up front always stay.
    ///
    /// Handles into a freed chunk stay stale for good: a chunk grown in its place later starts
    /// past its versions. A chunk with a retired slot, or with a slot lent to a lease that was
    /// forgotten (`mem::forget`), is kept.
    ///
    /// ```
    /// # use pooled::Pooled;
    /// # #[derive(Pooled)]
    /// # #[pool(size = 2, on_full = grow, max = 8)]
    /// # struct Enemy { health: u32 }
    /// let mut enemies = EnemyPool::new();
    /// let wave: Vec<_> = (0..5).map(|_| enemies.create(|e| e.health = 10).unwrap()).collect();
    /// assert_eq!(enemies.capacity(), 8); // grew by a chunk of 2, then one of 4
    /// for enemy in wave {
    ///     enemies.release(enemy)?;
    /// }
    /// assert_eq!(enemies.shrink(), 6);
    /// assert_eq!(enemies.capacity(), 2);
    /// # Ok::<(), pooled::StaleHandle>(())
    /// ```
    pub fn shrink(&mut self) -> usize {
        self.storage.shrink(&self.ledger.free_head)
    }

    /// Creates an object in the slot at the head of the free list, or, when the list is empty,
    /// in a slot the pool grows: `None` when it cannot.
    #[inline]
    fn create_with(&mut self, init: impl FnOnce(&mut T)) -> Option<Handle<T>> {
        let head = self.ledger.free_head.get() as usize;
        let Some(place) = self.storage.place_mut(head) else {
            return self.create_grown(init);
        };
        // The slot stays on the free list until `init` returns, so that if it unwinds, resetting
        // what it wrote is all there is to undo.
        let next = place.slot.next_free();
        let mut filling = Refilling {
            slot: &mut *place.slot,
            done: false,
        };
        let value = filling.slot.value_mut();
        value.reset_at_reuse();
        init(value);
        filling.done = true;
        drop(filling);
        self.ledger.free_head.set(next);
        bump(&self.ledger.created);
        Some(self.ledger.occupy(&place.shared()))
    }

    #[cold]
    fn create_grown(&mut self, init: impl FnOnce(&mut T)) -> Option<Handle<T>> {
        let place = self.take(init)?;
        Some(self.ledger.occupy(&place))
    }

    /// Takes a free slot (growing the pool if it may), hands its blank object to `init`, and
    /// returns the slot, which the caller now owns: off the free list and not yet live. If
    /// `init` panics, the slot is reset and goes back to the free list.
    ///
    /// Through `&self`, for leases: `init` may call `acquire` again, so the slot leaves the free
    /// list before `init` runs.
    #[inline]
    fn take(&self, init: impl FnOnce(&mut T)) -> Option<Place<'_, &Slot<T>>> {
        let index = match self.pop_free() {
            Some(index) => index,
            None if self.grow() => self.pop_free()?,
            None => return None,
        };
        let place = self
            .storage
            .place(index)
            .expect("free-list indices are in the pool");
        let filling = Filling {
            ledger: &self.ledger,
            place: &place,
        };
        // SAFETY: the slot was just taken off the free list and is not live, so this function
        // owns it: nothing else reaches it until it is made live or lent, after `init`.
        let value = unsafe { place.slot.value_owned() };
        value.reset_at_reuse();
        init(value);
        mem::forget(filling);
        bump(&self.ledger.created);
        Some(place)
    }

    /// Adds a chunk of free slots if the pool grows and has not reached its limit. The chunk is
    /// built first and put at the head of the free list in one step afterwards: building it runs
    /// the blank objects' code, which may lend and give back objects of this pool meanwhile.
    #[cold]
    fn grow(&self) -> bool {
        let Some((first, last)) = self.storage.grow(blank::<T>) else {
            return false;
        };
        let last = self
            .storage
            .slot(last as usize)
            .expect("a grown chunk is in the pool");
        last.set_next_free(self.ledger.free_head.get());
        self.ledger.free_head.set(first);
        true
    }

    /// Resets a live object and frees its slot, counting neither a release nor an eviction.
    #[inline]
    fn remove(&mut self, handle: Handle<T>) -> Result<(), StaleHandle> {
        let retired_at = self.storage.retired_at();
        match self.storage.place_mut(handle.index()) {
            Some(place) if place.slot.matches(handle) => {
                place.slot.value_mut().reset_at_release();
                self.ledger.vacate(&place.shared(), retired_at);
                Ok(())
            }
            _ => Err(StaleHandle::new(handle)),
        }
    }

    #[cold]
    fn refuse(&self) -> PoolFull {
        bump(&self.ledger.failed);
        PoolFull::new(self.capacity())
    }

    #[cold]
    #[track_caller]
    fn panic_full(&self, name: &dyn fmt::Display) -> ! {
        bump(&self.ledger.failed);
        panic!(
            "{name} is full: all {} slots are live (high water {}); raise `#[pool(size = N)]` or release objects sooner",
            self.capacity(),
            self.ledger.high_water.get(),
        );
    }
}

impl<T> Pool<T> {
    /// The number of slots, live or not.
    #[inline]
    pub fn capacity(&self) -> usize {
        self.storage.capacity()
    }

    /// The number of live objects: those reachable by handle. Leased objects are counted apart,
    /// in [`Stats::leased`].
    #[inline]
    pub fn len(&self) -> usize {
        self.ledger.len.get()
    }

    /// Whether no object is live.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Whether no slot is free, so that [`create`](Pool::create) would fail (or, in a growing
    /// pool, grow).
    #[inline]
    pub fn is_full(&self) -> bool {
        !self.ledger.has_free()
    }

    /// Occupancy and traffic figures for sizing the pool; see [`Stats`].
    pub fn stats(&self) -> Stats {
        let ledger = &self.ledger;
        let retired = ledger.retired.get();
        Stats {
            capacity: self.capacity(),
            live: self.len(),
            free: self.capacity() - self.len() - ledger.leased.get() - retired,
            leased: ledger.leased.get(),
            high_water: ledger.high_water.get(),
            created: ledger.created.get(),
            released: ledger.created.get()
                - (self.len() + ledger.leased.get()) as u64
                - ledger.evicted.get(),
            failed: ledger.failed.get(),
            evicted: ledger.evicted.get(),
            chunks: self.storage.chunk_count(),
            retired,
        }
    }

    fn pop_free(&self) -> Option<usize> {
        let index = self.ledger.free_head.get();
        if index == NIL {
            return None;
        }
        let index = index as usize;
        let slot = self
            .storage
            .slot(index)
            .expect("free-list indices are in the pool");
        self.ledger.free_head.set(slot.next_free());
        Some(index)
    }

    /// Sets the version of `handle`'s slot, counted from the pool's offset.
    #[cfg(test)]
    pub(crate) fn force_version(&self, handle: Handle<T>, version: u32) {
        self.storage
            .slot(handle.index())
            .expect("a slot of this pool")
            .force_version(self.storage.retired_at().wrapping_add(version));
    }

    /// The version that `force_version(handle, version)` gives a slot: what a handle then holds.
    #[cfg(test)]
    pub(crate) fn version_of(&self, relative: u32) -> u32 {
        self.storage.retired_at().wrapping_add(relative)
    }
}

/// Puts a slot back on the free list, reset, if `init` unwinds while `take` fills it.
struct Filling<'a, 'b, T: Pooled> {
    ledger: &'a Ledger,
    place: &'a Place<'b, &'b Slot<T>>,
}

impl<T: Pooled> Drop for Filling<'_, '_, T> {
    fn drop(&mut self) {
        // SAFETY: `take` owns the slot, and `init`, which held the only reference to its object,
        // has unwound.
        unsafe { self.place.slot.value_owned() }.reset_at_release();
        self.ledger.push_free(self.place);
    }
}

/// Resets a slot that `create` fills in place, still on the free list, if `init` unwinds.
struct Refilling<'a, T: Pooled> {
    slot: &'a mut Slot<T>,
    done: bool,
}

impl<T: Pooled> Drop for Refilling<'_, T> {
    fn drop(&mut self) {
        if !self.done {
            self.slot.value_mut().reset_at_release();
        }
    }
}

impl<T: Pooled> Default for Pool<T> {
    fn default() -> Self {
        Self::new()
    }
}

/// Shows the [`Stats`], not the objects.
impl<T> fmt::Debug for Pool<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.stats().debug_as("Pool", f)
    }
}

impl<'a, T: Pooled> IntoIterator for &'a Pool<T> {
    type Item = (Handle<T>, &'a T);
    type IntoIter = Iter<'a, T>;

    fn into_iter(self) -> Iter<'a, T> {
        self.iter()
    }
}

impl<'a, T: Pooled> IntoIterator for &'a mut Pool<T> {
    type Item = (Handle<T>, &'a mut T);
    type IntoIter = IterMut<'a, T>;

    fn into_iter(self) -> IterMut<'a, T> {
        self.iter_mut()
    }
}
