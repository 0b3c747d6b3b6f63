//! The runs of a column pool in parallel (the `rayon` feature): the pool's chunks split between
//! threads, then at 64-slot group boundaries, each piece's runs walked as `runs_mut` walks
//! them.

use super::rows::RowsMut;
use super::runs::chunks;
use super::store::{ColumnStorage, ColumnStore, SetRowsMut};
use super::{ColumnFields, ColumnPool, Columnar};
use crate::pool::par::{Piece, Pieces, half_groups};
use crate::slot::walk::{Chunk, Strip, Walk};
use core::iter;
use core::marker::PhantomData;
use rayon::iter::ParallelIterator;
use rayon::iter::plumbing::{Folder, UnindexedConsumer, bridge_unindexed};

/// A chunk of a column pool, or a piece of one, whose runs a thread walks.
pub(crate) struct Runs<'a, P: Columnar + 'a>(
    Chunk<'a, RowsMut<'a, P::Fields>>,
    PhantomData<fn() -> P>,
);

impl<'a, P: Columnar + 'a> Piece for Runs<'a, P> {
    type Item = P::SlicesMut<'a>;

    fn len(&self) -> usize {
        self.0.strip.len()
    }

    fn split(self) -> Result<(Self, Self), Self> {
        let at = half_groups(self.len());
        match self.0.split_at_group(at) {
            Ok((first, second)) => Ok((Self(first, PhantomData), Self(second, PhantomData))),
            Err(whole) => Err(Self(whole, PhantomData)),
        }
    }

    fn fold<F: Folder<Self::Item>>(self, mut folder: F) -> F {
        let mut walk = Walk::new(self.0, iter::empty());
        while let Some(run) = walk.next_run() {
            folder = folder.consume(P::slices_mut(run));
            if folder.full() {
                break;
            }
        }
        folder
    }
}

/// A column pool's runs, in parallel.
struct ParRuns<'a, P: Columnar + 'a>(Pieces<Runs<'a, P>>);

impl<'a, P: Columnar + 'a> ParallelIterator for ParRuns<'a, P>
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
        ParRuns(self.pieces())
    }

    /// The chunks, with their rows, for a parallel walk of their runs.
    pub(crate) fn pieces(&mut self) -> Pieces<Runs<'_, P>> {
        let SetRowsMut { first, grown } = self.columns.sets_mut();
        let (first, rest) = chunks(self.keys.books().chunks(), first, grown);
        let pieces = iter::once(first).chain(rest);
        Pieces(pieces.map(|chunk| Runs(chunk, PhantomData)).collect())
    }
}
