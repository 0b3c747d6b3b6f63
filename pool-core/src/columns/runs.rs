//! The live objects of a column pool as runs: a slice of each column for each run of
//! consecutive live slots, found from the books' occupancy bits.

use super::fields::{ColumnSet, Rows, RowsMut};
use super::{Columnar, Row};
use crate::pool::iter::Bits;
use crate::slot::occupancy::SetBits;
use crate::storage::Chunks;
use core::iter::FusedIterator;

/// The runs of live slots in the books: each run's first index and its slots' words.
pub(crate) struct LiveRuns<'a, P> {
    base: usize,
    words: &'a [u64],
    bits: Bits<'a>,
    rest: Chunks<'a, Row<P>>,
}

impl<'a, P> LiveRuns<'a, P> {
    pub(crate) fn new(mut chunks: Chunks<'a, Row<P>>) -> Self {
        let first = chunks.next().expect("a pool has a first chunk");
        Self {
            base: first.base,
            words: first.words,
            bits: SetBits::new(first.bits.iter().copied()),
            rest: chunks,
        }
    }
}

impl<'a, P> Iterator for LiveRuns<'a, P> {
    type Item = (usize, &'a [u64]);

    #[inline]
    fn next(&mut self) -> Option<(usize, &'a [u64])> {
        loop {
            if let Some((start, len)) = self.bits.next_run() {
                // A chunk's bits cover its own slots only: the range is in bounds.
                return Some((self.base + start, self.words.get(start..start + len)?));
            }
            let chunk = self.rest.next()?;
            self.base = chunk.base;
            self.words = chunk.words;
            self.bits = SetBits::new(chunk.bits.iter().copied());
        }
    }
}

/// The live objects of a [`ColumnPool`](crate::ColumnPool) as runs of consecutive live slots,
/// a slice of each column for each run, in slot order; see
/// [`ColumnPool::runs`](crate::ColumnPool::runs).
pub struct ColumnRuns<'a, P: Columnar + 'a> {
    live: LiveRuns<'a, P>,
    /// The rows from `at` on.
    rest: Option<Rows<'a, P::Fields>>,
    at: usize,
}

impl<'a, P: Columnar + 'a> ColumnRuns<'a, P> {
    pub(crate) fn new(chunks: Chunks<'a, Row<P>>, columns: &'a ColumnSet<P::Fields>) -> Self {
        Self {
            live: LiveRuns::new(chunks),
            rest: Some(Rows::all(columns)),
            at: 0,
        }
    }

    /// The next run, with its slots' words.
    #[inline]
    pub(crate) fn next_with_words(&mut self) -> Option<(&'a [u64], Rows<'a, P::Fields>)> {
        let (start, words) = self.live.next()?;
        let (_, rest) = self.rest.take()?.split_at(start - self.at);
        let (run, rest) = rest.split_at(words.len());
        self.rest = Some(rest);
        self.at = start + words.len();
        Some((words, run))
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
    live: LiveRuns<'a, P>,
    /// The rows from `at` on.
    rest: Option<RowsMut<'a, P::Fields>>,
    at: usize,
}

impl<'a, P: Columnar + 'a> ColumnRunsMut<'a, P> {
    pub(crate) fn new(chunks: Chunks<'a, Row<P>>, columns: &'a mut ColumnSet<P::Fields>) -> Self {
        Self {
            live: LiveRuns::new(chunks),
            rest: Some(RowsMut::all(columns)),
            at: 0,
        }
    }

    /// The next run, with its slots' words.
    #[inline]
    pub(crate) fn next_with_words(&mut self) -> Option<(&'a [u64], RowsMut<'a, P::Fields>)> {
        let (start, words) = self.live.next()?;
        let (_, rest) = self.rest.take()?.split_at(start - self.at);
        let (run, rest) = rest.split_at(words.len());
        self.rest = Some(rest);
        self.at = start + words.len();
        Some((words, run))
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
