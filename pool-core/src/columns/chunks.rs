//! A column pool's columns, a set of them for each chunk of the books: the first chunk's, and
//! one for each chunk a growing pool added, at the books' positions. Rows never move once
//! built, so a lender can grow the pool while its leases hold rows of the other chunks.

use super::fields::{ColumnFields, ColumnSet, RawRows};
use crate::storage::heap::geometry::Geometry;
use alloc::vec::Vec;
use core::iter::{Chain, Flatten, Once};
use core::slice;

/// The sets of rows of a pool's chunks, in the books' order.
pub(crate) type Sets<'a, F> =
    Chain<Once<&'a ColumnSet<F>>, Flatten<slice::Iter<'a, Option<ColumnSet<F>>>>>;

/// The sets of rows of a pool's chunks, mutably, in the books' order.
pub(crate) type SetsMut<'a, F> =
    Chain<Once<&'a mut ColumnSet<F>>, Flatten<slice::IterMut<'a, Option<ColumnSet<F>>>>>;

pub(crate) struct ColumnChunks<F: ColumnFields> {
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

    /// The row at `index`, if its chunk has rows.
    #[inline]
    pub(crate) fn row(&self, index: usize) -> Option<F::Ref<'_>> {
        match self.first.row(index) {
            Some(row) => Some(row),
            None => self
                .grown_set(index)
                .and_then(|(set, local)| set.row(local)),
        }
    }

    /// The row at `index`, mutably, if its chunk has rows.
    #[inline]
    pub(crate) fn row_mut(&mut self, index: usize) -> Option<F::Mut<'_>> {
        if index < self.first.len() {
            return self.first.row_mut(index);
        }
        let (k, local) = self.position(index)?;
        self.grown.get_mut(k)?.as_mut()?.row_mut(local)
    }

    fn grown_set(&self, index: usize) -> Option<(&ColumnSet<F>, usize)> {
        let (k, local) = self.position(index)?;
        Some((self.grown.get(k)?.as_ref()?, local))
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

    /// The rows of every chunk, the first first and the grown ones in position order, as the
    /// books list their chunks.
    pub(crate) fn sets(&self) -> Sets<'_, F> {
        core::iter::once(&self.first).chain(self.grown.iter().flatten())
    }

    /// The rows of every chunk, mutably, in the books' order.
    pub(crate) fn sets_mut(&mut self) -> SetsMut<'_, F> {
        core::iter::once(&mut self.first).chain(self.grown.iter_mut().flatten())
    }

    /// Rows for exactly the books' chunks, given as `(base, len)`: a chunk's rows built of
    /// `blank()` where the books have a chunk and the columns not, and dropped where the books
    /// no longer have it. If `blank` panics, the chunks built before it stay.
    pub(crate) fn fit(
        &mut self,
        chunks: impl IntoIterator<Item = (usize, usize)>,
        mut blank: impl FnMut() -> F,
    ) {
        let mut kept = [false; crate::storage::heap::geometry::POSITIONS];
        for (base, len) in chunks {
            let Some(k) = self.position_of(base) else {
                debug_assert_eq!(len, self.first.len(), "the first chunk keeps its length");
                continue;
            };
            kept[k] = true;
            if self.grown.len() <= k {
                self.grown.resize_with(k + 1, || None);
            }
            if self.grown[k].as_ref().is_none_or(|set| set.len() != len) {
                self.grown[k] = Some(ColumnSet::new(len, &mut blank));
            }
        }
        for (k, set) in self.grown.iter_mut().enumerate() {
            if !kept[k] {
                *set = None;
            }
        }
    }

    /// The rows of each chunk as pointers, for a lender, each with its place (see
    /// [`place`](ColumnChunks::place)).
    pub(crate) fn raw(&mut self) -> impl Iterator<Item = (usize, RawRows<F>)> {
        let grown = (self.grown.iter_mut().enumerate())
            .filter_map(|(k, set)| Some((1 + k, set.as_mut()?.raw())));
        core::iter::once((0, self.first.raw())).chain(grown)
    }

    /// Installs the rows of the grown chunk whose first slot is `base`, for a lender that grows
    /// the pool; their pointers. Moving the set moves no row.
    pub(crate) fn install(&mut self, base: usize, mut set: ColumnSet<F>) -> RawRows<F> {
        let k = self
            .position_of(base)
            .expect("a grown chunk is past the first");
        if self.grown.len() <= k {
            self.grown.resize_with(k + 1, || None);
        }
        let raw = set.raw();
        self.grown[k] = Some(set);
        raw
    }

    pub(crate) fn geometry(&self) -> Geometry {
        self.geometry
    }
}

/// Where the chunk holding `index` is (0 for the first, `1 + k` for the grown chunk at position
/// `k`), and the index within it.
#[inline]
pub(crate) fn place(geometry: Geometry, index: usize) -> (usize, usize) {
    if index < geometry.start() {
        return (0, index);
    }
    let (k, local) = geometry.position(index);
    (1 + k, local)
}
