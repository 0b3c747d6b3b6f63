use crate::pool::counts::Counts;
use crate::slot::Taken;
use crate::slot::free_list::FreeList;
use crate::slot::state::Place;
use crate::storage::lock::Lock;
use crate::{Handle, Pooled};
use core::fmt;
use core::mem::ManuallyDrop;
use core::ops::{Deref, DerefMut};
use scopeguard::ScopeGuard;

/// An object borrowed from a pool through `&Pool`, given back (reset, its slot freed) when the
/// lease drops, exactly as [`release`](crate::Pool::release) would.
///
/// Get one from `acquire` or [`try_acquire`](crate::Pool::try_acquire). It derefs to the object,
/// mutably. Many leases can be out at once; while any is, the borrow checker keeps the pool from
/// being moved, dropped, or used through `&mut` (`get_mut`, `iter_mut`, `retain`,
/// `release_all`, ...), and no lease outlives its pool. Iteration never yields a leased object.
/// If the code holding a lease panics, the lease still gives its object back while unwinding.
///
/// ```
/// use pooling::Pooled;
///
/// #[derive(Pooled)]
/// #[pool(size = 4)]
/// struct Scratch {
///     points: Vec<[f32; 3]>,
/// }
///
/// let pool = ScratchPool::new();
/// {
///     let mut a = pool.acquire(|s| s.points.push([1.0, 0.0, 0.0]))?;
///     let b = pool.acquire(|_| {})?; // a second lease at the same time
///     a.points.push([0.0, 1.0, 0.0]);
///     assert_eq!(a.points.len() + b.points.len(), 2);
///     assert_eq!(pool.stats().leased, 2);
/// } // both go back here, reset
/// assert_eq!(pool.stats().leased, 0);
///
/// let kept = pool.acquire(|s| s.points.push([0.0; 3]))?.into_handle();
/// assert_eq!(pool.get(kept).unwrap().points.len(), 1);
/// # Ok::<(), pooling::PoolFull>(())
/// ```
///
/// A lease is neither `Send` nor `Sync`: it stays on the thread that took it, though other
/// threads may take their own leases from the same pool (see [`Pool`](crate::Pool#sharing-a-pool-between-threads)).
/// A lease that is forgotten
/// (`mem::forget`) keeps its object out of the pool for good, counted in
/// [`Stats::leased`](crate::Stats::leased): leaked, but never handed out again.
pub struct Lease<'a, T: Pooled> {
    taken: Taken<'a, T>,
    index: usize,
    place: Place<'a, T>,
    free: &'a FreeList,
    counts: &'a Counts,
    lock: &'a Lock,
}

impl<'a, T: Pooled> Lease<'a, T> {
    pub(crate) fn new(
        taken: Taken<'a, T>,
        index: usize,
        place: Place<'a, T>,
        free: &'a FreeList,
        counts: &'a Counts,
        lock: &'a Lock,
    ) -> Self {
        Self {
            taken,
            index,
            place,
            free,
            counts,
            lock,
        }
    }

    /// Hands the object over to handle management: it becomes live, reachable by the returned
    /// handle and by iteration, and stays until [`release`](crate::Pool::release) (or `retain`,
    /// `release_all`, eviction).
    ///
    /// ```
    /// # use pooling::Pooled;
    /// # #[derive(Pooled)]
    /// # #[pool(size = 4)]
    /// # struct Request { body: Vec<u8> }
    /// let pool = RequestPool::new();
    /// let mut lease = pool.acquire(|_| {})?;
    /// lease.body.extend_from_slice(b"GET /");
    /// let kept = lease.into_handle(); // worth keeping after all
    /// assert_eq!(pool.get(kept).unwrap().body, b"GET /");
    /// assert_eq!(pool.len(), 1);
    /// # Ok::<(), pooling::PoolFull>(())
    /// ```
    pub fn into_handle(self) -> Handle<T> {
        // Not dropped: the object stays, now live.
        let this = ManuallyDrop::new(self);
        let _locked = this.lock.lock();
        this.place.make_live(this.index);
        this.counts.keep_lease();
        this.place.slot().handle(this.index)
    }
}

impl<T: Pooled> Deref for Lease<'_, T> {
    type Target = T;

    #[inline]
    fn deref(&self) -> &T {
        self.taken.get()
    }
}

impl<T: Pooled> DerefMut for Lease<'_, T> {
    #[inline]
    fn deref_mut(&mut self) -> &mut T {
        self.taken.get_mut()
    }
}

impl<T: Pooled> Drop for Lease<'_, T> {
    fn drop(&mut self) {
        // A reset that panics leaves the object half reset: rather than free it so, make it
        // live, where iteration, `retain` or `release_all` can still reach and release it. The
        // lease is not used after that.
        let (index, place, counts, lock) = (self.index, &self.place, self.counts, self.lock);
        let keep_live = scopeguard::guard((), |()| {
            let _locked = lock.lock();
            place.make_live(index);
            counts.keep_lease();
        });
        self.taken.get_mut().reset_at_release();
        ScopeGuard::into_inner(keep_live);
        let _locked = self.lock.lock();
        self.counts.return_lease();
        self.place.unlend(self.index, self.free);
    }
}

impl<T: Pooled + fmt::Debug> fmt::Debug for Lease<'_, T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_tuple("Lease").field(&**self).finish()
    }
}
