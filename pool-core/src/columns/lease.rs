use super::lend::LentRow;
use super::{Columnar, Row, object};
use crate::pool::one_thread::{Beside, ThisThreadOnly};
use crate::{Handle, Lease};
use core::fmt;
use scopeguard::ScopeGuard;

/// A row borrowed from a column pool through its [`ColumnLender`](crate::ColumnLender), given
/// back (its fields reset, its slot freed) when the lease drops, as a [`Lease`] gives back an
/// object.
///
/// Its fields are reached through [`row`](ColumnLease::row) and
/// [`row_mut`](ColumnLease::row_mut), the row views a [`ColumnPool`](crate::ColumnPool)'s `get`
/// and `get_mut` return (`ParticleRef`, `ParticleMut`). Many leases can be out at once; none
/// outlives its lender, and iteration never yields a leased row. If a field's reset panics as
/// the lease drops, the slot is retired rather than reused half reset. Like its lender, it
/// stays on its thread ([`ThisThreadOnly`](crate::ThisThreadOnly)).
///
/// ```
/// use pooling::Pooled;
///
/// #[derive(Pooled)]
/// #[pool(size = 4, layout = columns)]
/// struct Scratch {
///     hits: u32,
///     points: Vec<[f32; 3]>,
/// }
///
/// let mut pool = ScratchPool::new();
/// let scratch = pool.lender();
/// let mut a = scratch.acquire(|s| *s.hits = 1)?;
/// let mut b = scratch.acquire(|_| {})?; // a second lease at the same time
/// a.row_mut().points.push([1.0, 0.0, 0.0]);
/// b.row_mut().points.extend_from_slice(a.row().points);
/// assert_eq!((*a.row().hits, b.row().points.len()), (1, 1));
/// let kept = b.into_handle(); // live now, reachable by its handle
/// drop(a); // reset and free
/// assert_eq!(scratch.get(kept).unwrap().points.len(), 1);
/// assert_eq!((scratch.len(), scratch.stats().leased), (1, 0));
/// # Ok::<(), pooling::PoolFull>(())
/// ```
pub struct ColumnLease<'l, P: Columnar> {
    /// The books' lease of the slot; taken when the lease ends.
    slot: Beside<Option<Lease<'l, Row<P>>>>,
    row: Beside<LentRow<'l, P::Fields>>,
    _thread: ThisThreadOnly,
}

impl<'l, P: Columnar> ColumnLease<'l, P> {
    pub(crate) fn new(slot: Lease<'l, Row<P>>, row: LentRow<'l, P::Fields>) -> Self {
        Self {
            slot: Beside(Some(slot)),
            row: Beside(row),
            _thread: ThisThreadOnly::new(),
        }
    }

    /// The leased object's fields.
    #[inline]
    pub fn row(&self) -> P::Ref<'_> {
        P::row(self.row.get())
    }

    /// The leased object's fields, mutably.
    #[inline]
    pub fn row_mut(&mut self) -> P::Mut<'_> {
        P::row_mut(self.row.get_mut())
    }

    /// Hands the object over to handle management: it becomes live, reachable by the returned
    /// handle and by iteration, and stays until released through the pool.
    #[expect(
        clippy::missing_panics_doc,
        reason = "the slot is taken only here and in `drop`, each of which ends the lease"
    )]
    pub fn into_handle(mut self) -> Handle<P> {
        let slot = self
            .slot
            .take()
            .expect("a lease holds its slot until it ends");
        object(slot.into_handle())
    }
}

impl<P: Columnar> Drop for ColumnLease<'_, P> {
    fn drop(&mut self) {
        let Some(slot) = self.slot.take() else {
            return;
        };
        // A reset that panics leaves the row half reset: the slot is retired, as a `Lease`'s
        // is, so that no one sees the row again.
        let slot = scopeguard::guard(slot, Lease::retire);
        P::reset_at_release(P::row_mut(self.row.get_mut()));
        drop(ScopeGuard::into_inner(slot));
    }
}

/// Shows the lease's slot, not the fields (the row views have no `Debug`).
impl<P: Columnar> fmt::Debug for ColumnLease<'_, P> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let index = self.slot.as_ref().map(Lease::index);
        f.debug_struct("ColumnLease").field("slot", &index).finish()
    }
}
