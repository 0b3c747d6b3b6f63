//! The runs and groups of a column pool in parallel (the `rayon` feature): the pool's chunks
//! split between threads, then at 64-slot group boundaries, each piece's runs walked as
//! `runs_mut` walks them, or its groups as `groups_mut` does.

use super::rows::RowsMut;
use super::runs::chunks;
use super::store::{ColumnStorage, ColumnStore, SetRowsMut};
use super::{ColumnFields, ColumnPool, Columnar};
use crate::PlainFields;
use crate::pool::par::{Piece, Pieces, half_groups};
use crate::slot::walk::{Chunk, Groups, Strip, Walk};
use core::iter;
use core::marker::PhantomData;
use rayon::iter::ParallelIterator;
use rayon::iter::plumbing::Folder;

/// A chunk of a column pool, or a piece of one, whose runs (`K` = [`ByRun`]) or groups
/// ([`ByGroup`]) a thread walks.
pub(crate) struct Runs<'a, P: Columnar + 'a, K = ByRun>(
    Chunk<'a, RowsMut<'a, P::Fields>>,
    PhantomData<fn() -> (P, K)>,
);

/// A piece handing out its runs of live rows.
pub(crate) struct ByRun;

/// A piece handing out its groups, free rows included.
pub(crate) struct ByGroup;

/// What a piece hands out of its chunk: its runs ([`ByRun`]) or its groups ([`ByGroup`]).
pub(crate) trait Kernel<'a, P: Columnar + 'a> {
    type Item;

    /// Hands `folder` the runs or groups of `chunk`, in slot order, until it is full.
    fn fold<F: Folder<Self::Item>>(chunk: Chunk<'a, RowsMut<'a, P::Fields>>, folder: F) -> F;
}

impl<'a, P: Columnar + 'a> Kernel<'a, P> for ByRun {
    type Item = P::SlicesMut<'a>;

    fn fold<F: Folder<Self::Item>>(chunk: Chunk<'a, RowsMut<'a, P::Fields>>, folder: F) -> F {
        let mut walk = Walk::new(chunk, iter::empty());
        folder.consume_iter(iter::from_fn(|| walk.next_run()).map(P::slices_mut))
    }
}

impl<'a, P: Columnar + 'a> Kernel<'a, P> for ByGroup {
    type Item = (&'a [u64], P::SlicesMut<'a>);

    fn fold<F: Folder<Self::Item>>(chunk: Chunk<'a, RowsMut<'a, P::Fields>>, folder: F) -> F {
        let mut groups = Groups::new(Walk::new(chunk, iter::empty()));
        let groups = iter::from_fn(|| groups.next());
        folder.consume_iter(groups.map(|(live, group)| (live, P::slices_mut(group))))
    }
}

impl<'a, P: Columnar + 'a, K: Kernel<'a, P>> Piece for Runs<'a, P, K> {
    type Item = K::Item;

    fn len(&self) -> usize {
        self.0.strip.len()
    }

    fn split(self) -> Result<(Self, Self), Self> {
        match self.0.split_at_group(half_groups(self.len())) {
            Ok((first, second)) => Ok((Self(first, PhantomData), Self(second, PhantomData))),
            Err(whole) => Err(Self(whole, PhantomData)),
        }
    }

    fn fold<F: Folder<K::Item>>(self, folder: F) -> F {
        K::fold(self.0, folder)
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
        self.pieces::<ByRun>()
    }

    /// [`groups_mut`](ColumnPool::groups_mut) in parallel (the `rayon` feature): the groups of
    /// slots, live and free alike, a mutable slice of each column for each with its occupancy
    /// words, split between rayon's threads at 64-slot boundaries (where a group ends too).
    /// The parallel kernel path for a struct of plain fields, whatever the holes.
    ///
    /// ```
    /// # use pooling::Pooled;
    /// use rayon::prelude::*;
    /// # #[derive(Pooled)]
    /// # #[pool(size = 10_000, layout = columns)]
    /// # struct Particle { x: f32, vx: f32 }
    /// let mut pool = ParticlePool::new();
    /// let all: Vec<_> = (0..10_000).map(|i| pool.create(|p| *p.vx = i as f32).unwrap()).collect();
    /// for &dead in all.iter().step_by(3) {
    ///     pool.release(dead)?;
    /// }
    /// pool.par_groups_mut().for_each(|(_, group)| {
    ///     // Every row of the group, free ones too: no branch, so it vectorizes.
    ///     for (x, vx) in group.x.iter_mut().zip(&*group.vx) {
    ///         *x += vx * 0.5;
    ///     }
    /// });
    /// assert!(pool.values().all(|p| *p.x == *p.vx * 0.5));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn par_groups_mut<'a>(
        &'a mut self,
    ) -> impl ParallelIterator<Item = (&'a [u64], P::SlicesMut<'a>)>
    where
        P: PlainFields,
        P::Fields: Copy,
        P::SlicesMut<'a>: Send,
        <P::Fields as ColumnFields>::SlicesMut<'a>: Send,
    {
        self.pieces::<ByGroup>()
    }

    /// The chunks, with their rows, for a parallel walk of their runs or groups.
    pub(crate) fn pieces<K>(&mut self) -> Pieces<Runs<'_, P, K>> {
        let SetRowsMut { first, grown } = self.columns.sets_mut();
        let (first, rest) = chunks(self.keys.books().chunks(), first, grown);
        let pieces = iter::once(first).chain(rest);
        Pieces(pieces.map(|chunk| Runs(chunk, PhantomData)).collect())
    }
}
