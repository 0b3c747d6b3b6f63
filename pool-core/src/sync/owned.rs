use super::lease::Lent;
use super::pool::SyncPool;
use crate::{Handle, Heap, Pooled, Storage};
use alloc::sync::Arc;
use core::mem::ManuallyDrop;

/// An object borrowed from a [`SyncPool`] held in an [`Arc`]: a [`SyncLease`](crate::SyncLease)
/// that keeps its pool alive instead of borrowing it, so it is `'static` and can move into a
/// spawned task or thread. It derefs to the object, mutably, and gives it back, reset, when it
/// drops, whichever thread drops it.
///
/// Get one from `acquire_owned`, [`try_acquire_owned`](SyncPool::try_acquire_owned) or
/// `acquire_owned_async` (feature `async`). It is `Send` when `T` is, and `Sync` when `T` is.
///
/// ```
/// use pooling::Pooled;
/// use std::sync::Arc;
/// use std::thread;
///
/// #[derive(Pooled)]
/// #[pool(size = 2, sync)]
/// struct Buffer {
///     bytes: Vec<u8>,
/// }
///
/// let buffers = Arc::new(BufferPool::new());
/// let mut buffer = buffers.acquire_owned(|_| {})?;
/// buffer.bytes.extend_from_slice(b"hello");
/// // `thread::spawn` wants `'static`: the lease keeps the pool alive.
/// thread::spawn(move || assert_eq!(buffer.bytes.len(), 5)).join().unwrap();
/// assert_eq!(buffers.stats().leased, 0);
/// # Ok::<(), pooling::PoolFull>(())
/// ```
pub struct OwnedSyncLease<T: Pooled, S = <T as Pooled>::Strategy, B: Storage = Heap> {
    pool: Arc<SyncPool<T, S, B>>,
    lent: Lent<T>,
}

// SAFETY: as `SyncLease`: the lease reaches only its own object, which no one else reaches
// while it is out (so `T: Send` suffices to use and reset it on another thread), and the pool's
// atomics; it exposes no other object of the pool. Dropping the last `Arc` there drops the pool
// and its objects on that thread, which `T: Send` allows.
unsafe impl<T: Pooled + Send, S, B: Storage> Send for OwnedSyncLease<T, S, B> {}

// SAFETY: a shared lease gives only `&T`.
unsafe impl<T: Pooled + Sync, S, B: Storage> Sync for OwnedSyncLease<T, S, B> {}

impl<T: Pooled, S, B: Storage> OwnedSyncLease<T, S, B> {
    pub(crate) fn new(pool: Arc<SyncPool<T, S, B>>, lent: Lent<T>) -> Self {
        Self { pool, lent }
    }

    /// Hands the object over to handle management, as
    /// [`SyncLease::into_handle`](crate::SyncLease::into_handle): it becomes live, reachable by
    /// the returned handle, until it is released.
    ///
    /// ```
    /// # use pooling::Pooled;
    /// # use std::sync::Arc;
    /// # #[derive(Pooled)]
    /// # #[pool(size = 4, sync)]
    /// # struct Request { body: Vec<u8> }
    /// let pool = Arc::new(RequestPool::new());
    /// let mut lease = pool.acquire_owned(|r| r.body.push(1))?;
    /// let kept = lease.into_handle();
    /// assert_eq!(pool.get(kept).unwrap().body, [1]);
    /// # Ok::<(), pooling::PoolFull>(())
    /// ```
    pub fn into_handle(self) -> Handle<T> {
        // Not dropped: the object stays, now live.
        let mut this = ManuallyDrop::new(self);
        let this = &mut *this;
        let handle = this.lent.publish(this.pool.view());
        // SAFETY: `this` is never used or dropped after this read, so the `Arc` is moved out
        // once and dropped once.
        drop(unsafe { core::ptr::read(&raw const this.pool) });
        handle
    }
}

through_lent!("OwnedSyncLease", [S, B: Storage] OwnedSyncLease<T, S, B>);

impl<T: Pooled, S, B: Storage> Drop for OwnedSyncLease<T, S, B> {
    fn drop(&mut self) {
        self.lent.give_back(self.pool.view());
    }
}
