//! Consecutive rows of a column pool as a slice of each column, all of one length, so that a
//! row is one bounds check however many fields it has; and the same rows as pointers, for a
//! lender.

use super::fields::ColumnFields;
#[cfg(feature = "alloc")]
use super::set::ColumnSet;

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

/// Slices of every column, all `len` long: consecutive rows.
#[doc(hidden)]
pub(crate) struct Rows<'a, F: ColumnFields + 'a> {
    slices: F::Slices<'a>,
    len: usize,
}

impl<'a, F: ColumnFields + 'a> Rows<'a, F> {
    /// Every row of `set`.
    #[cfg(feature = "alloc")]
    #[inline]
    pub(crate) fn all(set: &'a ColumnSet<F>) -> Self {
        Self {
            slices: set.slices(),
            len: set.len(),
        }
    }

    /// Every row of `arrays`.
    #[inline]
    pub(crate) fn arrays<const N: usize>(arrays: &'a F::Arrays<N>) -> Self {
        Self {
            slices: F::array_slices(arrays),
            len: N,
        }
    }

    /// The first `mid` rows, and the rest.
    ///
    /// # Panics
    /// If `mid` is past the last row.
    #[inline]
    pub(crate) fn split_at(self, mid: usize) -> (Self, Self) {
        assert!(mid <= self.len, "a split inside the rows");
        let (low, high) = F::split_at(self.slices, mid);
        (
            Self {
                slices: low,
                len: mid,
            },
            Self {
                slices: high,
                len: self.len - mid,
            },
        )
    }

    /// The row at `index`, if there is one.
    #[inline]
    pub(crate) fn row(&self, index: usize) -> Option<F::Ref<'a>> {
        if index >= self.len {
            return None;
        }
        // SAFETY: every slice is `len` long (`all` takes a set's columns, all its length;
        // `arrays` arrays all `N` long; `split_at` splits each at one point), and `index` is
        // below it.
        Some(unsafe { F::slice_row_unchecked(&self.slices, index) })
    }

    #[inline]
    pub(crate) fn into_slices(self) -> F::Slices<'a> {
        self.slices
    }
}

/// Mutable slices of every column, all `len` long: consecutive rows.
#[doc(hidden)]
pub(crate) struct RowsMut<'a, F: ColumnFields + 'a> {
    slices: F::SlicesMut<'a>,
    len: usize,
}

impl<'a, F: ColumnFields + 'a> RowsMut<'a, F> {
    /// Every row of `set`.
    #[cfg(feature = "alloc")]
    #[inline]
    pub(crate) fn all(set: &'a mut ColumnSet<F>) -> Self {
        let len = set.len();
        Self {
            slices: set.slices_mut(),
            len,
        }
    }

    /// Every row of `arrays`.
    #[inline]
    pub(crate) fn arrays<const N: usize>(arrays: &'a mut F::Arrays<N>) -> Self {
        Self {
            slices: F::array_slices_mut(arrays),
            len: N,
        }
    }

    /// The row at `index`, if there is one.
    #[inline]
    pub(crate) fn into_row(self, index: usize) -> Option<F::Mut<'a>> {
        if index >= self.len {
            return None;
        }
        // SAFETY: every slice is `len` long (as in `Rows::row`), and `index` is below it.
        Some(unsafe { F::slice_row_unchecked_mut(self.slices, index) })
    }

    #[cfg(any(test, feature = "rayon"))]
    #[inline]
    pub(crate) fn len(&self) -> usize {
        self.len
    }

    /// The first `mid` rows, and the rest.
    ///
    /// # Panics
    /// If `mid` is past the last row.
    #[inline]
    pub(crate) fn split_at(self, mid: usize) -> (Self, Self) {
        assert!(mid <= self.len, "a split inside the rows");
        let (low, high) = F::split_at_mut(self.slices, mid);
        (
            Self {
                slices: low,
                len: mid,
            },
            Self {
                slices: high,
                len: self.len - mid,
            },
        )
    }

    /// The first row, and the rest; `None` when there are no rows.
    #[inline]
    pub(crate) fn split_first(self) -> Option<(F::Mut<'a>, Self)> {
        let (row, rest) = F::split_first_mut(self.slices)?;
        Some((
            row,
            Self {
                slices: rest,
                len: self.len - 1,
            },
        ))
    }

    #[inline]
    pub(crate) fn into_slices(self) -> F::SlicesMut<'a> {
        self.slices
    }
}

#[cfg(all(test, feature = "alloc"))]
mod tests {
    use super::{ColumnSet, Rows, RowsMut};
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
    fn rows_split_at_one_point_and_stay_in_bounds() {
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
        let (_, (strings, ())) = high.into_slices();
        assert_eq!(strings.len(), 6);

        let (mut low, high) = RowsMut::all(&mut set).split_at(7);
        assert_eq!((low.len(), high.len()), (7, 3));
        let mut seen = Vec::new();
        while let Some(((n, (s, ())), rest)) = low.split_first() {
            *n *= 10;
            seen.push(s.clone());
            low = rest;
        }
        assert_eq!(seen.len(), 7);
        assert_eq!(read(&set)[6].0, 70);
        assert_eq!(read(&set)[7].0, 8);
    }

    #[test]
    #[should_panic(expected = "a split inside the rows")]
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
