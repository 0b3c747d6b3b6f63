use super::primitives::ConstPtr;
use super::slots::SyncSlots;
use crate::Pooled;
use core::fmt;
use core::mem::ManuallyDrop;
use core::ops::Deref;

/// Shared access to a live object of a [`SyncPool`](crate::SyncPool), from
/// [`get`](crate::SyncPool::get): it derefs to the object.
///
/// While a guard is out, the object stays as it is even if another thread releases it: the
/// release makes the handle stale at once, and the reset and the slot's return to the pool
/// wait for the last guard to drop, which does them. Keep guards short-lived, as a lock guard.
///
/// A guard is `Send` when `T` is `Send` and `Sync` (the thread that drops it may reset the
/// object), and `Sync` when `T` is.
///
/// ```
/// use pooling::Pooled;
///
/// #[derive(Pooled)]
/// #[pool(size = 4, sync)]
/// struct Job {
///     id: u64,
///     payload: Vec<u8>,
/// }
///
/// let jobs = JobPool::new();
/// let job = jobs.create(|j| j.payload.extend_from_slice(b"abc"))?;
/// let guard = jobs.get(job).unwrap();
/// jobs.release(job).unwrap(); // stale at once...
/// assert!(jobs.get(job).is_none());
/// assert_eq!(guard.payload, b"abc"); // ...but the guard still reads the object
/// drop(guard); // the reset happens here
/// assert_eq!(jobs.stats().free, 4);
/// # Ok::<(), pooling::PoolFull>(())
/// ```
pub struct SyncGuard<'a, T: Pooled> {
    slots: SyncSlots<'a, T>,
    index: u32,
    /// Dropped by hand, before the guard counts itself out: under loom the pointer marks a
    /// read in progress, which must end before another thread may reset the object.
    value: ManuallyDrop<ConstPtr<T>>,
}

// SAFETY: a guard on another thread reads the object (so `T: Sync`) and, if it drops last after
// a release, resets it there (so `T: Send`); the rest is atomics.
unsafe impl<T: Pooled + Send + Sync> Send for SyncGuard<'_, T> {}

// SAFETY: a shared guard gives only `&T`.
unsafe impl<T: Pooled + Sync> Sync for SyncGuard<'_, T> {}

impl<'a, T: Pooled> SyncGuard<'a, T> {
    /// A guard over slot `index`, whose state word has already counted it in.
    pub(crate) fn new(slots: SyncSlots<'a, T>, index: u32, value: ConstPtr<T>) -> Self {
        Self {
            slots,
            index,
            value: ManuallyDrop::new(value),
        }
    }
}

impl<T: Pooled> Deref for SyncGuard<'_, T> {
    type Target = T;

    #[inline]
    fn deref(&self) -> &T {
        // SAFETY: the guard is counted in the slot's state word, so nothing writes the object
        // until it drops (see `SyncSlot`).
        unsafe { ConstPtr::deref(&self.value) }
    }
}

impl<T: Pooled> Drop for SyncGuard<'_, T> {
    #[inline]
    fn drop(&mut self) {
        // SAFETY: the pointer is not used after this.
        unsafe { ManuallyDrop::drop(&mut self.value) };
        if self.slots.drop_guard(self.index) {
            self.slots.reclaim(self.index);
        }
    }
}

impl<T: Pooled + fmt::Debug> fmt::Debug for SyncGuard<'_, T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_tuple("SyncGuard").field(&**self).finish()
    }
}
