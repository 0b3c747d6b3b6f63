use crate::pool::books::lend::Ledger;
use crate::pool::one_thread::{Beside, ThisThreadOnly};
use crate::slot::state::Place;
use crate::storage::view::Taken;
use crate::{Handle, Pooled};
use core::fmt;
use core::mem::ManuallyDrop;
use core::ops::{Deref, DerefMut};
use scopeguard::ScopeGuard;

/// An object borrowed from a pool through its [`Lender`](crate::Lender), given back (reset, its
/// slot freed) when the lease drops, exactly as [`release`](crate::Pool::release) would.
///
/// Get one from `acquire` or [`try_acquire`](crate::Lender::try_acquire). It derefs to the
/// object, mutably. Many leases can be out at once; while any is, the borrow checker keeps the
/// lender from being dropped (and so the pool from being used through `&mut`), and no lease
/// outlives its lender. Iteration never yields a leased object. If the code holding a lease
/// panics, the lease still gives its object back while unwinding.
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
/// let mut pool = ScratchPool::new();
/// let scratch = pool.lender();
/// {
///     let mut a = scratch.acquire(|s| s.points.push([1.0, 0.0, 0.0]))?;
///     let b = scratch.acquire(|_| {})?; // a second lease at the same time
///     a.points.push([0.0, 1.0, 0.0]);
///     assert_eq!(a.points.len() + b.points.len(), 2);
///     assert_eq!(scratch.stats().leased, 2);
/// } // both go back here, reset
/// assert_eq!(scratch.stats().leased, 0);
///
/// let kept = scratch.acquire(|s| s.points.push([0.0; 3]))?.into_handle();
/// assert_eq!(scratch.get(kept).unwrap().points.len(), 1);
/// # Ok::<(), pooling::PoolFull>(())
/// ```
///
/// A lease is neither `Send` nor `Sync` ([`ThisThreadOnly`](crate::ThisThreadOnly)): it stays
/// on the thread of its lender. A lease that is
/// forgotten (`mem::forget`) keeps its object out of the pool for good, counted in
/// [`Stats::leased`](crate::Stats::leased): leaked, but never handed out again. If the object's
/// reset panics as the lease drops, its slot is retired rather than reused half reset, counted
/// in [`Stats::retired`](crate::Stats::retired), as a [`SyncPool`](crate::SyncPool)'s is.
pub struct Lease<'a, T: Pooled> {
    taken: Beside<Taken<'a, T>>,
    index: usize,
    place: Beside<Place<'a>>,
    ledger: Beside<&'a Ledger<'a>>,
    _thread: ThisThreadOnly,
}

impl<'a, T: Pooled> Lease<'a, T> {
    pub(crate) fn new(
        taken: Taken<'a, T>,
        index: usize,
        place: Place<'a>,
        ledger: &'a Ledger<'a>,
    ) -> Self {
        Self {
            taken: Beside(taken),
            index,
            place: Beside(place),
            ledger: Beside(ledger),
            _thread: ThisThreadOnly::new(),
        }
    }

    /// The index of the lent slot.
    pub(crate) fn index(&self) -> usize {
        self.index
    }

    /// Takes the lent slot out of use instead of giving it back, as a lease whose reset
    /// panicked does: for a lease whose caller resets what lives beside the object.
    pub(crate) fn retire(self) {
        let this = ManuallyDrop::new(self);
        this.ledger.retire(&this.place);
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
    /// let mut pool = RequestPool::new();
    /// let requests = pool.lender();
    /// let mut lease = requests.acquire(|_| {})?;
    /// lease.body.extend_from_slice(b"GET /");
    /// let kept = lease.into_handle(); // worth keeping after all
    /// assert_eq!(requests.get(kept).unwrap().body, b"GET /");
    /// assert_eq!(requests.len(), 1);
    /// # Ok::<(), pooling::PoolFull>(())
    /// ```
    pub fn into_handle(self) -> Handle<T> {
        // Not dropped: the object stays, now live. The lease's charge of it ends here.
        let this = ManuallyDrop::new(self);
        this.ledger.keep(this.index, &this.place)
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
        // A reset that panics leaves the object half reset: the slot is retired, as a sync
        // pool's is, so that no one sees the object again (no handle names a lease's object,
        // and made live it would be one nobody created, reached by iteration).
        let (place, ledger) = (&self.place, *self.ledger);
        let retire = scopeguard::guard((), |()| ledger.retire(place));
        self.taken.get_mut().reset_at_release();
        ScopeGuard::into_inner(retire);
        self.ledger.give_back(self.index, &self.place);
    }
}

impl<T: Pooled + fmt::Debug> fmt::Debug for Lease<'_, T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_tuple("Lease").field(&**self).finish()
    }
}
