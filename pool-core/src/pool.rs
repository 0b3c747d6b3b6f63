use crate::iter::{Iter, IterMut};
use crate::occupancy::Occupancy;
use crate::pooled::token;
use crate::slot::{NIL, Slot};
use crate::{Handle, PoolFull, Pooled, StaleHandle, Stats};
use alloc::boxed::Box;
use alloc::vec::Vec;
use core::cell::Cell;
use core::fmt;

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
/// A pool is [`Send`] when `T` is, and is not [`Sync`]: its bookkeeping lives in cells, so that
/// objects can one day be lent out through `&self`.
pub struct Pool<T> {
    // Invariants, kept by every method:
    // - a slot is live exactly when its bit is set in `occupancy`; `len` counts the live slots;
    // - the live slots, the free list from `free_head` and the `retired` slots partition `slots`;
    // - a live slot's generation is the one in the handle that `create` returned for it, and a
    //   slot moves to its next generation whenever it stops being live, so no handle ever
    //   matches a slot that is not live;
    // - a live object is mutated only through `&mut Pool`.
    slots: Box<[Slot<T>]>,
    occupancy: Occupancy,
    free_head: Cell<u32>,
    len: Cell<usize>,
    high_water: Cell<usize>,
    retired: Cell<usize>,
}

impl<T: Pooled> Pool<T> {
    /// The largest capacity a pool can have: slot indices are 32-bit.
    pub const MAX_CAPACITY: usize = NIL as usize;

    /// Builds a pool of `T::SIZE` blank objects (the `size` of `#[pool(size = N)]`).
    ///
    /// This is the one allocation the pool makes, besides a bitmask of one bit per slot.
    ///
    /// # Panics
    /// If `T::SIZE` exceeds [`MAX_CAPACITY`](Pool::MAX_CAPACITY).
    pub fn new() -> Self {
        Self::with_capacity(T::SIZE)
    }

    /// Builds a pool of `capacity` blank objects, for a scene that needs another size than
    /// `#[pool(size = N)]`.
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
        let mut slots = Vec::with_capacity(capacity);
        slots.extend((1..=capacity).map(|next| {
            #[expect(
                clippy::cast_possible_truncation,
                reason = "checked against MAX_CAPACITY"
            )]
            let next = if next == capacity { NIL } else { next as u32 };
            Slot::new(T::blank(token()), next)
        }));
        Self {
            slots: slots.into_boxed_slice(),
            occupancy: Occupancy::new(capacity),
            free_head: Cell::new(if capacity == 0 { NIL } else { 0 }),
            len: Cell::new(0),
            high_water: Cell::new(0),
            retired: Cell::new(0),
        }
    }

    /// Takes a free slot, hands its blank object to `init`, and returns the object's handle.
    ///
    /// O(1), and it never allocates. If `init` panics, the slot is reset and goes back to the
    /// free list.
    ///
    /// # Errors
    /// [`PoolFull`] when every slot is live; `init` is not called and nothing changes.
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
    #[inline]
    pub fn create(&mut self, init: impl FnOnce(&mut T)) -> Result<Handle<T>, PoolFull> {
        let Some(index) = self.pop_free() else {
            return Err(PoolFull::new(self.capacity()));
        };
        let mut filling = Filling {
            pool: self,
            index,
            done: false,
        };
        let value = filling.pool.slots[index].value_mut();
        value.reset_at_reuse();
        init(value);
        filling.done = true;
        Ok(filling.pool.occupy(index))
    }

    /// The object `handle` names, or `None` once it has been released.
    #[inline]
    pub fn get(&self, handle: Handle<T>) -> Option<&T> {
        let slot = self.slots.get(handle.index())?;
        if slot.matches(handle) {
            // SAFETY: the generation matches, so the slot is live (see the invariants on `Pool`),
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
        let slot = self.slots.get_mut(handle.index())?;
        if slot.matches(handle) {
            Some(slot.value_mut())
        } else {
            None
        }
    }

    /// Whether `handle` names a live object.
    #[inline]
    pub fn contains(&self, handle: Handle<T>) -> bool {
        self.slots
            .get(handle.index())
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
    /// # Errors
    /// [`StaleHandle`] when the object was already released, or the handle is from another
    /// pool; nothing changes.
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
    pub fn release(&mut self, handle: Handle<T>) -> Result<(), StaleHandle> {
        let index = handle.index();
        match self.slots.get_mut(index) {
            Some(slot) if slot.matches(handle) => slot.value_mut().reset_at_release(),
            _ => return Err(StaleHandle::new(handle)),
        }
        self.vacate(index);
        Ok(())
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
        Iter::new(&self.slots, self.occupancy.indices(), self.len())
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
        IterMut::new(&mut self.slots, self.occupancy.indices(), len)
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
        for index in self.occupancy.indices() {
            let value = self.slots[index].value_mut();
            if !keep(value) {
                value.reset_at_release();
                self.vacate(index);
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
        for index in self.occupancy.indices() {
            self.slots[index].value_mut().reset_at_release();
            self.vacate(index);
        }
    }
}

impl<T> Pool<T> {
    /// The number of slots, live or not.
    #[inline]
    pub fn capacity(&self) -> usize {
        self.slots.len()
    }

    /// The number of live objects.
    #[inline]
    pub fn len(&self) -> usize {
        self.len.get()
    }

    /// Whether no object is live.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Whether [`create`](Pool::create) would fail: no slot is free.
    #[inline]
    pub fn is_full(&self) -> bool {
        self.free_head.get() == NIL
    }

    /// Occupancy figures for sizing the pool; see [`Stats`].
    pub fn stats(&self) -> Stats {
        let retired = self.retired.get();
        Stats {
            capacity: self.capacity(),
            live: self.len(),
            free: self.capacity() - self.len() - retired,
            high_water: self.high_water.get(),
            retired,
        }
    }

    fn pop_free(&self) -> Option<usize> {
        let index = self.free_head.get();
        if index == NIL {
            return None;
        }
        let index = index as usize;
        self.free_head.set(self.slots[index].next_free());
        Some(index)
    }

    fn push_free(&self, index: usize) {
        self.slots[index].set_next_free(self.free_head.get());
        #[expect(clippy::cast_possible_truncation, reason = "indices fit in u32")]
        self.free_head.set(index as u32);
    }

    /// Makes a slot taken off the free list live.
    fn occupy(&self, index: usize) -> Handle<T> {
        self.occupancy.insert(index);
        let len = self.len.get() + 1;
        self.len.set(len);
        self.high_water.set(self.high_water.get().max(len));
        self.slots[index].handle(index)
    }

    /// Ends the life of a live slot whose object has been reset.
    fn vacate(&self, index: usize) {
        self.occupancy.remove(index);
        self.len.set(self.len.get() - 1);
        if self.slots[index].next_generation() {
            self.push_free(index);
        } else {
            self.retired.set(self.retired.get() + 1);
        }
    }

    #[cfg(test)]
    pub(crate) fn force_generation(&self, handle: Handle<T>, generation: u32) {
        self.slots[handle.index()].force_generation(generation);
    }
}

/// Puts a slot back on the free list if `init` unwinds while filling it.
struct Filling<'a, T: Pooled> {
    pool: &'a mut Pool<T>,
    index: usize,
    done: bool,
}

impl<T: Pooled> Drop for Filling<'_, T> {
    fn drop(&mut self) {
        if !self.done {
            self.pool.slots[self.index].value_mut().reset_at_release();
            self.pool.push_free(self.index);
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
        self.debug_as("Pool", f)
    }
}

impl<T> Pool<T> {
    pub(crate) fn debug_as(&self, name: &str, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let Stats {
            capacity,
            live,
            free,
            high_water,
            retired,
        } = self.stats();
        f.debug_struct(name)
            .field("capacity", &capacity)
            .field("live", &live)
            .field("free", &free)
            .field("high_water", &high_water)
            .field("retired", &retired)
            .finish()
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
