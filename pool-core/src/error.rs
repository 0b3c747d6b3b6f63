use crate::Handle;

/// [`create`](crate::Pool::create) found no free slot: every slot holds a live object (or has
/// been retired; see [`Stats::retired`](crate::Stats::retired)).
///
/// Nothing changed: the closure was not called and no object was touched. This is the seed's
/// "just don't create": a particle burst that does not fit is simply smaller. To tune the size,
/// read [`Stats::high_water`](crate::Stats::high_water) after a busy run.
///
/// ```
/// use pooling::{PoolFull, Pooled};
///
/// #[derive(Pooled)]
/// #[pool(size = 1)]
/// struct Boss {
///     hit_points: u32,
/// }
///
/// let mut pool = BossPool::new();
/// pool.create(|b| b.hit_points = 900).unwrap();
/// let error: PoolFull = pool.create(|b| b.hit_points = 900).unwrap_err();
/// assert_eq!(error.capacity(), 1);
/// assert_eq!(error.to_string(), "pool is full: none of its 1 slots is free");
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("pool is full: none of its {capacity} slots is free")]
pub struct PoolFull {
    capacity: usize,
}

impl PoolFull {
    pub(crate) const fn new(capacity: usize) -> Self {
        Self { capacity }
    }

    /// The capacity of the pool that was full.
    ///
    /// ```
    /// # use pooling::Pooled;
    /// # #[derive(Pooled)]
    /// # #[pool(size = 1)]
    /// # struct Bullet { damage: u32 }
    /// let mut pool = BulletPool::new();
    /// pool.create(|_| {})?;
    /// let full = pool.create(|_| {}).unwrap_err();
    /// assert_eq!(full.capacity(), 1);
    /// assert_eq!(full.to_string(), "pool is full: none of its 1 slots is free");
    /// # Ok::<(), pooling::PoolFull>(())
    /// ```
    pub const fn capacity(&self) -> usize {
        self.capacity
    }
}

/// [`release`](crate::Pool::release) was given a handle whose object is no longer live: it was
/// released before (perhaps its slot now holds another object), or the handle belongs to another
/// pool (see [`Handle`](crate::Handle#handles-from-another-pool) for what is guaranteed).
///
/// Nothing changed.
///
/// ```
/// use pooling::{Pooled, StaleHandle};
///
/// #[derive(Pooled)]
/// #[pool(size = 4)]
/// struct Bullet {
///     damage: u32,
/// }
///
/// let mut pool = BulletPool::new();
/// let bullet = pool.create(|b| b.damage = 3).unwrap();
/// pool.release(bullet).unwrap();
/// let error: StaleHandle = pool.release(bullet).unwrap_err();
/// assert_eq!(
///     error.to_string(),
///     "handle 0v1 does not name a live object: it was released, or it is from another pool"
/// );
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error(
    "handle {index}v{version} does not name a live object: it was released, or it is from another pool"
)]
pub struct StaleHandle {
    index: usize,
    version: u32,
}

impl StaleHandle {
    pub(crate) fn new<T>(handle: Handle<T>) -> Self {
        Self {
            index: handle.index(),
            version: handle.version().get(),
        }
    }

    /// The slot index of the stale handle.
    ///
    /// ```
    /// # use pooling::Pooled;
    /// # #[derive(Pooled)]
    /// # #[pool(size = 4)]
    /// # struct Bullet { damage: u32 }
    /// let mut pool = BulletPool::new();
    /// let bullet = pool.create(|_| {})?;
    /// pool.release(bullet).unwrap();
    /// let stale = pool.release(bullet).unwrap_err();
    /// assert_eq!((stale.index(), stale.version()), (bullet.index(), bullet.version().get()));
    /// # Ok::<(), pooling::PoolFull>(())
    /// ```
    pub const fn index(&self) -> usize {
        self.index
    }

    /// The version of the stale handle ([`Handle::version`](crate::Handle::version)).
    pub const fn version(&self) -> u32 {
        self.version
    }
}
