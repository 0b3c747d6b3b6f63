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
    /// `arrays` points to the arrays' place, valid and aligned (their rows built or not).
    #[doc(hidden)]
    unsafe fn array_ptrs<const N: usize>(arrays: *mut Self::Arrays<N>) -> Self::Ptrs;
    /// The start of each slice: pointers that stay good while other rows are reached through
    /// them, as none is a reference to a row.
    #[doc(hidden)]
    fn ptrs(slices: Self::SlicesMut<'_>) -> Self::Ptrs;
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
    /// Moves `value` into the row `index` of the columns `ptrs` points to, whose fields hold
    /// nothing yet: nothing there is dropped.
    ///
    /// # Safety
    /// `index` is below every column's length, and no one reaches the row meanwhile.
    #[doc(hidden)]
    unsafe fn ptrs_write(ptrs: Self::Ptrs, index: usize, value: Self);
    /// Drops the first `len` rows of the columns `ptrs` points to, each column's in turn, even
    /// if a field's `Drop` panics; they hold nothing after.
    ///
    /// # Safety
    /// The first `len` rows of every column hold fields, which no one reaches after.
    #[doc(hidden)]
    unsafe fn ptrs_drop(ptrs: Self::Ptrs, len: usize);
    /// Moves `value` into the row `row` refers to.
    #[doc(hidden)]
    fn write(row: Self::Mut<'_>, value: Self);
    /// The start of each of `slices`, for rows read through them.
    #[doc(hidden)]
    fn ptrs_of(slices: Self::Slices<'_>) -> Self::Ptrs;
    /// Each pointer `count` rows on.
    ///
    /// # Safety
    /// `count` is at most the length of every column from the pointers.
    #[doc(hidden)]
    unsafe fn ptrs_add(ptrs: Self::Ptrs, count: usize) -> Self::Ptrs;
    /// The `len` rows from `start` of the columns `ptrs` points to, as a slice of each.
    ///
    /// # Safety
    /// As [`ptrs_row`](ColumnFields::ptrs_row), for each of the rows.
    #[doc(hidden)]
    unsafe fn ptrs_slices<'a>(ptrs: Self::Ptrs, start: usize, len: usize) -> Self::Slices<'a>
    where
        Self: 'a;
    /// The `len` rows from `start` of the columns `ptrs` points to, mutably.
    ///
    /// # Safety
    /// As [`ptrs_row_mut`](ColumnFields::ptrs_row_mut), for each of the rows.
    #[doc(hidden)]
    unsafe fn ptrs_slices_mut<'a>(
        ptrs: Self::Ptrs,
        start: usize,
        len: usize,
    ) -> Self::SlicesMut<'a>
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
    fn ptrs((): ()) {}
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
    #[inline]
    unsafe fn ptrs_write((): (), _: usize, (): ()) {}
    unsafe fn ptrs_drop((): (), _: usize) {}
    fn write((): (), (): ()) {}
    #[inline]
    fn ptrs_of((): ()) {}
    #[inline]
    unsafe fn ptrs_add((): (), _: usize) {}
    #[inline]
    unsafe fn ptrs_slices<'a>((): (), _: usize, _: usize)
    where
        Self: 'a,
    {
    }
    #[inline]
    unsafe fn ptrs_slices_mut<'a>((): (), _: usize, _: usize)
    where
        Self: 'a,
    {
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
    fn ptrs((head, tail): Self::SlicesMut<'_>) -> Self::Ptrs {
        (NonNull::from(head).cast(), T::ptrs(tail))
    }

    #[inline]
    unsafe fn array_ptrs<const N: usize>(arrays: *mut Self::Arrays<N>) -> Self::Ptrs {
        // SAFETY: `arrays` points to the arrays' place (the caller's contract): the address
        // of a field makes no reference to it.
        let head = unsafe { &raw mut (*arrays).0 };
        // SAFETY: as for the head.
        let tail = unsafe { &raw mut (*arrays).1 };
        // SAFETY: a field's address inside a valid place is not null.
        let head = unsafe { NonNull::new_unchecked(head) };
        // SAFETY: the tail's place is valid, as the whole is.
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

    #[inline]
    unsafe fn ptrs_write((head, tail): Self::Ptrs, index: usize, (value, values): Self) {
        // SAFETY: `index` is in this column (the caller's contract).
        let place = unsafe { head.add(index) };
        // SAFETY: the place is in the column, and holds no field to drop (the caller's
        // contract).
        unsafe { place.write(value) };
        // SAFETY: as above, for the other columns.
        unsafe { T::ptrs_write(tail, index, values) };
    }

    unsafe fn ptrs_drop((head, tail): Self::Ptrs, len: usize) {
        // The other columns are dropped too if a field's `Drop` panics.
        // SAFETY: their first `len` rows hold fields no one reaches after (the caller's
        // contract).
        let tail = scopeguard::guard(tail, |tail| unsafe { T::ptrs_drop(tail, len) });
        let column = core::ptr::slice_from_raw_parts_mut(head.as_ptr(), len);
        // SAFETY: the first `len` rows of this column hold fields no one reaches after (the
        // caller's contract); `drop_in_place` drops the rest of the slice if one panics.
        unsafe { core::ptr::drop_in_place(column) };
        drop(tail);
    }

    fn write((field, rest): Self::Mut<'_>, (value, values): Self) {
        *field = value;
        T::write(rest, values);
    }

    #[inline]
    fn ptrs_of((head, tail): Self::Slices<'_>) -> Self::Ptrs {
        (NonNull::from(head).cast(), T::ptrs_of(tail))
    }

    #[inline]
    unsafe fn ptrs_add((head, tail): Self::Ptrs, count: usize) -> Self::Ptrs {
        // SAFETY: `count` is at most this column's length from `head` (the caller's contract).
        let head = unsafe { head.add(count) };
        // SAFETY: as above, for the other columns.
        (head, unsafe { T::ptrs_add(tail, count) })
    }

    #[inline]
    unsafe fn ptrs_slices<'a>(
        (head, tail): Self::Ptrs,
        start: usize,
        len: usize,
    ) -> Self::Slices<'a>
    where
        Self: 'a,
    {
        // SAFETY: the rows are in this column (the caller's contract).
        let first = unsafe { head.add(start) };
        // SAFETY: the column lives and no one writes to these rows for `'a` (the caller's
        // contract).
        let column = unsafe { core::slice::from_raw_parts(first.as_ptr(), len) };
        // SAFETY: as above, for the other columns.
        (column, unsafe { T::ptrs_slices(tail, start, len) })
    }

    #[inline]
    unsafe fn ptrs_slices_mut<'a>(
        (head, tail): Self::Ptrs,
        start: usize,
        len: usize,
    ) -> Self::SlicesMut<'a>
    where
        Self: 'a,
    {
        // SAFETY: the rows are in this column (the caller's contract).
        let first = unsafe { head.add(start) };
        // SAFETY: the column lives and no one else reaches these rows for `'a` (the caller's
        // contract); the columns are distinct allocations.
        let column = unsafe { core::slice::from_raw_parts_mut(first.as_ptr(), len) };
        // SAFETY: as above, for the other columns.
        (column, unsafe { T::ptrs_slices_mut(tail, start, len) })
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
