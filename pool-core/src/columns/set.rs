//! The columns of one chunk of a heap column pool: a vector for each field, all of one length.

use super::fields::ColumnFields;
use super::rows::{RawRows, Rows, RowsMut};

/// The columns of a column pool: every column `len` long, which is what makes a row one bounds
/// check.
pub(crate) struct ColumnSet<F: ColumnFields> {
    columns: F::Columns,
    len: usize,
}

impl<F: ColumnFields> ColumnSet<F> {
    /// `len` rows of `blank()`.
    pub(crate) fn new(len: usize, blank: impl FnMut() -> F) -> Self {
        let mut set = Self {
            columns: F::new_columns(),
            len: 0,
        };
        set.resize(len, blank);
        set
    }

    /// Adds rows of `blank()`, or drops rows from the end, to `len` rows. If `blank` panics,
    /// the rows added before it stay.
    pub(crate) fn resize(&mut self, len: usize, mut blank: impl FnMut() -> F) {
        if len < self.len {
            // Every column is `len` long after `truncate`, even if a dropped field panics.
            self.len = len;
            F::truncate(&mut self.columns, len);
        }
        // Each column one allocation of the rows it holds, as a heap pool's objects are.
        F::reserve_exact(&mut self.columns, len.saturating_sub(self.len));
        while self.len < len {
            F::push(&mut self.columns, blank());
            self.len += 1;
        }
    }

    #[inline]
    pub(crate) fn len(&self) -> usize {
        self.len
    }

    /// The row at `index`, if there is one.
    #[inline]
    pub(crate) fn row(&self, index: usize) -> Option<F::Ref<'_>> {
        Rows::all(self).row(index)
    }

    /// The row at `index`, mutably, if there is one.
    #[inline]
    pub(crate) fn row_mut(&mut self, index: usize) -> Option<F::Mut<'_>> {
        RowsMut::all(self).into_row(index)
    }

    /// A slice of each column, every one `len` long: kept by `new` and `resize`, the only code
    /// that changes the columns' lengths.
    #[inline]
    pub(crate) fn slices(&self) -> F::Slices<'_> {
        F::slices(&self.columns)
    }

    #[inline]
    pub(crate) fn slices_mut(&mut self) -> F::SlicesMut<'_> {
        F::slices_mut(&mut self.columns)
    }

    /// The start of each column and their length, for a lender: pointers made without a
    /// reference to any row.
    #[inline]
    pub(crate) fn lent_rows(&mut self) -> RawRows<F> {
        RawRows {
            ptrs: F::column_ptrs(&mut self.columns),
            len: self.len,
        }
    }
}

#[cfg(all(test, feature = "std"))]
mod tests {
    use super::ColumnSet;
    use core::cell::Cell;
    use std::panic::{AssertUnwindSafe, catch_unwind};

    std::thread_local! {
        static FAIL_DROP: Cell<bool> = const { Cell::new(false) };
    }

    /// Panics as it drops, once, when `FAIL_DROP` is set.
    struct Fuse;

    impl Drop for Fuse {
        fn drop(&mut self) {
            assert!(!FAIL_DROP.replace(false), "drop failed");
        }
    }

    #[test]
    fn a_drop_that_panics_as_a_set_is_cut_leaves_every_column_one_length() {
        let mut set = ColumnSet::<(Fuse, (u32, ()))>::new(6, || (Fuse, (7, ())));
        FAIL_DROP.set(true);
        let cut = catch_unwind(AssertUnwindSafe(|| set.resize(2, || unreachable!())));
        assert!(cut.is_err(), "the drop's panic reaches the caller");
        let (fuses, (numbers, ())) = set.slices();
        assert_eq!((set.len(), fuses.len(), numbers.len()), (2, 2, 2));
    }
}
