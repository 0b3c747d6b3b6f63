//! A column struct's fields as a list, `(A, (B, (C, ())))`, each kept in a column of its own:
//! what the runtime does with a row or a slice of each column, field by field, whatever keeps
//! the columns (vectors on the heap, arrays inside an inline pool).

#[cfg(feature = "alloc")]
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
    /// A column of each field on the heap: `(Vec<A>, (Vec<B>, ...))`.
    #[cfg(feature = "alloc")]
    #[doc(hidden)]
    type Columns;
    /// An array of each field, for an inline pool: `([A; N], ([B; N], ...))`.
    #[doc(hidden)]
    type Arrays<const N: usize>;
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

    #[cfg(feature = "alloc")]
    #[doc(hidden)]
    fn new_columns() -> Self::Columns;
    #[cfg(feature = "alloc")]
    #[doc(hidden)]
    fn reserve_exact(columns: &mut Self::Columns, additional: usize);
    #[cfg(feature = "alloc")]
    #[doc(hidden)]
    fn push(columns: &mut Self::Columns, row: Self);
    #[cfg(feature = "alloc")]
    #[doc(hidden)]
    fn truncate(columns: &mut Self::Columns, len: usize);
    #[cfg(feature = "alloc")]
    #[doc(hidden)]
    fn slices(columns: &Self::Columns) -> Self::Slices<'_>;
    #[cfg(feature = "alloc")]
    #[doc(hidden)]
    fn slices_mut(columns: &mut Self::Columns) -> Self::SlicesMut<'_>;
    #[doc(hidden)]
    fn array_slices<const N: usize>(arrays: &Self::Arrays<N>) -> Self::Slices<'_>;
    #[doc(hidden)]
    fn array_slices_mut<const N: usize>(arrays: &mut Self::Arrays<N>) -> Self::SlicesMut<'_>;
    /// The start of each column: pointers made without a reference to any row
    /// (`Vec::as_mut_ptr`), so that they stay good while rows are reached through others.
    #[cfg(feature = "alloc")]
    #[doc(hidden)]
    fn column_ptrs(columns: &mut Self::Columns) -> Self::Ptrs;
    /// The start of each array of `arrays`, made by their addresses alone, as
    /// [`column_ptrs`](ColumnFields::column_ptrs).
    ///
    /// # Safety
    /// `arrays` points to live arrays.
    #[doc(hidden)]
    unsafe fn array_ptrs<const N: usize>(arrays: *mut Self::Arrays<N>) -> Self::Ptrs;
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
    /// Moves `value` into the row `row` refers to.
    #[doc(hidden)]
    fn write(row: Self::Mut<'_>, value: Self);
    /// The row at `index` of `slices`.
    ///
    /// # Safety
    /// `index` is below every slice's length.
    #[doc(hidden)]
    unsafe fn slice_row_unchecked<'a>(slices: &Self::Slices<'a>, index: usize) -> Self::Ref<'a>
    where
        Self: 'a;
    /// The row at `index` of `slices`, mutably.
    ///
    /// # Safety
    /// `index` is below every slice's length.
    #[doc(hidden)]
    unsafe fn slice_row_unchecked_mut<'a>(
        slices: Self::SlicesMut<'a>,
        index: usize,
    ) -> Self::Mut<'a>
    where
        Self: 'a;
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
    #[cfg(feature = "alloc")]
    type Columns = ();
    type Arrays<const N: usize> = ();
    type Ref<'a> = ();
    type Mut<'a> = ();
    type Slices<'a> = ();
    type SlicesMut<'a> = ();
    type Ptrs = ();

    #[cfg(feature = "alloc")]
    fn new_columns() {}
    #[cfg(feature = "alloc")]
    fn reserve_exact((): &mut (), _: usize) {}
    #[cfg(feature = "alloc")]
    fn push((): &mut (), (): ()) {}
    #[cfg(feature = "alloc")]
    fn truncate((): &mut (), _: usize) {}
    #[cfg(feature = "alloc")]
    #[inline]
    fn slices((): &()) {}
    #[cfg(feature = "alloc")]
    #[inline]
    fn slices_mut((): &mut ()) {}
    #[inline]
    fn array_slices<const N: usize>((): &()) {}
    #[inline]
    fn array_slices_mut<const N: usize>((): &mut ()) {}
    #[cfg(feature = "alloc")]
    #[inline]
    fn column_ptrs((): &mut ()) {}
    #[inline]
    unsafe fn array_ptrs<const N: usize>(_: *mut ()) {}
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
    fn write((): (), (): ()) {}
    #[inline]
    unsafe fn slice_row_unchecked<'a>((): &(), _: usize)
    where
        Self: 'a,
    {
    }
    #[inline]
    unsafe fn slice_row_unchecked_mut<'a>((): (), _: usize)
    where
        Self: 'a,
    {
    }
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
    #[cfg(feature = "alloc")]
    type Columns = (Vec<H>, T::Columns);
    type Arrays<const N: usize> = ([H; N], T::Arrays<N>);
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

    #[cfg(feature = "alloc")]
    fn new_columns() -> Self::Columns {
        (Vec::new(), T::new_columns())
    }

    #[cfg(feature = "alloc")]
    fn reserve_exact((head, tail): &mut Self::Columns, additional: usize) {
        head.reserve_exact(additional);
        T::reserve_exact(tail, additional);
    }

    #[cfg(feature = "alloc")]
    fn push((head, tail): &mut Self::Columns, (value, rest): Self) {
        head.push(value);
        T::push(tail, rest);
    }

    #[cfg(feature = "alloc")]
    fn truncate((head, tail): &mut Self::Columns, len: usize) {
        // The other columns are cut too if a dropped field panics: all stay one length.
        let tail = scopeguard::guard(tail, |tail| T::truncate(tail, len));
        head.truncate(len);
        drop(tail);
    }

    #[cfg(feature = "alloc")]
    #[inline]
    fn slices((head, tail): &Self::Columns) -> Self::Slices<'_> {
        (head, T::slices(tail))
    }

    #[cfg(feature = "alloc")]
    #[inline]
    fn slices_mut((head, tail): &mut Self::Columns) -> Self::SlicesMut<'_> {
        (head, T::slices_mut(tail))
    }

    #[inline]
    fn array_slices<const N: usize>((head, tail): &Self::Arrays<N>) -> Self::Slices<'_> {
        (head, T::array_slices(tail))
    }

    #[inline]
    fn array_slices_mut<const N: usize>((head, tail): &mut Self::Arrays<N>) -> Self::SlicesMut<'_> {
        (head, T::array_slices_mut(tail))
    }

    #[cfg(feature = "alloc")]
    #[inline]
    fn column_ptrs((head, tail): &mut Self::Columns) -> Self::Ptrs {
        let head = NonNull::new(head.as_mut_ptr()).expect("a vector's pointer");
        (head, T::column_ptrs(tail))
    }

    #[inline]
    unsafe fn array_ptrs<const N: usize>(arrays: *mut Self::Arrays<N>) -> Self::Ptrs {
        // SAFETY: `arrays` points to live arrays (the caller's contract): the address of a
        // field makes no reference to it.
        let head = unsafe { &raw mut (*arrays).0 };
        // SAFETY: as for the head.
        let tail = unsafe { &raw mut (*arrays).1 };
        // SAFETY: a field's address inside a live value is not null.
        let head = unsafe { NonNull::new_unchecked(head) };
        // SAFETY: the tail's arrays live, as all do.
        (head.cast(), unsafe { T::array_ptrs(tail) })
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

    fn write((field, rest): Self::Mut<'_>, (value, values): Self) {
        *field = value;
        T::write(rest, values);
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
    unsafe fn slice_row_unchecked_mut<'a>(
        (head, tail): Self::SlicesMut<'a>,
        index: usize,
    ) -> Self::Mut<'a>
    where
        Self: 'a,
    {
        // SAFETY: `index` is below every slice's length (the caller's contract); the slices
        // are distinct columns, so the references do not overlap.
        let field = unsafe { head.get_unchecked_mut(index) };
        // SAFETY: as above, for the other slices.
        (field, unsafe { T::slice_row_unchecked_mut(tail, index) })
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
