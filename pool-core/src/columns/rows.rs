//! Consecutive rows of a column pool: the start of each column and their one length, so that a
//! row is one bounds check however many fields it has, and a walk (`slot/walk.rs`) hands out
//! rows and runs of them as it does a chunk's objects; the same for a lender.

use super::fields::ColumnFields;
#[cfg(feature = "alloc")]
use super::set::ColumnSet;
use crate::slot::walk::Strip;
use core::marker::PhantomData;

/// The start of each column of a set of rows and their one length: what a lender keeps of a
/// chunk's columns, which it reaches through `&` while leases hold rows of them.
#[doc(hidden)]
pub struct RawRows<F: ColumnFields> {
    pub(crate) ptrs: F::Ptrs,
    pub(crate) len: usize,
}

impl<F: ColumnFields> Clone for RawRows<F> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<F: ColumnFields> Copy for RawRows<F> {}

/// Consecutive rows, shared: `len` rows from each of `ptrs`, every column at least that long.
pub(crate) struct Rows<'a, F: ColumnFields> {
    raw: RawRows<F>,
    rows: PhantomData<&'a F>,
}

/// Consecutive rows, mutably.
pub(crate) struct RowsMut<'a, F: ColumnFields> {
    raw: RawRows<F>,
    rows: PhantomData<&'a mut F>,
}

// SAFETY: the rows stand for a slice of each column, shared: `Send` when those slices are.
unsafe impl<'a, F: ColumnFields> Send for Rows<'a, F> where F::Slices<'a>: Send {}
// SAFETY: and mutably: `Send` when those slices are.
unsafe impl<'a, F: ColumnFields> Send for RowsMut<'a, F> where F::SlicesMut<'a>: Send {}

impl<'a, F: ColumnFields + 'a> Rows<'a, F> {
    /// Every row of `set`.
    #[cfg(feature = "alloc")]
    #[inline]
    pub(crate) fn all(set: &'a ColumnSet<F>) -> Self {
        Self::of(F::ptrs_of(set.slices()), set.len())
    }

    /// Every row of `arrays`.
    #[inline]
    pub(crate) fn arrays<const N: usize>(arrays: &'a F::Arrays<N>) -> Self {
        Self::of(F::ptrs_of(F::array_slices(arrays)), N)
    }

    /// The row at `index`, if there is one.
    #[inline]
    pub(crate) fn row(self, index: usize) -> Option<F::Ref<'a>> {
        // SAFETY: `index` is below the length, checked here.
        (index < self.raw.len).then(|| unsafe { self.one(index) })
    }
}

impl<'a, F: ColumnFields + 'a> RowsMut<'a, F> {
    /// Every row of `set`.
    #[cfg(feature = "alloc")]
    #[inline]
    pub(crate) fn all(set: &'a mut ColumnSet<F>) -> Self {
        let len = set.len();
        Self::of(F::ptrs(set.slices_mut()), len)
    }

    /// Every row of `arrays`.
    #[inline]
    pub(crate) fn arrays<const N: usize>(arrays: &'a mut F::Arrays<N>) -> Self {
        Self::of(F::ptrs(F::array_slices_mut(arrays)), N)
    }

    /// The row at `index`, if there is one.
    #[inline]
    pub(crate) fn into_row(self, index: usize) -> Option<F::Mut<'a>> {
        // SAFETY: `index` is below the length, checked here, and the rows are borrowed
        // mutably, whole: nothing else reaches the row.
        (index < self.raw.len).then(|| unsafe { self.one(index) })
    }
}

/// A strip of rows, `Copy` as a slice of each column is (the fields need not be): `$one` and
/// `$run` make a row and a run from the columns' pointers.
macro_rules! strip {
    ($rows:ident, $one:ident, $run:ident, $row:ident, $slices:ident) => {
        impl<F: ColumnFields> Clone for $rows<'_, F> {
            fn clone(&self) -> Self {
                *self
            }
        }

        impl<F: ColumnFields> Copy for $rows<'_, F> {}

        impl<F: ColumnFields> $rows<'_, F> {
            fn of(ptrs: F::Ptrs, len: usize) -> Self {
                Self {
                    raw: RawRows { ptrs, len },
                    rows: PhantomData,
                }
            }
        }

        impl<'a, F: ColumnFields + 'a> Strip<'a> for $rows<'a, F> {
            type One = F::$row<'a>;
            type Run = F::$slices<'a>;

            const COLUMNS: bool = true;

            #[inline]
            fn len(&self) -> usize {
                self.raw.len
            }

            #[inline]
            fn truncate(self, len: usize) -> Self {
                Self::of(self.raw.ptrs, len.min(self.raw.len))
            }

            #[inline]
            unsafe fn skip(self, at: usize) -> Self {
                // SAFETY: `at` is at most every column's length from the pointers (the
                // caller's contract).
                let ptrs = unsafe { F::ptrs_add(self.raw.ptrs, at) };
                Self::of(ptrs, self.raw.len - at)
            }

            #[inline]
            unsafe fn one(self, at: usize) -> F::$row<'a> {
                // SAFETY: `at` is below every column's length, and no other piece handed out
                // covers it if the rows are mutable (the caller's contract); the columns live
                // for `'a`, borrowed as the rows are.
                unsafe { F::$one(self.raw.ptrs, at) }
            }

            #[inline]
            unsafe fn run(self, start: usize, len: usize) -> F::$slices<'a> {
                // SAFETY: as `one`'s, for each row.
                unsafe { F::$run(self.raw.ptrs, start, len) }
            }
        }
    };
}

strip!(Rows, ptrs_row, ptrs_slices, Ref, Slices);
strip!(RowsMut, ptrs_row_mut, ptrs_slices_mut, Mut, SlicesMut);

#[cfg(all(test, feature = "alloc"))]
mod tests {
    use super::{ColumnSet, Rows, RowsMut, Strip};
    use crate::columns::fields::ColumnFields;
    use alloc::string::{String, ToString};
    use alloc::vec::Vec;

    type Row = (u32, (String, ()));

    fn row(n: u32) -> Row {
        (n, (n.to_string(), ()))
    }

    /// Every row as owned values, through `Rows::row`.
    fn read(set: &ColumnSet<Row>) -> Vec<(u32, String)> {
        let rows = Rows::all(set);
        (0..)
            .map_while(|i| rows.row(i))
            .map(|(n, (s, ()))| (*n, s.clone()))
            .collect()
    }

    #[test]
    fn a_set_keeps_every_column_one_length_and_reads_each_row_whole() {
        let mut next = 0;
        let mut set = ColumnSet::new(3, || {
            next += 1;
            row(next)
        });
        assert_eq!(
            read(&set),
            [(1, "1".into()), (2, "2".into()), (3, "3".into())]
        );
        assert!(set.row(3).is_none() && set.row_mut(3).is_none());
        let (n, (s, ())) = set.row_mut(1).unwrap();
        *n = 20;
        s.push('!');
        set.resize(1, || unreachable!());
        assert_eq!(read(&set), [(1, "1".into())]);
        set.resize(4, || row(9));
        assert_eq!(read(&set).len(), 4);
        assert_eq!(set.row(3).map(|(n, _)| *n), Some(9));
        let (n, (s, ())) = set.row(0).unwrap();
        assert_eq!((*n, s.as_str()), (1, "1"));
    }

    #[test]
    fn rows_split_at_one_point_and_cut_runs_in_bounds() {
        let mut set = ColumnSet::new(0, || row(0));
        let mut n = 0;
        set.resize(10, || {
            n += 1;
            row(n)
        });
        let (low, high) = Rows::all(&set).split_at(4);
        assert_eq!(low.row(3).map(|(n, _)| *n), Some(4));
        assert!(low.row(4).is_none());
        assert_eq!(high.row(0).map(|(n, _)| *n), Some(5));
        assert!(high.row(6).is_none());
        // SAFETY: rows 1 to 4 of the six.
        let (_, (strings, ())) = unsafe { high.run(1, 4) };
        assert_eq!(strings, ["6", "7", "8", "9"]);

        let (low, high) = RowsMut::all(&mut set).split_at(7);
        assert_eq!((low.len(), high.len()), (7, 3));
        for at in 0..low.len() {
            // SAFETY: each row below the length, once.
            let (n, _) = unsafe { low.one(at) };
            *n *= 10;
        }
        assert_eq!(read(&set)[6].0, 70);
        assert_eq!(read(&set)[7].0, 8);
    }

    #[test]
    #[should_panic(expected = "a split past the slots")]
    fn a_split_past_the_rows_panics() {
        let set = ColumnSet::new(2, || row(1));
        let _ = Rows::all(&set).split_at(3);
    }

    #[test]
    fn arrays_read_and_write_a_row_in_bounds_only() {
        let mut arrays: <Row as ColumnFields>::Arrays<3> =
            ([1, 2, 3], (["a".into(), "b".into(), "c".into()], ()));
        let (n, (s, ())) = RowsMut::<Row>::arrays::<3>(&mut arrays)
            .into_row(2)
            .unwrap();
        *n = 30;
        s.push('!');
        assert!(
            RowsMut::<Row>::arrays::<3>(&mut arrays)
                .into_row(3)
                .is_none()
        );
        let rows = Rows::<Row>::arrays::<3>(&arrays);
        let (n, (s, ())) = rows.row(2).unwrap();
        assert_eq!((*n, s.as_str()), (30, "c!"));
        assert!(rows.row(3).is_none());
    }
}
