use super::primitives::{self as cell, MutPtr};
use super::slots::SyncSlots;
use crate::{Handle, Pooled};
use core::mem::ManuallyDrop;
use scopeguard::ScopeGuard;

/// An object borrowed from a [`SyncPool`](crate::SyncPool) through `&SyncPool`, given back
/// (reset, its slot freed) when the lease drops, whichever thread drops it.
///
/// Get one from `acquire` or [`try_acquire`](crate::SyncPool::try_acquire). It derefs to the
/// object, mutably; no handle reaches it. A lease is `Send` when `T` is, so a worker can take a
/// buffer from the pool and hand it to another thread, and `Sync` when `T` is.
///
/// ```
/// use pooling::Pooled;
/// use std::thread;
///
/// #[derive(Pooled)]
/// #[pool(size = 2, sync)]
/// struct Buffer {
///     bytes: Vec<u8>,
/// }
///
/// let buffers = BufferPool::new();
/// let mut buffer = buffers.acquire(|_| {})?;
/// buffer.bytes.extend_from_slice(b"hello");
/// thread::scope(|s| {
///     s.spawn(move || assert_eq!(buffer.bytes.len(), 5)); // dropped, and given back, there
/// });
/// assert_eq!(buffers.stats().leased, 0);
/// # Ok::<(), pooling::PoolFull>(())
/// ```
///
/// A lease that is forgotten (`mem::forget`) keeps its object out of the pool for good, counted
/// in [`Stats::leased`](crate::Stats::leased). If the object's reset panics as the lease drops,
/// its slot is retired rather than reused half reset, counted in
/// [`Stats::retired`](crate::Stats::retired).
pub struct SyncLease<'a, T: Pooled> {
    slots: SyncSlots<'a, T>,
    lent: Lent<T>,
}

/// What a lease holds besides the way to its pool: the slot and a pointer to its object. Shared
/// by [`SyncLease`] and [`OwnedSyncLease`](crate::OwnedSyncLease), which differ only in how
/// they reach the pool's slots.
pub(crate) struct Lent<T> {
    index: u32,
    /// Dropped by hand, before the slot goes back or turns live: under loom the pointer marks
    /// a write in progress, which must end before another thread may reach the object.
    value: ManuallyDrop<MutPtr<T>>,
}

// SAFETY: a lease reaches only its own object, which no one else reaches while it is out (so
// `T: Send` suffices to use and reset it on another thread), and the pool's atomics.
unsafe impl<T: Pooled + Send> Send for SyncLease<'_, T> {}

// SAFETY: a shared lease gives only `&T`.
unsafe impl<T: Pooled + Sync> Sync for SyncLease<'_, T> {}

impl<T: Pooled> Lent<T> {
    /// Slot `index`, which the caller took off the free list and filled, now lent.
    pub(crate) fn new(slots: SyncSlots<'_, T>, index: u32, value: MutPtr<T>) -> Self {
        let slot = slots.owned(index);
        slot.life.lend();
        slot.counts.create();
        Self {
            index,
            value: ManuallyDrop::new(value),
        }
    }

    /// Makes the object live; the lease that held `self` must not drop.
    pub(crate) fn publish(&mut self, slots: SyncSlots<'_, T>) -> Handle<T> {
        // SAFETY: the pointer is not used after this: the caller forgets the lease.
        unsafe { ManuallyDrop::drop(&mut self.value) };
        slots.publish(self.index)
    }

    #[inline]
    pub(crate) fn get(&self) -> &T {
        // SAFETY: the lease owns its slot (see `SyncSlot`), and `&self` rules out its own `&mut T`.
        unsafe { cell::shared(&self.value) }
    }

    #[inline]
    pub(crate) fn get_mut(&mut self) -> &mut T {
        // SAFETY: the lease owns its slot (see `SyncSlot`), and `&mut self` makes this the only
        // reference to the object.
        unsafe { MutPtr::deref(&self.value) }
    }

    /// Resets the object and frees its slot: the lease that held `self` is dropping.
    pub(crate) fn give_back(&mut self, slots: SyncSlots<'_, T>) {
        let slot = slots.owned(self.index);
        slot.counts.release();
        let retire = scopeguard::guard((), |()| slot.life.retire());
        // SAFETY: the lease owns its slot (see `SyncSlot`), and is being dropped: no other
        // reference to the object exists.
        unsafe { MutPtr::deref(&self.value) }.reset_at_release();
        ScopeGuard::into_inner(retire);
        // SAFETY: the pointer is not used after this.
        unsafe { ManuallyDrop::drop(&mut self.value) };
        slots.give_back(self.index);
    }
}

impl<'a, T: Pooled> SyncLease<'a, T> {
    /// A lease of the slot `lent` holds, in `slots`.
    pub(crate) fn new(slots: SyncSlots<'a, T>, lent: Lent<T>) -> Self {
        Self { slots, lent }
    }

    /// Hands the object over to handle management: it becomes live, reachable by the returned
    /// handle from any thread, until it is released.
    ///
    /// ```
    /// # use pooling::Pooled;
    /// # #[derive(Pooled)]
    /// # #[pool(size = 4, sync)]
    /// # struct Request { body: Vec<u8> }
    /// let pool = RequestPool::new();
    /// let mut lease = pool.acquire(|_| {})?;
    /// lease.body.extend_from_slice(b"GET /");
    /// let kept = lease.into_handle();
    /// assert_eq!(pool.get(kept).unwrap().body, b"GET /");
    /// assert_eq!(pool.len(), 1);
    /// # Ok::<(), pooling::PoolFull>(())
    /// ```
    pub fn into_handle(self) -> Handle<T> {
        // Not dropped: the object stays, now live.
        let mut this = ManuallyDrop::new(self);
        let slots = this.slots;
        this.lent.publish(slots)
    }
}

through_lent!("SyncLease", [] SyncLease<'_, T>);

impl<T: Pooled> Drop for SyncLease<'_, T> {
    fn drop(&mut self) {
        self.lent.give_back(self.slots);
    }
}
