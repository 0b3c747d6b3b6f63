//! A column pool's columns, a set of them for each chunk of the books: the first chunk's, and
//! one for each chunk a growing pool added, at the books' positions. Rows never move once
//! built, so a lender can grow the pool while its leases hold rows of the other chunks.

use super::Columnar;
use super::fields::ColumnFields;
use super::rows::{RawRows, Rows, RowsMut};
use super::set::ColumnSet;
use super::store::{ColumnStore, SetRows, SetRowsMut};
use super::token;
use crate::storage::geometry::{Geometry, POSITIONS};
use alloc::vec::Vec;
use core::ptr::NonNull;

#[doc(hidden)]
pub struct ColumnChunks<F: ColumnFields> {
    first: ColumnSet<F>,
    geometry: Geometry,
    /// The rows of the books' grown chunks, by position.
    grown: Vec<Option<ColumnSet<F>>>,
}

impl<F: ColumnFields> ColumnChunks<F> {
    /// The rows of a first chunk of `len` slots, each `blank()`.
    pub(crate) fn new(len: usize, blank: impl FnMut() -> F) -> Self {
        Self {
            first: ColumnSet::new(len, blank),
            geometry: Geometry::new(len),
            grown: Vec::new(),
        }
    }

    // Not inlined: a lookup in the first chunk then keeps its few registers, where the grown
    // chunks' arithmetic inlined beside it made `get` 1.6 x the default layout's (1.2 x out
    // of line).
    #[inline(never)]
    fn grown_row(&self, index: usize) -> Option<F::Ref<'_>> {
        let (k, local) = self.position(index)?;
        self.grown.get(k)?.as_ref()?.row(local)
    }

    #[inline(never)]
    fn grown_row_mut(&mut self, index: usize) -> Option<F::Mut<'_>> {
        let (k, local) = self.position(index)?;
        self.grown.get_mut(k)?.as_mut()?.row_mut(local)
    }

    /// The sets of the grown chunks, by position: for tests that leave one where the books
    /// have no chunk.
    #[cfg(test)]
    pub(crate) fn grown_mut(&mut self) -> &mut Vec<Option<ColumnSet<F>>> {
        &mut self.grown
    }

    /// The position of a grown chunk holding `index`, and the index within it.
    #[inline]
    fn position(&self, index: usize) -> Option<(usize, usize)> {
        (index >= self.geometry.start()).then(|| self.geometry.position(index))
    }

    /// The position of the grown chunk whose first slot is `base`; `None` for the first chunk.
    fn position_of(&self, base: usize) -> Option<usize> {
        self.position(base).map(|(k, _)| k)
    }

    /// Rows for exactly the books' chunks, given as `(base, len)`: a chunk's rows built of
    /// `blank()` where the books have a chunk and the columns not, and dropped where the books
    /// no longer have it. If `blank` panics, the chunks built before it stay.
    ///
    /// The rows to drop go first, each set taken out before it drops and the others dropped
    /// even if one's field panics as it drops (the panic goes on after): `shrink` leaves every
    /// chunk of the books with its own rows and no others, whatever a `Drop` does.
    pub(crate) fn fit(
        &mut self,
        chunks: impl IntoIterator<Item = (usize, usize)>,
        mut blank: impl FnMut() -> F,
    ) {
        let mut lens: [Option<usize>; POSITIONS] = [None; POSITIONS];
        for (base, len) in chunks {
            match self.position_of(base) {
                Some(k) => lens[k] = Some(len),
                None => debug_assert_eq!(len, self.first.len(), "the first chunk keeps its length"),
            }
        }
        let unfit = |set: &mut Option<ColumnSet<F>>, len: Option<usize>| {
            if set.as_ref().is_some_and(|set| Some(set.len()) != len) {
                drop(set.take());
            }
        };
        let mut sets = scopeguard::guard(self.grown.iter_mut().zip(lens), |rest| {
            rest.for_each(|(set, len)| unfit(set, len));
        });
        (&mut *sets).for_each(|(set, len)| unfit(set, len));
        drop(sets);
        for (k, len) in lens.into_iter().enumerate() {
            let Some(len) = len else { continue };
            if self.grown.len() <= k {
                self.grown.resize_with(k + 1, || None);
            }
            if self.grown[k].is_none() {
                self.grown[k] = Some(ColumnSet::new(len, &mut blank));
            }
        }
    }

    /// Installs the rows of the grown chunk whose first slot is `base`, for a lender that grows
    /// the pool. Moving the set moves no row.
    pub(crate) fn install(&mut self, base: usize, set: ColumnSet<F>) {
        let k = self
            .position_of(base)
            .expect("a grown chunk is past the first");
        if self.grown.len() <= k {
            self.grown.resize_with(k + 1, || None);
        }
        self.grown[k] = Some(set);
    }
}

impl<F: ColumnFields> ColumnStore<F> for ColumnChunks<F> {
    fn blank<P: Columnar<Fields = F>>(mut chunks: impl Iterator<Item = (usize, usize)>) -> Self {
        let first = chunks.next().map_or(0, |(_, len)| len);
        let mut columns = Self::new(first, || P::blank(token()));
        columns.fit(chunks, || P::blank(token()));
        columns
    }

    #[inline]
    fn row(&self, index: usize) -> Option<F::Ref<'_>> {
        match self.first.row(index) {
            Some(row) => Some(row),
            None => self.grown_row(index),
        }
    }

    #[inline]
    fn row_mut(&mut self, index: usize) -> Option<F::Mut<'_>> {
        if index < self.first.len() {
            return self.first.row_mut(index);
        }
        self.grown_row_mut(index)
    }

    #[inline]
    fn sets(&self) -> SetRows<'_, F> {
        SetRows::new(Rows::all(&self.first), self.geometry, &self.grown)
    }

    #[inline]
    fn sets_mut(&mut self) -> SetRowsMut<'_, F> {
        SetRowsMut::new(
            RowsMut::all(&mut self.first),
            self.geometry,
            &mut self.grown,
        )
    }

    fn geometry(&self) -> Geometry {
        self.geometry
    }

    unsafe fn lent_rows(this: NonNull<Self>, at: usize) -> Option<RawRows<F>> {
        // SAFETY: `this` points to the columns (the caller's contract); the reference covers
        // their headers alone, for this call: the rows are the vectors' allocations.
        let this = unsafe { &mut *this.as_ptr() };
        let set = match at.checked_sub(1) {
            None => &mut this.first,
            Some(k) => this.grown.get_mut(k)?.as_mut()?,
        };
        Some(set.lent_rows())
    }
}
