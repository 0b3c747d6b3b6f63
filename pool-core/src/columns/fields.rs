//! A column struct's fields as a list, `(A, (B, (C, ())))`, each kept in a column of its own,
//! and the columns of one pool: `ColumnSet`, whose columns all have its length, so that a row
//! is one bounds check however many fields it has.

use alloc::vec::Vec;
use core::ptr::NonNull;

mod sealed {
    pub trait Sealed {}
    impl Sealed for () {}
    impl<H, T: Sealed> Sealed for (H, T) {}
}

/// The fields of a column struct, as a list: `(A, (B, (C, ())))` for a struct of an `A`, a `B`
/// and a `C`. `#[derive(Pooled)]` names it for `layout = columns`; only this crate implements
/// it.
pub trait ColumnFields: Sized + sealed::Sealed {
    /// The number of fields.
    #[doc(hidden)]
    const LEN: usize;
    /// A column of each field: `(Vec<A>, (Vec<B>, ...))`.
    #[doc(hidden)]
    type Columns;
    /// A reference to each field of a row: `(&A, (&B, ...))`.
    type Ref<'a>
    where
        Self: 'a;
    /// A mutable reference to each field of a row.
    type Mut<'a>
    where
        Self: 'a;
    /// A slice of each column.
    type Slices<'a>
    where
        Self: 'a;
    /// A mutable slice of each column.
    type SlicesMut<'a>
    where
        Self: 'a;

    /// A pointer to the start of each column, for a lender's leases, which hold rows of a
    /// column mutably while lookups read others.
    #[doc(hidden)]
    type Ptrs: Copy;

    #[doc(hidden)]
    fn new_columns() -> Self::Columns;
    /// The start of each column, taken without a reference to any of its rows.
    #[doc(hidden)]
    fn ptrs(columns: &mut Self::Columns) -> Self::Ptrs;
    /// The row at `index` of the columns `ptrs` points to.
    ///
    /// # Safety
    /// `index` is below every column's length, every column lives and stays put for `'a`, and
    /// for `'a` no one writes to the row.
    #[doc(hidden)]
    unsafe fn ptrs_row<'a>(ptrs: Self::Ptrs, index: usize) -> Self::Ref<'a>
    where
        Self: 'a;
    /// The row at `index` of the columns `ptrs` points to, mutably.
    ///
    /// # Safety
    /// As [`ptrs_row`](ColumnFields::ptrs_row), and for `'a` no one else reaches the row.
    #[doc(hidden)]
    unsafe fn ptrs_row_mut<'a>(ptrs: Self::Ptrs, index: usize) -> Self::Mut<'a>
    where
        Self: 'a;
    #[doc(hidden)]
    fn reserve_exact(columns: &mut Self::Columns, additional: usize);
    #[doc(hidden)]
    fn push(columns: &mut Self::Columns, row: Self);
    #[doc(hidden)]
    fn truncate(columns: &mut Self::Columns, len: usize);
    /// Moves `value` into the row `row` refers to.
    #[doc(hidden)]
    fn write(row: Self::Mut<'_>, value: Self);
    /// The row at `index`.
    ///
    /// # Safety
    /// `index` is below every column's length.
    #[doc(hidden)]
    unsafe fn row_unchecked(columns: &Self::Columns, index: usize) -> Self::Ref<'_>;
    /// The row at `index`, mutably.
    ///
    /// # Safety
    /// `index` is below every column's length.
    #[doc(hidden)]
    unsafe fn row_unchecked_mut(columns: &mut Self::Columns, index: usize) -> Self::Mut<'_>;
    /// The row at `index` of `slices`.
    ///
    /// # Safety
    /// `index` is below every slice's length.
    #[doc(hidden)]
    unsafe fn slice_row_unchecked<'a>(slices: &Self::Slices<'a>, index: usize) -> Self::Ref<'a>
    where
        Self: 'a;
    #[doc(hidden)]
    fn slices(columns: &Self::Columns) -> Self::Slices<'_>;
    #[doc(hidden)]
    fn slices_mut(columns: &mut Self::Columns) -> Self::SlicesMut<'_>;
    #[doc(hidden)]
    fn split_at<'a>(slices: Self::Slices<'a>, mid: usize) -> (Self::Slices<'a>, Self::Slices<'a>)
    where
        Self: 'a;
    #[doc(hidden)]
    fn split_at_mut<'a>(
        slices: Self::SlicesMut<'a>,
        mid: usize,
    ) -> (Self::SlicesMut<'a>, Self::SlicesMut<'a>)
    where
        Self: 'a;
    #[doc(hidden)]
    fn split_first_mut<'a>(
        slices: Self::SlicesMut<'a>,
    ) -> Option<(Self::Mut<'a>, Self::SlicesMut<'a>)>
    where
        Self: 'a;
}

impl ColumnFields for () {
    const LEN: usize = 0;
    type Columns = ();
    type Ref<'a> = ();
    type Mut<'a> = ();
    type Slices<'a> = ();
    type SlicesMut<'a> = ();
    type Ptrs = ();

    fn new_columns() {}
    fn ptrs((): &mut ()) {}
    #[inline]
    unsafe fn ptrs_row<'a>((): (), _: usize)
    where
        Self: 'a,
    {
    }
    #[inline]
    unsafe fn ptrs_row_mut<'a>((): (), _: usize)
    where
        Self: 'a,
    {
    }
    fn reserve_exact((): &mut (), _: usize) {}
    fn push((): &mut (), (): ()) {}
    fn truncate((): &mut (), _: usize) {}
    fn write((): (), (): ()) {}
    #[inline]
    unsafe fn row_unchecked((): &(), _: usize) {}
    #[inline]
    unsafe fn row_unchecked_mut((): &mut (), _: usize) {}
    #[inline]
    unsafe fn slice_row_unchecked<'a>((): &(), _: usize)
    where
        Self: 'a,
    {
    }
    #[inline]
    fn slices((): &()) {}
    #[inline]
    fn slices_mut((): &mut ()) {}
    #[inline]
    fn split_at<'a>((): (), _: usize) -> ((), ())
    where
        Self: 'a,
    {
        ((), ())
    }
    #[inline]
    fn split_at_mut<'a>((): (), _: usize) -> ((), ())
    where
        Self: 'a,
    {
        ((), ())
    }
    #[inline]
    fn split_first_mut<'a>((): ()) -> Option<((), ())>
    where
        Self: 'a,
    {
        Some(((), ()))
    }
}

impl<H, T: ColumnFields> ColumnFields for (H, T) {
    const LEN: usize = 1 + T::LEN;
    type Columns = (Vec<H>, T::Columns);
    type Ref<'a>
        = (&'a H, T::Ref<'a>)
    where
        Self: 'a;
    type Mut<'a>
        = (&'a mut H, T::Mut<'a>)
    where
        Self: 'a;
    type Slices<'a>
        = (&'a [H], T::Slices<'a>)
    where
        Self: 'a;
    type SlicesMut<'a>
        = (&'a mut [H], T::SlicesMut<'a>)
    where
        Self: 'a;
    type Ptrs = (NonNull<H>, T::Ptrs);

    fn new_columns() -> Self::Columns {
        (Vec::new(), T::new_columns())
    }

    #[inline]
    fn ptrs((head, tail): &mut Self::Columns) -> Self::Ptrs {
        // `as_mut_ptr` makes no reference to the rows, so pointers taken from it stay good
        // while other rows are reached through them.
        let start = NonNull::new(head.as_mut_ptr()).expect("a vector's pointer is not null");
        (start, T::ptrs(tail))
    }

    #[inline]
    unsafe fn ptrs_row<'a>((head, tail): Self::Ptrs, index: usize) -> Self::Ref<'a>
    where
        Self: 'a,
    {
        // SAFETY: `index` is in this column (the caller's contract).
        let place = unsafe { head.add(index) };
        // SAFETY: the column lives and no one writes to the row for `'a` (the caller's
        // contract).
        let field = unsafe { place.as_ref() };
        // SAFETY: as above, for the other columns.
        (field, unsafe { T::ptrs_row(tail, index) })
    }

    #[inline]
    unsafe fn ptrs_row_mut<'a>((head, tail): Self::Ptrs, index: usize) -> Self::Mut<'a>
    where
        Self: 'a,
    {
        // SAFETY: `index` is in this column (the caller's contract).
        let mut place = unsafe { head.add(index) };
        // SAFETY: the column lives and no one else reaches the row for `'a` (the caller's
        // contract); the columns are distinct allocations.
        let field = unsafe { place.as_mut() };
        // SAFETY: as above, for the other columns.
        (field, unsafe { T::ptrs_row_mut(tail, index) })
    }

    fn reserve_exact((head, tail): &mut Self::Columns, additional: usize) {
        head.reserve_exact(additional);
        T::reserve_exact(tail, additional);
    }

    fn push((head, tail): &mut Self::Columns, (value, rest): Self) {
        head.push(value);
        T::push(tail, rest);
    }

    fn truncate((head, tail): &mut Self::Columns, len: usize) {
        head.truncate(len);
        T::truncate(tail, len);
    }

    fn write((field, rest): Self::Mut<'_>, (value, values): Self) {
        *field = value;
        T::write(rest, values);
    }

    #[inline]
    unsafe fn row_unchecked((head, tail): &Self::Columns, index: usize) -> Self::Ref<'_> {
        // SAFETY: `index` is below every column's length (the caller's contract), this one's
        // too.
        let field = unsafe { head.get_unchecked(index) };
        // SAFETY: as above, for the other columns.
        (field, unsafe { T::row_unchecked(tail, index) })
    }

    #[inline]
    unsafe fn row_unchecked_mut((head, tail): &mut Self::Columns, index: usize) -> Self::Mut<'_> {
        // SAFETY: `index` is below every column's length (the caller's contract), this one's
        // too; the columns are distinct vectors, so the references do not overlap.
        let field = unsafe { head.get_unchecked_mut(index) };
        // SAFETY: as above, for the other columns.
        (field, unsafe { T::row_unchecked_mut(tail, index) })
    }

    #[inline]
    unsafe fn slice_row_unchecked<'a>(
        (head, tail): &Self::Slices<'a>,
        index: usize,
    ) -> Self::Ref<'a>
    where
        Self: 'a,
    {
        // SAFETY: `index` is below every slice's length (the caller's contract).
        let field = unsafe { head.get_unchecked(index) };
        // SAFETY: as above, for the other slices.
        (field, unsafe { T::slice_row_unchecked(tail, index) })
    }

    #[inline]
    fn slices((head, tail): &Self::Columns) -> Self::Slices<'_> {
        (head, T::slices(tail))
    }

    #[inline]
    fn slices_mut((head, tail): &mut Self::Columns) -> Self::SlicesMut<'_> {
        (head, T::slices_mut(tail))
    }

    #[inline]
    fn split_at<'a>(
        (head, tail): Self::Slices<'a>,
        mid: usize,
    ) -> (Self::Slices<'a>, Self::Slices<'a>)
    where
        Self: 'a,
    {
        let (low, high) = head.split_at(mid);
        let (tail_low, tail_high) = T::split_at(tail, mid);
        ((low, tail_low), (high, tail_high))
    }

    #[inline]
    fn split_at_mut<'a>(
        (head, tail): Self::SlicesMut<'a>,
        mid: usize,
    ) -> (Self::SlicesMut<'a>, Self::SlicesMut<'a>)
    where
        Self: 'a,
    {
        let (low, high) = head.split_at_mut(mid);
        let (tail_low, tail_high) = T::split_at_mut(tail, mid);
        ((low, tail_low), (high, tail_high))
    }

    #[inline]
    fn split_first_mut<'a>(
        (head, tail): Self::SlicesMut<'a>,
    ) -> Option<(Self::Mut<'a>, Self::SlicesMut<'a>)>
    where
        Self: 'a,
    {
        let (first, rest) = head.split_first_mut()?;
        let (row, tail) = T::split_first_mut(tail)?;
        Some(((first, row), (rest, tail)))
    }
}

/// Fields every one of which is `Clone`: a row is cloned field by field.
pub trait CloneFields: ColumnFields {
    /// A copy of the row `row` refers to.
    #[doc(hidden)]
    fn clone_row(row: Self::Ref<'_>) -> Self;
}

impl CloneFields for () {
    fn clone_row((): ()) {}
}

impl<H: Clone, T: CloneFields> CloneFields for (H, T) {
    fn clone_row((field, rest): Self::Ref<'_>) -> Self {
        (field.clone(), T::clone_row(rest))
    }
}

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
            F::truncate(&mut self.columns, len);
            self.len = len;
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
        if index >= self.len {
            return None;
        }
        // SAFETY: every column is `len` long (kept by `new` and `resize`, the only code that
        // changes the columns' lengths), and `index` is below it.
        Some(unsafe { F::row_unchecked(&self.columns, index) })
    }

    /// The row at `index`, mutably, if there is one.
    #[inline]
    pub(crate) fn row_mut(&mut self, index: usize) -> Option<F::Mut<'_>> {
        if index >= self.len {
            return None;
        }
        // SAFETY: as in `row`.
        Some(unsafe { F::row_unchecked_mut(&mut self.columns, index) })
    }

    /// The start of each column and their length, for a lender.
    pub(crate) fn raw(&mut self) -> RawRows<F> {
        RawRows {
            ptrs: F::ptrs(&mut self.columns),
            len: self.len,
        }
    }

    fn slices(&self) -> F::Slices<'_> {
        F::slices(&self.columns)
    }

    fn slices_mut(&mut self) -> F::SlicesMut<'_> {
        F::slices_mut(&mut self.columns)
    }
}

/// The start of each column of a [`ColumnSet`] and their one length: what a lender keeps of a
/// chunk's columns, which it reaches through `&` while leases hold rows of them.
pub(crate) struct RawRows<F: ColumnFields> {
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
pub(crate) struct Rows<'a, F: ColumnFields + 'a> {
    slices: F::Slices<'a>,
    len: usize,
}

impl<'a, F: ColumnFields + 'a> Rows<'a, F> {
    /// Every row of `set`.
    #[inline]
    pub(crate) fn all(set: &'a ColumnSet<F>) -> Self {
        Self {
            slices: set.slices(),
            len: set.len,
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
        // `split_at` splits each at one point), and `index` is below it.
        Some(unsafe { F::slice_row_unchecked(&self.slices, index) })
    }

    #[inline]
    pub(crate) fn into_slices(self) -> F::Slices<'a> {
        self.slices
    }
}

/// Mutable slices of every column, all `len` long: consecutive rows.
pub(crate) struct RowsMut<'a, F: ColumnFields + 'a> {
    slices: F::SlicesMut<'a>,
    len: usize,
}

impl<'a, F: ColumnFields + 'a> RowsMut<'a, F> {
    /// Every row of `set`.
    #[inline]
    pub(crate) fn all(set: &'a mut ColumnSet<F>) -> Self {
        let len = set.len;
        Self {
            slices: set.slices_mut(),
            len,
        }
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

#[cfg(test)]
mod tests {
    use super::{ColumnSet, Rows, RowsMut};
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
}
