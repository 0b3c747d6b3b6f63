//! The live objects of a column pool as runs: a slice of each column for each run of
//! consecutive live slots, found from the books' occupancy bits.

use super::rows::{Rows, RowsMut};
use super::store::{GrownRows, GrownRowsMut, SetRows, SetRowsMut};
use super::{Columnar, Row};
use crate::pool::iter::Bits;
use crate::slot::occupancy::SetBits;
use crate::storage::Chunks;
use crate::storage::part::Part;
use core::iter::FusedIterator;

/// One chunk's runs of live slots: its words, its bits, and its rows from `at` on.
struct ChunkRuns<'a, R> {
    words: &'a [u64],
    bits: Bits<'a>,
    rest: Option<R>,
    at: usize,
}

impl<'a, R> ChunkRuns<'a, R> {
    fn new(chunk: Part<'a, impl Sized>, rows: R) -> Self {
        Self {
            words: chunk.words,
            bits: SetBits::new(chunk.bits.iter().copied()),
            rest: Some(rows),
            at: 0,
        }
    }
}

/// Splits the next run off the rows of one chunk, with its slots' words.
macro_rules! next_run {
    ($chunk:expr) => {{
        let chunk = $chunk;
        match (chunk.bits.next_run(), chunk.rest.take()) {
            (Some((start, len)), Some(rows)) => {
                let (_, rows) = rows.split_at(start - chunk.at);
                let (run, rows) = rows.split_at(len);
                (chunk.rest, chunk.at) = (Some(rows), start + len);
                // A chunk's bits cover its own slots only: the range is in bounds.
                chunk
                    .words
                    .get(start..start + len)
                    .map(|words| (words, run))
            }
            _ => None,
        }
    }};
}

/// The live objects of a [`ColumnPool`](crate::ColumnPool) as runs of consecutive live slots,
/// a slice of each column for each run, in slot order; see
/// [`ColumnPool::runs`](crate::ColumnPool::runs).
pub struct ColumnRuns<'a, P: Columnar + 'a> {
    // The first chunk taken at once, the walk holds no `Option` of it: see `SetRows`.
    chunk: ChunkRuns<'a, Rows<'a, P::Fields>>,
    rest: Chunks<'a, Row<P>>,
    grown: GrownRows<'a, P::Fields>,
}

impl<'a, P: Columnar + 'a> ColumnRuns<'a, P> {
    pub(crate) fn new(mut chunks: Chunks<'a, Row<P>>, columns: SetRows<'a, P::Fields>) -> Self {
        let first = chunks.next().expect("a pool has a first chunk");
        Self {
            chunk: ChunkRuns::new(first, columns.first),
            rest: chunks,
            grown: columns.grown,
        }
    }

    /// The next run, with its slots' words.
    #[inline]
    pub(crate) fn next_with_words(&mut self) -> Option<(&'a [u64], Rows<'a, P::Fields>)> {
        loop {
            if let Some(run) = next_run!(&mut self.chunk) {
                return Some(run);
            }
            let chunk = self.rest.next()?;
            let rows = self.grown.of(chunk.base, chunk.objects.len());
            self.chunk = ChunkRuns::new(chunk, rows);
        }
    }
}

impl<'a, P: Columnar + 'a> Iterator for ColumnRuns<'a, P> {
    type Item = P::Slices<'a>;

    #[inline]
    fn next(&mut self) -> Option<P::Slices<'a>> {
        self.next_with_words()
            .map(|(_, run)| P::slices(run.into_slices()))
    }
}

impl<'a, P: Columnar + 'a> FusedIterator for ColumnRuns<'a, P> {}

/// The live objects of a [`ColumnPool`](crate::ColumnPool) as runs of consecutive live slots,
/// a mutable slice of each column for each run, in slot order; see
/// [`ColumnPool::runs_mut`](crate::ColumnPool::runs_mut).
pub struct ColumnRunsMut<'a, P: Columnar + 'a> {
    chunk: ChunkRuns<'a, RowsMut<'a, P::Fields>>,
    rest: Chunks<'a, Row<P>>,
    grown: GrownRowsMut<'a, P::Fields>,
}

impl<'a, P: Columnar + 'a> ColumnRunsMut<'a, P> {
    pub(crate) fn new(mut chunks: Chunks<'a, Row<P>>, columns: SetRowsMut<'a, P::Fields>) -> Self {
        let first = chunks.next().expect("a pool has a first chunk");
        Self {
            chunk: ChunkRuns::new(first, columns.first),
            rest: chunks,
            grown: columns.grown,
        }
    }

    /// The next run, with its slots' words.
    #[inline]
    pub(crate) fn next_with_words(&mut self) -> Option<(&'a [u64], RowsMut<'a, P::Fields>)> {
        loop {
            if let Some(run) = next_run!(&mut self.chunk) {
                return Some(run);
            }
            let chunk = self.rest.next()?;
            let rows = self.grown.take(chunk.base, chunk.objects.len());
            self.chunk = ChunkRuns::new(chunk, rows);
        }
    }
}

impl<'a, P: Columnar + 'a> Iterator for ColumnRunsMut<'a, P> {
    type Item = P::SlicesMut<'a>;

    #[inline]
    fn next(&mut self) -> Option<P::SlicesMut<'a>> {
        self.next_with_words()
            .map(|(_, run)| P::slices_mut(run.into_slices()))
    }
}

impl<'a, P: Columnar + 'a> FusedIterator for ColumnRunsMut<'a, P> {}
