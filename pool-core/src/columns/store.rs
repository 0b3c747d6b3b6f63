//! Where a column pool keeps its rows, by its storage: a set of columns for each chunk of a heap
//! pool (`ColumnChunks`), an array for each field inside an inline pool (`InlineColumns`).

use super::fields::ColumnFields;
use super::rows::{RawRows, Rows, RowsMut};
#[cfg(feature = "alloc")]
use super::set::ColumnSet;
use super::{Columnar, token};
use crate::storage::geometry::Geometry;
use crate::{Heap, Inline, Storage};
use core::marker::PhantomData;
use core::ptr::NonNull;

/// A storage a column pool can keep its rows in: [`Heap`] (with the `alloc` feature) and
/// [`Inline`]. The third parameter of [`ColumnPool`](crate::ColumnPool).
pub trait ColumnStorage: Storage {
    /// The rows of a column pool of this storage.
    #[doc(hidden)]
    type Columns<F: ColumnFields>: ColumnStore<F>;
}

impl ColumnStorage for Heap {
    #[cfg(feature = "alloc")]
    type Columns<F: ColumnFields> = super::chunks::ColumnChunks<F>;
    // Without `alloc` a heap pool has no constructor; the type only has to exist, as the
    // default of `ColumnPool`'s third parameter.
    #[cfg(not(feature = "alloc"))]
    type Columns<F: ColumnFields> = InlineColumns<F, 0>;
}

impl<const N: usize, const W: usize> ColumnStorage for Inline<N, W> {
    type Columns<F: ColumnFields> = InlineColumns<F, N>;
}

/// The rows of a column pool, whatever keeps them.
#[doc(hidden)]
pub trait ColumnStore<F: ColumnFields>: Sized {
    /// Rows for a pool whose books have the chunks `chunks` (first index, length), each one
    /// blank.
    fn blank<P: Columnar<Fields = F>>(chunks: impl Iterator<Item = (usize, usize)>) -> Self;
    /// The row at `index`, if its chunk has rows.
    fn row(&self, index: usize) -> Option<F::Ref<'_>>;
    /// The row at `index`, mutably, if its chunk has rows.
    fn row_mut(&mut self, index: usize) -> Option<F::Mut<'_>>;
    /// The rows of every chunk, in the books' order of chunks.
    fn sets(&self) -> SetRows<'_, F>;
    /// The rows of every chunk, mutably, in the books' order of chunks.
    fn sets_mut(&mut self) -> SetRowsMut<'_, F>;
    /// Where a row's chunk and its index in it are, from the row's index.
    fn geometry(&self) -> Geometry;
    /// The rows of the chunk at place `at` (0 for the first, `1 + k` for the grown chunk at
    /// position `k`) as pointers, for a lender; `None` where there is no chunk.
    ///
    /// # Safety
    /// `this` points to the rows, which a lender borrows mutably: no reference to them lives
    /// but those its leases and lookups made of single rows (see `columns/lend.rs`).
    unsafe fn lent_rows(this: NonNull<Self>, at: usize) -> Option<RawRows<F>>;
}

/// The rows of each chunk of a column pool: the first chunk's, and the grown chunks' by their
/// position, which a walk finds from each of the books' chunks as lookups do (not by pairing
/// the books' chunks and the sets in order: a set left behind would pair with the wrong chunk).
/// The first apart, so that a walk takes it at once and holds no `Option` of it: the less state
/// a walk keeps, the more registers its caller's loop over a run has (holding more, `kernel6`
/// spilled its six pointers and took 1.3 x as long).
#[doc(hidden)]
pub struct SetRows<'a, F: ColumnFields> {
    pub(crate) first: Rows<'a, F>,
    pub(crate) grown: GrownRows<'a, F>,
}

impl<'a, F: ColumnFields> SetRows<'a, F> {
    pub(crate) fn new(
        first: Rows<'a, F>,
        geometry: Geometry,
        #[cfg(feature = "alloc")] sets: &'a [Option<ColumnSet<F>>],
    ) -> Self {
        Self {
            first,
            grown: GrownRows {
                geometry,
                #[cfg(feature = "alloc")]
                sets,
                fields: PhantomData,
            },
        }
    }
}

/// The rows of the grown chunks of a column pool, by position.
#[doc(hidden)]
pub struct GrownRows<'a, F: ColumnFields> {
    geometry: Geometry,
    #[cfg(feature = "alloc")]
    sets: &'a [Option<ColumnSet<F>>],
    fields: PhantomData<&'a F>,
}

/// The rows of the books' grown chunks, found by position, shared ([`GrownRows`]) or mutably
/// ([`GrownRowsMut`]).
pub(crate) trait GrownSets {
    type Rows;

    /// The rows of the books' grown chunk of `len` slots from `base`; chunks are asked for in
    /// the books' order.
    ///
    /// # Panics
    /// If the chunk has no rows of its length: every chunk of the books has its rows.
    fn rows(&mut self, base: usize, len: usize) -> Self::Rows;
}

impl<'a, F: ColumnFields> GrownSets for GrownRows<'a, F> {
    type Rows = Rows<'a, F>;

    fn rows(&mut self, base: usize, len: usize) -> Rows<'a, F> {
        let k = self.geometry.position(base).0;
        #[cfg(feature = "alloc")]
        if let Some(Some(set)) = self.sets.get(k)
            && set.len() == len
        {
            return Rows::all(set);
        }
        panic!("no rows for the chunk at position {k} ({len} slots)")
    }
}

/// The rows of each chunk of a column pool, mutably: see [`SetRows`].
#[doc(hidden)]
pub struct SetRowsMut<'a, F: ColumnFields> {
    pub(crate) first: RowsMut<'a, F>,
    pub(crate) grown: GrownRowsMut<'a, F>,
}

impl<'a, F: ColumnFields> SetRowsMut<'a, F> {
    pub(crate) fn new(
        first: RowsMut<'a, F>,
        geometry: Geometry,
        #[cfg(feature = "alloc")] sets: &'a mut [Option<ColumnSet<F>>],
    ) -> Self {
        Self {
            first,
            grown: GrownRowsMut {
                geometry,
                #[cfg(feature = "alloc")]
                passed: 0,
                #[cfg(feature = "alloc")]
                sets,
                fields: PhantomData,
            },
        }
    }
}

/// The rows of the grown chunks of a column pool, mutably, by position: each taken once, in
/// position order.
#[doc(hidden)]
pub struct GrownRowsMut<'a, F: ColumnFields> {
    geometry: Geometry,
    /// Positions before `sets[0]`, already taken or passed.
    #[cfg(feature = "alloc")]
    passed: usize,
    #[cfg(feature = "alloc")]
    sets: &'a mut [Option<ColumnSet<F>>],
    fields: PhantomData<&'a mut F>,
}

impl<'a, F: ColumnFields> GrownSets for GrownRowsMut<'a, F> {
    type Rows = RowsMut<'a, F>;

    fn rows(&mut self, base: usize, len: usize) -> RowsMut<'a, F> {
        let k = self.geometry.position(base).0;
        #[cfg(feature = "alloc")]
        if let Some(at) = k.checked_sub(self.passed)
            && at < self.sets.len()
        {
            let (upto, rest) = core::mem::take(&mut self.sets).split_at_mut(at + 1);
            self.sets = rest;
            self.passed = k + 1;
            if let Some(Some(set)) = upto.last_mut()
                && set.len() == len
            {
                return RowsMut::all(set);
            }
        }
        panic!("no rows for the chunk at position {k} ({len} slots)")
    }
}

/// The rows of an inline column pool: an array of `N` for each field, inside the pool, all
/// built when the pool is.
#[doc(hidden)]
pub struct InlineColumns<F: ColumnFields, const N: usize> {
    arrays: F::Arrays<N>,
}

impl<F: ColumnFields, const N: usize> InlineColumns<F, N> {
    /// Writes `N` blank rows at `this`, in place, a row at a time: no column passes through the
    /// stack (an inline pool may be larger than a thread's stack). If a blank row's code
    /// panics, the rows written before it are dropped, and `this` holds nothing.
    ///
    /// # Safety
    /// `this` is valid for writes and aligned; what it held is overwritten, not dropped.
    pub(crate) unsafe fn write_blank<P: Columnar<Fields = F>>(this: *mut Self) {
        // SAFETY: `this` is valid for writes (the caller's contract): the address of a field
        // makes no reference to it.
        let arrays = unsafe { &raw mut (*this).arrays };
        // SAFETY: the arrays' place is valid and aligned, inside `this`.
        let ptrs = unsafe { F::array_ptrs::<N>(arrays) };
        // SAFETY: the first `built` rows are written, and no one reaches them on an unwind.
        let mut built = scopeguard::guard(0, |built| unsafe { F::ptrs_drop(ptrs, built) });
        while *built < N {
            let row = P::blank(token());
            // SAFETY: the row is in every array, not written yet, and reached by no one else.
            unsafe { F::ptrs_write(ptrs, *built, row) };
            *built += 1;
        }
        scopeguard::ScopeGuard::into_inner(built);
    }
}

impl<F: ColumnFields, const N: usize> ColumnStore<F> for InlineColumns<F, N> {
    fn blank<P: Columnar<Fields = F>>(_: impl Iterator<Item = (usize, usize)>) -> Self {
        let mut columns = core::mem::MaybeUninit::uninit();
        // SAFETY: a local's place is valid for writes.
        unsafe { Self::write_blank::<P>(columns.as_mut_ptr()) };
        // SAFETY: `write_blank` wrote every row.
        unsafe { columns.as_ptr().read() }
    }

    #[inline]
    fn row(&self, index: usize) -> Option<F::Ref<'_>> {
        Rows::<F>::arrays::<N>(&self.arrays).row(index)
    }

    #[inline]
    fn row_mut(&mut self, index: usize) -> Option<F::Mut<'_>> {
        RowsMut::<F>::arrays::<N>(&mut self.arrays).into_row(index)
    }

    #[inline]
    fn sets(&self) -> SetRows<'_, F> {
        SetRows::new(
            Rows::<F>::arrays::<N>(&self.arrays),
            Geometry::new(N),
            #[cfg(feature = "alloc")]
            &[],
        )
    }

    #[inline]
    fn sets_mut(&mut self) -> SetRowsMut<'_, F> {
        SetRowsMut::new(
            RowsMut::<F>::arrays::<N>(&mut self.arrays),
            Geometry::new(N),
            #[cfg(feature = "alloc")]
            &mut [],
        )
    }

    fn geometry(&self) -> Geometry {
        Geometry::new(N)
    }

    unsafe fn lent_rows(this: NonNull<Self>, at: usize) -> Option<RawRows<F>> {
        if at != 0 {
            return None;
        }
        // SAFETY: `this` points to the store (the caller's contract): the address of a field
        // makes no reference to the rows, which the store holds.
        let arrays = unsafe { &raw mut (*this.as_ptr()).arrays };
        // SAFETY: as above, the arrays live.
        let ptrs = unsafe { F::array_ptrs::<N>(arrays) };
        Some(RawRows { ptrs, len: N })
    }
}
