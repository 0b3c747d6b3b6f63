//! A column pool lent out through `&`: the [`ColumnLender`] a pool gives one thread for leases,
//! as a [`Pool`](crate::Pool) gives a [`Lender`](crate::Lender).

use super::lease::ColumnLease;
use super::lend::{ColumnsView, ReadRows};
use super::store::ColumnStorage;
use super::{ColumnPool, Columnar, Row, object, slot};
use crate::pool::one_thread::{Beside, ThisThreadOnly};
use crate::{Fail, Handle, Heap, Lender, LenderIter, Panic, PoolFull, Stats};
use core::fmt;
use core::iter::FusedIterator;
use scopeguard::ScopeGuard;

/// A column pool lent out to one thread: any number of [`ColumnLease`]s at once, taken through
/// `&ColumnLender`, from [`ColumnPool::lender`]. It holds the pool's `&mut` for as long as it
/// lives, and reads the pool while leases are out: [`get`](ColumnLender::get),
/// [`iter`](ColumnLender::iter), [`stats`](ColumnLender::stats)... As a
/// [`Lender`](crate::Lender), it is neither `Send` nor `Sync` ([`ThisThreadOnly`]).
///
/// `acquire` does what the pool's strategy says when no slot is free: an error
/// (`on_full = fail`), a panic (`on_full = panic`), or a new chunk of slots and of each column
/// (`on_full = grow`), which moves no row a lease or a lookup holds.
///
/// ```
/// use pooling::Pooled;
///
/// #[derive(Pooled)]
/// #[pool(size = 2, on_full = grow, layout = columns)]
/// struct Request {
///     id: u32,
///     body: Vec<u8>,
/// }
///
/// let mut pool = RequestPool::new();
/// let requests = pool.lender();
/// let mut leases: Vec<_> = (0..5)
///     .map(|id| requests.acquire(|r| *r.id = id).unwrap())
///     .collect(); // grew twice, every lease still in hand
/// leases[0].row_mut().body.extend_from_slice(b"GET /");
/// let kept = leases.remove(0).into_handle();
/// drop(leases); // each reset and freed
/// assert_eq!(requests.get(kept).unwrap().body, b"GET /");
/// assert_eq!((requests.len(), requests.capacity()), (1, 8)); // 2, then 2 and 4 more
/// ```
pub struct ColumnLender<'a, P: Columnar, S = <P as Columnar>::Strategy, B: ColumnStorage = Heap> {
    books: Beside<Lender<'a, Row<P>, S, B>>,
    columns: Beside<LentColumns<'a, P, B>>,
    _thread: ThisThreadOnly,
}

/// A column pool's columns as its lender sees them.
type LentColumns<'a, P, B> = ColumnsView<
    'a,
    <P as Columnar>::Fields,
    <B as ColumnStorage>::Columns<<P as Columnar>::Fields>,
>;

impl<P: Columnar, S, B: ColumnStorage> ColumnPool<P, S, B> {
    /// Lends the pool to this thread: leases through `&`, many at once, each giving its row
    /// back, reset, when it drops. See [`ColumnLender`].
    ///
    /// ```
    /// # use pooling::Pooled;
    /// # #[derive(Pooled)]
    /// # #[pool(size = 4, layout = columns)]
    /// # struct Scratch { points: Vec<[f32; 3]> }
    /// let mut pool = ScratchPool::new();
    /// let pool = pool.lender();
    /// let mut visible = pool.acquire(|_| {})?;
    /// let mut path = pool.acquire(|_| {})?;
    /// visible.row_mut().points.push([1.0, 0.0, 2.0]);
    /// path.row_mut().points.extend_from_slice(visible.row().points);
    /// assert_eq!(pool.stats().leased, 2);
    /// # Ok::<(), pooling::PoolFull>(())
    /// ```
    #[doc(alias = "borrow", alias = "lend")]
    pub fn lender(&mut self) -> ColumnLender<'_, P, S, B> {
        ColumnLender {
            books: Beside(self.keys.lender()),
            columns: Beside(ColumnsView::new(&mut self.columns)),
            _thread: ThisThreadOnly::new(),
        }
    }
}

impl<P: Columnar, S, B: ColumnStorage> ColumnLender<'_, P, S, B> {
    /// Lends a blank row, set up by `init`, if a slot is free; it never panics or grows,
    /// whatever the strategy. If `init`, or the reset before it, panics, the row is reset and
    /// the slot goes back to the free list, nothing counted.
    ///
    /// ```
    /// # use pooling::Pooled;
    /// # #[derive(Pooled)]
    /// # #[pool(size = 1, layout = columns)]
    /// # struct Scratch { hits: u32 }
    /// let mut pool = ScratchPool::new();
    /// let pool = pool.lender();
    /// let lease = pool.try_acquire(|s| *s.hits = 3)?;
    /// assert_eq!(*lease.row().hits, 3);
    /// assert!(pool.try_acquire(|_| {}).is_err()); // its one slot is lent
    /// # Ok::<(), pooling::PoolFull>(())
    /// ```
    ///
    /// # Errors
    /// [`PoolFull`] when no slot is free; `init` is not called and nothing changes but
    /// [`Stats::failed`].
    #[inline]
    pub fn try_acquire(
        &self,
        init: impl FnOnce(P::Mut<'_>),
    ) -> Result<ColumnLease<'_, P>, PoolFull> {
        self.lend(|_| false, init)
            .ok_or_else(|| self.books.refuse())
    }

    /// Lends a row, calling `grow` first when no slot is free (storage that builds its slots
    /// on first use builds one as the books lend).
    #[inline]
    fn lend(
        &self,
        grow: impl FnOnce(&Self) -> bool,
        init: impl FnOnce(P::Mut<'_>),
    ) -> Option<ColumnLease<'_, P>> {
        let books = self.books.books();
        if !books.has_free() {
            grow(self);
        }
        let mut lent = None;
        let slot = books.lend_at(None, |index, _| {
            // SAFETY: the slot at `index` was just taken off the free list for this `init`,
            // and its lease gets this row, the only one made of it.
            let row = unsafe { self.columns.lent_row(index) };
            let mut row = scopeguard::guard(row, |mut row| {
                P::reset_at_release(P::row_mut(row.get_mut()));
            });
            let mut fields = P::row_mut(row.get_mut());
            P::reset_at_reuse(&mut fields);
            init(fields);
            lent = Some(ScopeGuard::into_inner(row));
        })?;
        Some(ColumnLease::new(slot, lent.expect("`init` ran")))
    }

    /// The fields of the live object `handle` names, or `None` once it has been released.
    /// Leased objects have no handle until [`into_handle`](ColumnLease::into_handle).
    ///
    /// ```
    /// # use pooling::Pooled;
    /// # #[derive(Pooled)]
    /// # #[pool(size = 4, layout = columns)]
    /// # struct Request { id: u32 }
    /// let mut pool = RequestPool::new();
    /// let old = pool.create(|r| *r.id = 1)?;
    /// let pool = pool.lender();
    /// let lease = pool.acquire(|r| *r.id = 2)?;
    /// assert_eq!(*pool.get(old).unwrap().id, 1); // read beside the lease
    /// assert_eq!(*lease.row().id, 2);
    /// # Ok::<(), pooling::PoolFull>(())
    /// ```
    #[inline]
    pub fn get(&self, handle: Handle<P>) -> Option<P::Ref<'_>> {
        self.books.get(slot(handle))?;
        // SAFETY: the books say the slot is live, and it stays live while the lender is
        // borrowed: only `&mut ColumnPool` releases.
        unsafe { self.columns.live_row(handle.index()) }.map(P::row)
    }

    /// Whether `handle` names a live object of the pool.
    #[inline]
    pub fn contains(&self, handle: Handle<P>) -> bool {
        self.books.contains(slot(handle))
    }

    /// The live objects' rows with their handles, in slot order; never a leased row. Leases
    /// may be taken, given back and turned into handles while it runs: it yields every object
    /// live when it started, and perhaps some made live since.
    ///
    /// ```
    /// # use pooling::Pooled;
    /// # #[derive(Pooled)]
    /// # #[pool(size = 8, layout = columns)]
    /// # struct Request { id: u32 }
    /// let mut pool = RequestPool::new();
    /// pool.create(|r| *r.id = 1)?;
    /// let pool = pool.lender();
    /// let _lease = pool.acquire(|r| *r.id = 2)?; // not live: not visited
    /// for (handle, request) in pool.iter() {
    ///     assert_eq!((handle.index(), *request.id), (0, 1));
    /// }
    /// # Ok::<(), pooling::PoolFull>(())
    /// ```
    pub fn iter(&self) -> ColumnLenderIter<'_, P> {
        ColumnLenderIter {
            slots: self.books.iter(),
            columns: self.columns.read(),
        }
    }

    /// The live objects' rows, in slot order; never a leased row.
    pub fn values(&self) -> ColumnLenderValues<'_, P> {
        ColumnLenderValues { iter: self.iter() }
    }

    /// The number of live objects; leased objects are counted apart, in [`Stats::leased`].
    #[inline]
    pub fn len(&self) -> usize {
        self.books.len()
    }

    /// Whether no object is live.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.books.is_empty()
    }

    /// Whether no slot is free, so that [`try_acquire`](ColumnLender::try_acquire) would fail.
    #[inline]
    pub fn is_full(&self) -> bool {
        self.books.is_full()
    }

    /// The number of slots, live, lent or free.
    #[inline]
    pub fn capacity(&self) -> usize {
        self.books.capacity()
    }

    /// Occupancy and traffic, as [`ColumnPool::stats`] counts them.
    pub fn stats(&self) -> Stats {
        self.books.stats()
    }
}

impl<P: Columnar, B: ColumnStorage> ColumnLender<'_, P, Fail, B> {
    /// Lends a blank row, set up by `init`: the same as
    /// [`try_acquire`](ColumnLender::try_acquire).
    ///
    /// # Errors
    /// [`PoolFull`] when no slot is free; `init` is not called.
    #[inline]
    pub fn acquire(&self, init: impl FnOnce(P::Mut<'_>)) -> Result<ColumnLease<'_, P>, PoolFull> {
        self.try_acquire(init)
    }
}

impl<P: Columnar, B: ColumnStorage> ColumnLender<'_, P, Panic, B> {
    /// Lends a blank row, set up by `init`.
    ///
    /// # Panics
    /// When no slot is free.
    #[inline]
    #[track_caller]
    pub fn acquire(&self, init: impl FnOnce(P::Mut<'_>)) -> ColumnLease<'_, P> {
        match self.lend(|_| false, init) {
            Some(lease) => lease,
            None => self.books.panic_full(),
        }
    }
}

#[cfg(feature = "alloc")]
impl<P: Columnar, const MAX: usize> ColumnLender<'_, P, crate::Grow<MAX>> {
    /// Lends a blank row, set up by `init`, adding a chunk of slots and of each column when
    /// none is free; rows already out stay where they are.
    ///
    /// # Errors
    /// [`PoolFull`] when no slot is free and the pool holds `MAX` slots; `init` is not called.
    #[inline]
    pub fn acquire(&self, init: impl FnOnce(P::Mut<'_>)) -> Result<ColumnLease<'_, P>, PoolFull> {
        let limit = crate::strategy::grow::limit::<MAX>(self.capacity());
        let grow = |this: &Self| {
            let columns = &this.columns;
            (this.books.books()).grow_with(limit, |base, len| {
                columns.grow(base, len, || P::blank(super::token()));
            })
        };
        self.lend(grow, init).ok_or_else(|| self.books.refuse())
    }
}

impl<'l, P: Columnar, S, B: ColumnStorage> IntoIterator for &'l ColumnLender<'_, P, S, B> {
    type Item = (Handle<P>, P::Ref<'l>);
    type IntoIter = ColumnLenderIter<'l, P>;

    fn into_iter(self) -> ColumnLenderIter<'l, P> {
        self.iter()
    }
}

/// Shows the [`Stats`] under the pool's name.
impl<P: Columnar, S, B: ColumnStorage> fmt::Debug for ColumnLender<'_, P, S, B> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.stats().debug_as(P::NAME, f)
    }
}

/// The live objects' rows with their handles, through a [`ColumnLender`]; see
/// [`ColumnLender::iter`].
pub struct ColumnLenderIter<'l, P: Columnar> {
    slots: LenderIter<'l, Row<P>>,
    columns: ReadRows<'l, P::Fields>,
}

impl<'l, P: Columnar> Iterator for ColumnLenderIter<'l, P> {
    type Item = (Handle<P>, P::Ref<'l>);

    #[inline]
    fn next(&mut self) -> Option<Self::Item> {
        let (handle, _) = self.slots.next()?;
        // SAFETY: the books' walk yields live slots only, which stay live while the lender is
        // borrowed.
        let row = unsafe { self.columns.live_row(handle.index()) };
        Some((
            object(handle),
            P::row(row.expect("a row for every live slot")),
        ))
    }
}

impl<P: Columnar> FusedIterator for ColumnLenderIter<'_, P> {}

/// The live objects' rows, through a [`ColumnLender`]; see [`ColumnLender::values`].
pub struct ColumnLenderValues<'l, P: Columnar> {
    iter: ColumnLenderIter<'l, P>,
}

impl<'l, P: Columnar> Iterator for ColumnLenderValues<'l, P> {
    type Item = P::Ref<'l>;

    #[inline]
    fn next(&mut self) -> Option<P::Ref<'l>> {
        self.iter.next().map(|(_, row)| row)
    }
}

impl<P: Columnar> FusedIterator for ColumnLenderValues<'_, P> {}
