//! A column pool's columns seen by its lender: each chunk's columns as pointers, so that leases
//! hold rows mutably while lookups and iteration read others, and a lender that grows the pool
//! adds a chunk of rows without moving any.
//!
//! The unsafe contract, as for the objects of a [`Lender`](crate::Lender)'s pool: through the
//! view a live row is only read (releasing and `get_mut` need `&mut ColumnPool`, which the
//! lender holds), and a row that is not live is reached only by the one lease (or `acquire`
//! running `init`) that took its slot off the free list. No row moves or is dropped while the
//! view lives: chunks are only added. The view finds a chunk's rows when it needs them, through
//! pointers made without a reference to any row (`ColumnStore::lent_rows`).

use super::fields::ColumnFields;
use super::rows::RawRows;
use super::store::ColumnStore;
use crate::storage::geometry::Geometry;
use core::cell::Cell;
use core::marker::PhantomData;
use core::ptr::NonNull;

/// A pool's columns as its lender sees them: a pointer, through which it finds a chunk's rows
/// when it needs them (`ColumnStore::lent_rows`), and never a reference to a row but those of
/// its leases and lookups.
pub(crate) struct ColumnsView<'a, F: ColumnFields, C: ColumnStore<F> + 'a> {
    columns: NonNull<C>,
    geometry: Geometry,
    borrowed: PhantomData<&'a mut C>,
    fields: PhantomData<F>,
}

impl<'a, F: ColumnFields, C: ColumnStore<F>> ColumnsView<'a, F, C> {
    pub(crate) fn new(columns: &'a mut C) -> Self {
        Self {
            geometry: columns.geometry(),
            columns: NonNull::from(columns),
            borrowed: PhantomData,
            fields: PhantomData,
        }
    }

    /// The rows of the slot at `index`, if its chunk has them.
    #[inline]
    fn find(&self, index: usize) -> Option<(RawRows<F>, usize)> {
        let (at, local) = place(self.geometry, index);
        let rows = self.rows(at)?;
        (local < rows.len).then_some((rows, local))
    }

    /// The row of the live slot at `index`.
    ///
    /// # Safety
    /// The slot at `index` is live while the row is borrowed: only read, by the view's
    /// contract.
    #[inline]
    pub(crate) unsafe fn live_row(&self, index: usize) -> Option<F::Ref<'_>> {
        let (rows, local) = self.find(index)?;
        // SAFETY: as in `ReadRows::live_row`.
        Some(unsafe { F::ptrs_row(rows.ptrs, local) })
    }

    /// What walks read through: the rows of each chunk, the storage out of the type.
    #[inline]
    pub(crate) fn read(&self) -> ReadRows<'_, F> {
        ReadRows {
            table: self,
            geometry: self.geometry,
            last: Cell::new(None),
        }
    }

    /// The row of the slot at `index`, which the caller has just taken off the free list.
    ///
    /// # Safety
    /// The caller holds the slot at `index` (a lease, or `acquire` running `init`), and no other
    /// [`LentRow`] of it lives while this one does.
    ///
    /// # Panics
    /// If the slot has no row: the books and the columns disagree.
    #[inline]
    pub(crate) unsafe fn lent_row(&self, index: usize) -> LentRow<'_, F> {
        let (rows, local) = self.find(index).expect("a row for every lent slot");
        LentRow {
            rows,
            local,
            lent: PhantomData,
        }
    }
}

#[cfg(feature = "alloc")]
impl<F: ColumnFields> ColumnsView<'_, F, super::chunks::ColumnChunks<F>> {
    /// Builds the rows of a chunk of `len` slots from `base`, each `blank()`, and installs them.
    /// If `blank` panics, nothing changed.
    pub(crate) fn grow(&self, base: usize, len: usize, blank: impl FnMut() -> F) {
        let set = super::set::ColumnSet::new(len, blank);
        // SAFETY: the view borrows the columns mutably; the reference covers their headers
        // alone (the rows are the vectors' allocations, which moving a set does not move), for
        // this statement, which runs no user code.
        unsafe { &mut *self.columns.as_ptr() }.install(base, set);
    }
}

/// The rows of a lender's chunks, with the storage out of the type.
trait RowTable<F: ColumnFields> {
    /// The rows of the chunk at place `at`, if there is one.
    fn rows(&self, at: usize) -> Option<RawRows<F>>;
}

impl<F: ColumnFields, C: ColumnStore<F>> RowTable<F> for ColumnsView<'_, F, C> {
    #[inline]
    fn rows(&self, at: usize) -> Option<RawRows<F>> {
        // SAFETY: the view borrows the columns mutably, and reaches them only here and in
        // `grow`, neither of which runs user code or keeps a reference.
        unsafe { C::lent_rows(self.columns, at) }
    }
}

/// Where the chunk holding `index` is (0 for the first, `1 + k` for the grown chunk at position
/// `k`), and the index within it.
#[inline]
fn place(geometry: Geometry, index: usize) -> (usize, usize) {
    if index < geometry.start() {
        return (0, index);
    }
    let (k, local) = geometry.position(index);
    (1 + k, local)
}

/// The rows of a lender's chunks, to read.
pub(crate) struct ReadRows<'l, F: ColumnFields> {
    table: &'l dyn RowTable<F>,
    geometry: Geometry,
    /// The chunk found last, and its place: a walk finds the next row's there, without asking
    /// the table. Good while the view lives, as chunks are only added.
    last: Cell<Option<(usize, RawRows<F>)>>,
}

impl<'l, F: ColumnFields> ReadRows<'l, F> {
    /// The rows of the slot at `index`, if its chunk has them.
    #[inline]
    fn find(&self, index: usize) -> Option<(RawRows<F>, usize)> {
        let (at, local) = place(self.geometry, index);
        let rows = match self.last.get() {
            Some((last, rows)) if last == at => rows,
            _ => {
                let rows = self.table.rows(at)?;
                self.last.set(Some((at, rows)));
                rows
            }
        };
        (local < rows.len).then_some((rows, local))
    }

    /// The row of the live slot at `index`.
    ///
    /// # Safety
    /// The slot at `index` is live for `'l`: only read, by the view's contract.
    #[inline]
    pub(crate) unsafe fn live_row(&self, index: usize) -> Option<F::Ref<'l>> {
        let (rows, local) = self.find(index)?;
        // SAFETY: `local` is below the columns' length (`find`); they live and stay put while
        // the view does (chunks are only added); the slot is live (the caller's contract), so
        // no lease writes to its row.
        Some(unsafe { F::ptrs_row(rows.ptrs, local) })
    }
}

/// The row of a lent slot: its holder's alone.
pub(crate) struct LentRow<'a, F: ColumnFields> {
    rows: RawRows<F>,
    local: usize,
    lent: PhantomData<&'a mut F>,
}

impl<F: ColumnFields> LentRow<'_, F> {
    #[inline]
    pub(crate) fn get(&self) -> F::Ref<'_> {
        // SAFETY: `local` is below the columns' length, which live and stay put while the view
        // does (`lent_row`); the row is this holder's alone (the contract of `lent_row`), and
        // `&self` lets no one write to it through this `LentRow`.
        unsafe { F::ptrs_row(self.rows.ptrs, self.local) }
    }

    #[inline]
    pub(crate) fn get_mut(&mut self) -> F::Mut<'_> {
        // SAFETY: as in `get`; `&mut self` makes this the only reference to the row.
        unsafe { F::ptrs_row_mut(self.rows.ptrs, self.local) }
    }
}
