//! The runs of a column pool in parallel (the `rayon` feature): each chunk of slots split at
//! 64-slot group boundaries into pieces, whose runs a thread walks as `runs_mut` does.

use super::rows::RowsMut;
use super::store::{ColumnStorage, ColumnStore};
use super::{ColumnFields, ColumnPool, Columnar};
use crate::slot::occupancy::{BITS, SetBits};
use crate::storage::geometry::POSITIONS;
use rayon::iter::plumbing::{Folder, UnindexedConsumer, UnindexedProducer, bridge_unindexed};
use rayon::iter::{IntoParallelIterator, ParallelIterator};

/// Groups below which a piece is walked whole rather than split.
const SPLIT_ABOVE: usize = 4;

/// Consecutive groups of one chunk: their occupancy bits, and the rows they cover.
struct Piece<'a, P: Columnar + 'a> {
    bits: &'a [u64],
    rows: RowsMut<'a, P::Fields>,
}

impl<'a, P: Columnar + 'a> UnindexedProducer for Piece<'a, P>
where
    P::SlicesMut<'a>: Send,
    <P::Fields as ColumnFields>::SlicesMut<'a>: Send,
{
    type Item = P::SlicesMut<'a>;

    fn split(self) -> (Self, Option<Self>) {
        let groups = self.bits.len() / 2;
        if self.bits.len() <= SPLIT_ABOVE || groups * BITS >= self.rows.len() {
            return (self, None);
        }
        let (low, high) = self.bits.split_at(groups);
        let (rows_low, rows_high) = self.rows.split_at(groups * BITS);
        let low = Piece {
            bits: low,
            rows: rows_low,
        };
        let high = Piece {
            bits: high,
            rows: rows_high,
        };
        (low, Some(high))
    }

    fn fold_with<F: Folder<Self::Item>>(self, mut folder: F) -> F {
        let mut bits = SetBits::new(self.bits.iter().copied());
        let (mut rest, mut at) = (Some(self.rows), 0);
        while let Some((start, len)) = bits.next_run()
            && let Some(rows) = rest.take()
        {
            let (_, rows) = rows.split_at(start - at);
            let (run, rows) = rows.split_at(len);
            (rest, at) = (Some(rows), start + len);
            folder = folder.consume(P::slices_mut(run.into_slices()));
            if folder.full() {
                break;
            }
        }
        folder
    }
}

/// One chunk's piece, as a parallel iterator.
struct PieceIter<'a, P: Columnar + 'a>(Piece<'a, P>);

impl<'a, P: Columnar + 'a> ParallelIterator for PieceIter<'a, P>
where
    P::SlicesMut<'a>: Send,
    <P::Fields as ColumnFields>::SlicesMut<'a>: Send,
{
    type Item = P::SlicesMut<'a>;

    fn drive_unindexed<C: UnindexedConsumer<Self::Item>>(self, consumer: C) -> C::Result {
        bridge_unindexed(self.0, consumer)
    }
}

impl<P: Columnar, S, B: ColumnStorage> ColumnPool<P, S, B> {
    /// [`runs_mut`](ColumnPool::runs_mut) in parallel (the `rayon` feature): the runs of
    /// consecutive live slots, a mutable slice of each column for each, split between rayon's
    /// threads at 64-slot group boundaries.
    ///
    /// ```
    /// # use pooling::Pooled;
    /// use rayon::prelude::*;
    /// # #[derive(Pooled)]
    /// # #[pool(size = 10_000, layout = columns)]
    /// # struct Particle { x: f32, vx: f32 }
    /// let mut pool = ParticlePool::new();
    /// pool.create_many(10_000, |i, p| *p.vx = i as f32);
    /// pool.par_runs_mut().for_each(|run| {
    ///     for (x, vx) in run.x.iter_mut().zip(&*run.vx) {
    ///         *x += vx * 0.5;
    ///     }
    /// });
    /// assert!(pool.values().all(|p| *p.x == *p.vx * 0.5));
    /// ```
    pub fn par_runs_mut<'a>(&'a mut self) -> impl ParallelIterator<Item = P::SlicesMut<'a>>
    where
        P::SlicesMut<'a>: Send,
        <P::Fields as ColumnFields>::SlicesMut<'a>: Send,
    {
        let mut pieces: [Option<PieceIter<'a, P>>; POSITIONS + 1] = core::array::from_fn(|_| None);
        let sets = self.columns.sets_mut();
        let (mut first, mut grown) = (Some(sets.first), sets.grown);
        for (piece, chunk) in pieces.iter_mut().zip(self.keys.books().chunks()) {
            let rows = match first.take() {
                Some(rows) => rows,
                None => grown.take(chunk.base, chunk.objects.len()),
            };
            *piece = Some(PieceIter(Piece {
                bits: chunk.bits,
                rows,
            }));
        }
        pieces.into_par_iter().flatten().flatten()
    }
}
