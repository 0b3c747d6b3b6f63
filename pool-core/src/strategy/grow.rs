#[cfg(feature = "alloc")]
use crate::{Handle, Lease, Lender, Pool, PoolFull, Pooled};

/// A full pool adds a chunk of slots, up to `MAX` slots in all
/// (`#[pool(on_full = grow, max = M)]`; no `max` is `usize::MAX`, capped at
/// [`Pool::MAX_CAPACITY`]).
///
/// The first chunk it adds is as large as the pool was built (rounded up to a power of two), and
/// each after that twice as large. Existing objects never move, so handles and references stay
/// valid; `shrink` gives back chunks with no object in use.
///
/// Only heap pools grow, with the `alloc` feature (on by default): `storage = inline` with
/// `on_full = grow` is a compile error.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Grow<const MAX: usize = { usize::MAX }>;

#[cfg(feature = "alloc")]
impl<T: Pooled, const MAX: usize> Pool<T, Grow<MAX>> {
    /// Takes a free slot, adding a chunk of slots when the pool is full, hands its blank object
    /// to `init`, and returns the object's handle; an error, changing nothing but
    /// [`Stats::failed`](crate::Stats::failed), when the pool holds `MAX` slots and all are in
    /// use. Growing is the one time a pool allocates after it is built.
    ///
    /// ```
    /// # use pooling::Pooled;
    /// # #[derive(Pooled)]
    /// # #[pool(size = 2, on_full = grow, max = 8)]
    /// # struct Enemy { health: u32 }
    /// let mut enemies = EnemyPool::new();
    /// let first = enemies.create(|e| e.health = 10)?;
    /// for _ in 0..7 {
    ///     enemies.create(|e| e.health = 10)?;
    /// }
    /// assert_eq!(enemies.capacity(), 8);
    /// assert!(enemies.create(|_| {}).is_err()); // at `max`
    /// assert_eq!(enemies.get(first).unwrap().health, 10); // never moved
    /// # Ok::<(), pooling::PoolFull>(())
    /// ```
    ///
    /// # Errors
    /// [`PoolFull`] when every slot is in use and the pool holds `MAX` slots; `init` is not
    /// called.
    #[doc(alias = "insert", alias = "push", alias = "spawn", alias = "alloc")]
    #[inline]
    pub fn create(&mut self, init: impl FnOnce(&mut T)) -> Result<Handle<T>, PoolFull> {
        self.create_with_handle(|_, object| init(object))
    }

    /// [`create`](Pool::create), with `init` seeing the handle the object will have.
    ///
    /// ```
    /// # use pooling::{Handle, Pooled};
    /// # #[derive(Pooled)]
    /// # #[pool(size = 1, on_full = grow)]
    /// # struct Enemy { me: Option<Handle<Enemy>> }
    /// let mut enemies = EnemyPool::new();
    /// for _ in 0..3 {
    ///     let e = enemies.create_with_handle(|handle, e| e.me = Some(handle))?;
    ///     assert_eq!(enemies[e].me, Some(e));
    /// }
    /// # Ok::<(), pooling::PoolFull>(())
    /// ```
    ///
    /// # Errors
    /// [`PoolFull`] when every slot is in use and the pool holds `MAX` slots; `init` is not
    /// called.
    #[doc(alias = "insert_with_key")]
    #[inline]
    pub fn create_with_handle(
        &mut self,
        init: impl FnOnce(Handle<T>, &mut T),
    ) -> Result<Handle<T>, PoolFull> {
        let limit = limit::<MAX>(self.capacity());
        if self.is_full() && !self.books_mut().grow(limit) {
            return Err(self.refuse());
        }
        self.try_create_with_handle(init)
    }

    /// Gives back the chunks the pool added that hold no object in use (live or lent), and
    /// returns how many slots it freed. The slots built up front always stay.
    ///
    /// Handles into a freed chunk stay stale for good: a chunk grown in its place later starts
    /// past its versions. A chunk with a retired slot, or with a slot lent to a lease that was
    /// forgotten (`mem::forget`), is kept.
    ///
    /// ```
    /// # use pooling::Pooled;
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
    /// # Ok::<(), pooling::StaleHandle>(())
    /// ```
    pub fn shrink(&mut self) -> usize {
        self.books_mut().shrink()
    }
}

#[cfg(feature = "alloc")]
impl<T: Pooled, const MAX: usize> Lender<'_, T, Grow<MAX>> {
    /// Lends a blank object, set up by `init`, adding a chunk of slots when the pool is full;
    /// it comes back, reset, when the [`Lease`] drops. An `acquire` from
    /// `init` counts the slot in hand as in use, so it grows the pool when that slot was the
    /// last.
    ///
    /// ```
    /// # use pooling::Pooled;
    /// # #[derive(Pooled)]
    /// # #[pool(size = 1, on_full = grow, max = 2)]
    /// # struct Buffer { bytes: Vec<u8> }
    /// let mut pool = BufferPool::new();
    /// let buffers = pool.lender();
    /// let a = buffers.acquire(|_| {})?;
    /// let b = buffers.acquire(|_| {})?; // grew
    /// assert_eq!(buffers.capacity(), 2);
    /// assert!(buffers.acquire(|_| {}).is_err()); // at `max`
    /// # drop((a, b));
    /// # Ok::<(), pooling::PoolFull>(())
    /// ```
    ///
    /// # Errors
    /// [`PoolFull`] when no slot is free and the pool holds `MAX` slots; `init` is not called.
    #[doc(
        alias = "get",
        alias = "Get",
        alias = "get_or_create",
        alias = "pull",
        alias = "take"
    )]
    #[inline]
    pub fn acquire(&self, init: impl FnOnce(&mut T)) -> Result<Lease<'_, T>, PoolFull> {
        match self.books().lend(Some(limit::<MAX>(self.capacity())), init) {
            Some(lease) => Ok(lease),
            None => Err(self.refuse()),
        }
    }
}

/// The most slots a pool of `capacity` slots may hold: `MAX`, or its capacity if built larger,
/// and never more than any pool holds.
#[cfg(feature = "alloc")]
pub(crate) fn limit<const MAX: usize>(capacity: usize) -> usize {
    MAX.max(capacity).min(crate::limits::MAX_CAPACITY)
}
