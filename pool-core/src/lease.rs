use crate::ledger::Ledger;
use crate::slot::Slot;
use crate::storage::Place;
use crate::{Handle, Pooled};
use core::fmt;
use core::mem::{self, ManuallyDrop};
use core::ops::{Deref, DerefMut};

/// An object borrowed from a pool through `&Pool`, given back (reset, its slot freed) when the
/// lease drops, exactly as [`release`](crate::Pool::release) would.
///
/// Get one from [`acquire`](crate::Pool::acquire). It derefs to the object, mutably. Many leases
/// can be out at once; while any is, the borrow checker keeps the pool from being moved, dropped,
/// or used through `&mut` (`get_mut`, `iter_mut`, `retain`, `release_all`, ...), and no lease
/// outlives its pool. Iteration never yields a leased object. If the code holding a lease
/// panics, the lease still gives its object back while unwinding.
///
/// ```
/// use pooled::Pooled;
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
/// # Ok::<(), pooled::PoolFull>(())
/// ```
///
/// A lease is neither `Send` nor `Sync`, since the pool is not `Sync`.
pub struct Lease<'a, T: Pooled> {
    // The lease owns its slot exclusively: `acquire` took it off the free list and did not make
    // it live, so neither `get`, iteration, nor another `acquire` reaches it until the lease gives
    // it back. The chunk does not move while `&Pool` is borrowed.
    ledger: &'a Ledger,
    place: Place<'a, &'a Slot<T>>,
}

impl<'a, T: Pooled> Lease<'a, T> {
    pub(crate) fn new(ledger: &'a Ledger, place: Place<'a, &'a Slot<T>>) -> Self {
        ledger.lend();
        Self { ledger, place }
    }

    /// Hands the object over to handle management: it becomes live, reachable by the returned
    /// handle and by iteration, and stays until [`release`](crate::Pool::release) (or `retain`,
    /// `release_all`, eviction).
    pub fn into_handle(self) -> Handle<T> {
        let this = ManuallyDrop::new(self);
        this.ledger.leased.set(this.ledger.leased.get() - 1);
        this.ledger.occupy(&this.place)
    }
}

impl<T: Pooled> Deref for Lease<'_, T> {
    type Target = T;

    #[inline]
    fn deref(&self) -> &T {
        // SAFETY: the lease owns its slot (see the struct), and `&self` keeps `deref_mut` from
        // handing out a `&mut T` for the returned lifetime.
        unsafe { self.place.slot.value() }
    }
}

impl<T: Pooled> DerefMut for Lease<'_, T> {
    #[inline]
    fn deref_mut(&mut self) -> &mut T {
        // SAFETY: the lease owns its slot (see the struct), and `&mut self` makes this the only
        // reference it hands out for the returned lifetime.
        unsafe { self.place.slot.value_owned() }
    }
}

impl<T: Pooled> Drop for Lease<'_, T> {
    fn drop(&mut self) {
        let ledger = self.ledger;
        ledger.leased.set(ledger.leased.get() - 1);
        // A reset that panics leaves the object half reset: rather than free it so, make it live,
        // where iteration, `retain` or `release_all` can still reach and release it.
        let keep = KeepLive {
            ledger,
            place: &self.place,
        };
        // SAFETY: the lease owns its slot (see the struct) and is being dropped, so no reference
        // it handed out is still alive.
        unsafe { self.place.slot.value_owned() }.reset_at_release();
        mem::forget(keep);
        ledger.push_free(&self.place);
    }
}

/// Makes a lease's slot live if its reset unwinds.
struct KeepLive<'a, 'b, T> {
    ledger: &'a Ledger,
    place: &'a Place<'b, &'b Slot<T>>,
}

impl<T> Drop for KeepLive<'_, '_, T> {
    fn drop(&mut self) {
        self.ledger.occupy(self.place);
    }
}

impl<T: Pooled + fmt::Debug> fmt::Debug for Lease<'_, T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_tuple("Lease").field(&**self).finish()
    }
}
