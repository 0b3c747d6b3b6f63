//! A column pool's chunks as the one walk (`slot/walk.rs`) reads them, each of the books'
//! chunks with its rows, found by position; and the live objects as runs, a slice of each
//! column for each run of consecutive live slots.

use super::rows::{Rows, RowsMut};
use super::store::{GrownRows, GrownRowsMut, GrownSets};
use super::{Columnar, Row};
use crate::slot::walk::{Chunk, Groups, Strip, Walk};
use crate::storage::Chunks;
use core::iter::FusedIterator;

/// The books' chunks past the first, each with its rows.
pub(crate) struct Grown<'a, P: Columnar, G> {
    chunks: Chunks<'a, Row<P>>,
    sets: G,
}

impl<'a, P: Columnar, G: GrownSets> Iterator for Grown<'a, P, G> {
    type Item = Chunk<'a, G::Rows>;

    #[inline]
    fn next(&mut self) -> Option<Self::Item> {
        let part = self.chunks.next()?;
        Some(Chunk {
            strip: self.sets.rows(part.base, part.objects.len()),
            words: part.words,
            bits: part.bits,
        })
    }
}

/// The books' chunks `chunks` with their rows: the first chunk's from `first`, the others'
/// from `sets`, by position.
#[inline]
pub(crate) fn chunks<'a, P: Columnar, G: GrownSets<Rows: Strip<'a>>>(
    mut chunks: Chunks<'a, Row<P>>,
    first: G::Rows,
    sets: G,
) -> (Chunk<'a, G::Rows>, Grown<'a, P, G>) {
    let part = chunks.next().expect("a pool has a first chunk");
    // An inline pool's books build their slots as they are needed, its rows all at once.
    let (first, _) = first.split_at(part.objects.len());
    let first = Chunk {
        strip: first,
        words: part.words,
        bits: part.bits,
    };
    (first, Grown { chunks, sets })
}

/// The walk over a column pool's rows, shared.
pub(crate) type RowWalk<'a, P> = Walk<
    'a,
    Rows<'a, <P as Columnar>::Fields>,
    Grown<'a, P, GrownRows<'a, <P as Columnar>::Fields>>,
>;

/// The walk over a column pool's rows, mutably.
pub(crate) type RowWalkMut<'a, P> = Walk<
    'a,
    RowsMut<'a, <P as Columnar>::Fields>,
    Grown<'a, P, GrownRowsMut<'a, <P as Columnar>::Fields>>,
>;

/// The live objects of a [`ColumnPool`](crate::ColumnPool) as runs of consecutive live slots,
/// a slice of each column for each run, in slot order; see
/// [`ColumnPool::runs`](crate::ColumnPool::runs).
pub struct ColumnRuns<'a, P: Columnar + 'a>(pub(crate) RowWalk<'a, P>);

impl<'a, P: Columnar + 'a> Iterator for ColumnRuns<'a, P> {
    type Item = P::Slices<'a>;

    #[inline]
    fn next(&mut self) -> Option<P::Slices<'a>> {
        self.0.next_run().map(P::slices)
    }
}

impl<'a, P: Columnar + 'a> FusedIterator for ColumnRuns<'a, P> {}

/// The live objects of a [`ColumnPool`](crate::ColumnPool) as runs of consecutive live slots,
/// a mutable slice of each column for each run, in slot order; see
/// [`ColumnPool::runs_mut`](crate::ColumnPool::runs_mut).
pub struct ColumnRunsMut<'a, P: Columnar + 'a>(pub(crate) RowWalkMut<'a, P>);

impl<'a, P: Columnar + 'a> Iterator for ColumnRunsMut<'a, P> {
    type Item = P::SlicesMut<'a>;

    #[inline]
    fn next(&mut self) -> Option<P::SlicesMut<'a>> {
        self.0.next_run().map(P::slices_mut)
    }
}

impl<'a, P: Columnar + 'a> FusedIterator for ColumnRunsMut<'a, P> {}

/// A column pool's groups of slots, live and free alike, each with its occupancy words: a
/// mutable slice of each column for each stretch of words with a live slot in each, in slot
/// order; see
/// [`ColumnPool::groups_mut`](crate::ColumnPool::groups_mut).
pub struct ColumnGroupsMut<'a, P: Columnar + 'a>(pub(crate) Groups<RowWalkMut<'a, P>>);

impl<'a, P: Columnar + 'a> Iterator for ColumnGroupsMut<'a, P> {
    type Item = (&'a [u64], P::SlicesMut<'a>);

    #[inline]
    fn next(&mut self) -> Option<Self::Item> {
        self.0
            .next()
            .map(|(live, group)| (live, P::slices_mut(group)))
    }
}

impl<'a, P: Columnar + 'a> FusedIterator for ColumnGroupsMut<'a, P> {}
