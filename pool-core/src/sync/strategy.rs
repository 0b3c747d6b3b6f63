//! The methods of a sync pool that differ by what a full pool does.

use super::lease::SyncLease;
#[cfg(feature = "alloc")]
use super::owned::OwnedSyncLease;
use super::pool::SyncPool;
use crate::{Fail, Handle, Panic, PoolFull, Pooled, Storage};
#[cfg(feature = "alloc")]
use alloc::sync::Arc;

impl<T: Pooled, B: Storage> SyncPool<T, Fail, B> {
    /// Takes a free slot, hands its blank object to `init`, and publishes the object to every
    /// thread; an error when the pool is full. The same as
    /// [`try_create`](SyncPool::try_create).
    ///
    /// ```
    /// # use pooling::Pooled;
    /// # #[derive(Pooled)]
    /// # #[pool(size = 1, sync)]
    /// # struct Job { id: u64 }
    /// let jobs = JobPool::new();
    /// let job = jobs.create(|j| j.id = 1)?;
    /// assert!(jobs.create(|_| {}).is_err()); // full
    /// # Ok::<(), pooling::PoolFull>(())
    /// ```
    ///
    /// # Errors
    /// [`PoolFull`] when every slot is in use; `init` is not called.
    #[inline]
    pub fn create(&self, init: impl FnOnce(&mut T)) -> Result<Handle<T>, PoolFull> {
        self.try_create(init)
    }

    /// [`create`](SyncPool::create), with `init` seeing the handle the object will have.
    ///
    /// # Errors
    /// [`PoolFull`] when every slot is in use; `init` is not called.
    #[inline]
    pub fn create_with_handle(
        &self,
        init: impl FnOnce(Handle<T>, &mut T),
    ) -> Result<Handle<T>, PoolFull> {
        self.try_create_with_handle(init)
    }

    /// Lends a blank object, set up by `init`; it comes back, reset, when the [`SyncLease`]
    /// drops. The same as [`try_acquire`](SyncPool::try_acquire).
    ///
    /// ```
    /// # use pooling::Pooled;
    /// # #[derive(Pooled)]
    /// # #[pool(size = 1, sync)]
    /// # struct Buffer { bytes: Vec<u8> }
    /// let buffers = BufferPool::new();
    /// let mut buffer = buffers.acquire(|_| {})?;
    /// buffer.bytes.push(1);
    /// assert!(buffers.acquire(|_| {}).is_err()); // the one slot is lent
    /// # Ok::<(), pooling::PoolFull>(())
    /// ```
    ///
    /// # Errors
    /// [`PoolFull`] when no slot is free; `init` is not called.
    #[inline]
    pub fn acquire(&self, init: impl FnOnce(&mut T)) -> Result<SyncLease<'_, T>, PoolFull> {
        self.try_acquire(init)
    }
    /// Lends a blank object, set up by `init`, through an [`Arc`]: the [`OwnedSyncLease`] is
    /// `'static`, for spawned tasks and threads. The same as
    /// [`try_acquire_owned`](SyncPool::try_acquire_owned).
    ///
    /// ```
    /// # use pooling::Pooled;
    /// # use std::sync::Arc;
    /// # #[derive(Pooled)]
    /// # #[pool(size = 1, sync)]
    /// # struct Buffer { bytes: Vec<u8> }
    /// let buffers = Arc::new(BufferPool::new());
    /// let buffer = buffers.acquire_owned(|b| b.bytes.push(1))?;
    /// assert!(buffers.acquire_owned(|_| {}).is_err()); // the one slot is lent
    /// # Ok::<(), pooling::PoolFull>(())
    /// ```
    ///
    /// # Errors
    /// [`PoolFull`] when no slot is free; `init` is not called.
    #[cfg(feature = "alloc")]
    #[inline]
    pub fn acquire_owned(
        self: &Arc<Self>,
        init: impl FnOnce(&mut T),
    ) -> Result<OwnedSyncLease<T, Fail, B>, PoolFull> {
        self.try_acquire_owned(init)
    }
}

impl<T: Pooled, B: Storage> SyncPool<T, Panic, B> {
    /// Takes a free slot, hands its blank object to `init`, and publishes the object to every
    /// thread.
    ///
    /// ```should_panic
    /// # use pooling::Pooled;
    /// # #[derive(Pooled)]
    /// # #[pool(size = 1, sync, on_full = panic)]
    /// # struct Job { id: u64 }
    /// let jobs = JobPool::new();
    /// let job = jobs.create(|j| j.id = 1); // a handle, not a `Result`
    /// jobs.create(|_| {}); // panics: "JobPool is full: ..."
    /// ```
    ///
    /// # Panics
    /// When every slot is in use.
    #[inline]
    #[track_caller]
    pub fn create(&self, init: impl FnOnce(&mut T)) -> Handle<T> {
        self.create_with_handle(|_, object| init(object))
    }

    /// [`create`](SyncPool::create), with `init` seeing the handle the object will have.
    ///
    /// # Panics
    /// When every slot is in use.
    #[inline]
    #[track_caller]
    pub fn create_with_handle(&self, init: impl FnOnce(Handle<T>, &mut T)) -> Handle<T> {
        match self.create_in_free_slot(init) {
            Some(handle) => handle,
            None => self.panic_full(),
        }
    }

    /// Lends a blank object, set up by `init`; it comes back, reset, when the [`SyncLease`]
    /// drops.
    ///
    /// # Panics
    /// When no slot is free.
    #[inline]
    #[track_caller]
    pub fn acquire(&self, init: impl FnOnce(&mut T)) -> SyncLease<'_, T> {
        match self.lend(init) {
            Some(lease) => lease,
            None => self.panic_full(),
        }
    }

    /// Lends a blank object, set up by `init`, through an [`Arc`]: the [`OwnedSyncLease`] is
    /// `'static`, for spawned tasks and threads.
    ///
    /// # Panics
    /// When no slot is free.
    #[cfg(feature = "alloc")]
    #[inline]
    #[track_caller]
    pub fn acquire_owned(
        self: &Arc<Self>,
        init: impl FnOnce(&mut T),
    ) -> OwnedSyncLease<T, Panic, B> {
        match self.lent(init) {
            Some(lent) => OwnedSyncLease::new(Arc::clone(self), lent),
            None => self.panic_full(),
        }
    }
}
