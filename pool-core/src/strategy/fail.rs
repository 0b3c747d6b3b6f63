use crate::{Handle, Lease, Lender, Pool, PoolFull, Pooled, Storage};

/// A full pool refuses: `create` returns [`PoolFull`] and changes nothing. The seed's "just
/// don't create": a particle burst that does not fit is simply smaller. The default, from
/// `#[pool(on_full = fail)]` or no `on_full` at all.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Fail;

impl<T: Pooled, B: Storage> Pool<T, Fail, B> {
    /// Takes a free slot, hands its blank object to `init`, and returns the object's handle; an
    /// error, changing nothing but [`Stats::failed`](crate::Stats::failed), when the pool is
    /// full. The same as [`try_create`](Pool::try_create).
    ///
    /// O(1), and it never allocates. If `init` panics, the slot is reset and stays free.
    ///
    /// ```
    /// # use pooling::Pooled;
    /// # #[derive(Pooled)]
    /// # #[pool(size = 1)]
    /// # struct Particle { frames_left: u32, x: f64 }
    /// let mut pool = ParticlePool::new();
    /// let p = pool.create(|p| p.frames_left = 30)?;
    /// assert_eq!(pool.get(p).unwrap().frames_left, 30);
    /// assert!(pool.create(|p| p.frames_left = 30).is_err()); // full
    /// # Ok::<(), pooling::PoolFull>(())
    /// ```
    ///
    /// # Errors
    /// [`PoolFull`] when every slot is in use; `init` is not called.
    #[doc(alias = "insert", alias = "push", alias = "spawn", alias = "alloc")]
    #[inline]
    pub fn create(&mut self, init: impl FnOnce(&mut T)) -> Result<Handle<T>, PoolFull> {
        self.try_create(init)
    }

    /// [`create`](Pool::create), with `init` seeing the handle the object will have. The same
    /// as [`try_create_with_handle`](Pool::try_create_with_handle).
    ///
    /// ```
    /// # use pooling::{Handle, Pooled};
    /// # #[derive(Pooled)]
    /// # #[pool(size = 4)]
    /// # struct Bullet { me: Option<Handle<Bullet>> }
    /// let mut bullets = BulletPool::new();
    /// let b = bullets.create_with_handle(|handle, bullet| bullet.me = Some(handle))?;
    /// assert_eq!(bullets[b].me, Some(b));
    /// # Ok::<(), pooling::PoolFull>(())
    /// ```
    ///
    /// # Errors
    /// [`PoolFull`] when every slot is in use; `init` is not called.
    #[doc(alias = "insert_with_key")]
    #[inline]
    pub fn create_with_handle(
        &mut self,
        init: impl FnOnce(Handle<T>, &mut T),
    ) -> Result<Handle<T>, PoolFull> {
        self.try_create_with_handle(init)
    }
}

impl<T: Pooled, B: Storage> Lender<'_, T, Fail, B> {
    /// Lends a blank object, set up by `init`; it comes back, reset, when the [`Lease`] drops.
    /// The same as [`try_acquire`](Lender::try_acquire).
    ///
    /// ```
    /// # use pooling::Pooled;
    /// # #[derive(Pooled)]
    /// # #[pool(size = 1)]
    /// # struct Scratch { points: Vec<u32> }
    /// let mut pool = ScratchPool::new();
    /// let pool = pool.lender();
    /// let lease = pool.acquire(|s| s.points.push(1))?;
    /// assert!(pool.acquire(|_| {}).is_err()); // the one slot is lent
    /// drop(lease);
    /// assert!(pool.acquire(|s| assert!(s.points.is_empty())).is_ok());
    /// # Ok::<(), pooling::PoolFull>(())
    /// ```
    ///
    /// # Errors
    /// [`PoolFull`] when no slot is free; `init` is not called.
    #[doc(
        alias = "get",
        alias = "Get",
        alias = "get_or_create",
        alias = "pull",
        alias = "take"
    )]
    #[inline]
    pub fn acquire(&self, init: impl FnOnce(&mut T)) -> Result<Lease<'_, T>, PoolFull> {
        self.try_acquire(init)
    }
}
