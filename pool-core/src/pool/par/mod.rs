//! Parallel iteration with rayon (the `rayon` feature): the pool's chunks split between
//! threads, then at groups of 64 slots, each piece folded by the one walk (`slot/walk.rs`) as
//! the sequential loops fold theirs.

pub(crate) mod retain;
#[cfg(test)]
pub(crate) mod tests;

use crate::pool::iter::{exclusive, shared};
use crate::slot::occupancy::BITS;
use crate::slot::walk::{Chunk, Objects, ObjectsMut, Strip, Walk};
use crate::storage::Storage;
use crate::storage::part::PartMut;
use crate::{Handle, Pool, Pooled};
use alloc::vec::Vec;
use core::iter;
use core::marker::PhantomData;
use core::ops::Deref;
use rayon::iter::plumbing::{Folder, UnindexedConsumer, UnindexedProducer, bridge_unindexed};
use rayon::iter::{IntoParallelIterator, ParallelIterator};
pub(crate) use retain::{Freed, Retain};

/// A pool's chunks, or pieces of them, for a parallel walk: rayon's producer. It splits between
/// chunks while it holds more than one, at about half their slots, then its chunk at about half
/// its groups of 64 slots.
pub(crate) struct Pieces<C>(pub(crate) Vec<C>);

/// A chunk, or a piece of one from a group of 64 slots on, as a parallel walk folds it.
pub(crate) trait Piece: Sized {
    type Item;

    fn len(&self) -> usize;

    /// The piece split at a group boundary about halfway; `Err` when it holds one group.
    fn split(self) -> Result<(Self, Self), Self>;

    fn fold<F: Folder<Self::Item>>(self, folder: F) -> F;
}

impl<C: Piece + Send> UnindexedProducer for Pieces<C> {
    type Item = C::Item;

    fn split(mut self) -> (Self, Option<Self>) {
        if self.0.len() > 1 {
            let half = self.0.iter().map(Piece::len).sum::<usize>() / 2;
            let mut before = 0;
            let at = (self.0.iter())
                .take_while(|piece| {
                    before += piece.len();
                    before < half
                })
                .count();
            let later = self.0.split_off(at.clamp(1, self.0.len() - 1));
            return (self, Some(Self(later)));
        }
        match self.0.pop().map(Piece::split) {
            Some(Ok((first, second))) => {
                (Self(alloc::vec![first]), Some(Self(alloc::vec![second])))
            }
            Some(Err(whole)) => (Self(alloc::vec![whole]), None),
            None => (self, None),
        }
    }

    fn fold_with<F: Folder<C::Item>>(self, mut folder: F) -> F {
        for piece in self.0 {
            if folder.full() {
                break;
            }
            folder = piece.fold(folder);
        }
        folder
    }
}

/// The pieces in parallel: what a column pool's `par_runs_mut` and `par_groups_mut` return.
impl<C: Piece<Item: Send> + Send> ParallelIterator for Pieces<C> {
    type Item = C::Item;

    fn drive_unindexed<D: UnindexedConsumer<Self::Item>>(self, consumer: D) -> D::Result {
        bridge_unindexed(self, consumer)
    }
}

/// Half a piece's groups, in slots: where it splits.
pub(crate) fn half_groups(len: usize) -> usize {
    len.div_ceil(BITS) / 2 * BITS
}

/// What a walk hands out for each live slot: the slot with its handle, or alone.
pub(crate) trait Pick<I> {
    type Item;
    fn pick(word: u64, one: I) -> Self::Item;
}

/// Each object with its handle.
pub(crate) struct Handles;

/// Each object alone.
pub(crate) struct Values;

/// For a shared or a mutable reference to an object alike.
impl<I: Deref<Target: Sized>> Pick<I> for Handles {
    type Item = (Handle<I::Target>, I);

    #[inline]
    fn pick(word: u64, object: I) -> Self::Item {
        (Handle::from_live_word(word), object)
    }
}

impl<I> Pick<I> for Values {
    type Item = I;

    #[inline]
    fn pick(_: u64, one: I) -> I {
        one
    }
}

/// A chunk's live slots, each as `K` picks it.
pub(crate) struct Each<'a, S, K>(pub(crate) Chunk<'a, S>, PhantomData<fn() -> K>);

impl<'a, S, K> Each<'a, S, K> {
    pub(crate) fn new(chunk: Chunk<'a, S>) -> Self {
        Self(chunk, PhantomData)
    }
}

impl<'a, S: Strip<'a>, K: Pick<S::One>> Piece for Each<'a, S, K> {
    type Item = K::Item;

    fn len(&self) -> usize {
        self.0.strip.len()
    }

    fn split(self) -> Result<(Self, Self), Self> {
        let at = half_groups(self.len());
        match self.0.split_at_group(at) {
            Ok((first, second)) => Ok((Self::new(first), Self::new(second))),
            Err(whole) => Err(Self::new(whole)),
        }
    }

    #[inline]
    fn fold<F: Folder<K::Item>>(self, folder: F) -> F {
        let walk = Walk::new(self.0, iter::empty());
        walk.fold(folder, |folder, word, one| {
            folder.consume(K::pick(word, one))
        })
    }
}

/// A chunk whole, with its books: what `par_retain`'s parts take.
impl<T> Piece for PartMut<'_, T> {
    type Item = Self;

    fn len(&self) -> usize {
        self.objects.len()
    }

    fn split(self) -> Result<(Self, Self), Self> {
        let at = half_groups(self.len());
        self.split_at_group(at)
    }

    fn fold<F: Folder<Self>>(self, folder: F) -> F {
        folder.consume(self)
    }
}

/// A parallel iterator of `Pieces`: each public one below is one of these.
macro_rules! par_iter {
    ($(#[$doc:meta])* $name:ident, $strip:ident, $pick:ident, $item:ty, $($bound:tt)*) => {
        $(#[$doc])*
        pub struct $name<'a, T>(Pieces<Each<'a, $strip<'a, T>, $pick>>);

        impl<'a, T: $($bound)* + 'a> ParallelIterator for $name<'a, T> {
            type Item = $item;

            fn drive_unindexed<C: UnindexedConsumer<Self::Item>>(self, consumer: C) -> C::Result {
                bridge_unindexed(self.0, consumer)
            }
        }
    };
}

par_iter!(
    /// The live objects of a pool with their handles, in parallel: `pool.par_iter()` with
    /// rayon's prelude in scope (the `rayon` feature).
    ParIter, Objects, Handles, (Handle<T>, &'a T), Send + Sync
);
par_iter!(
    /// The live objects of a pool with their handles, mutably, in parallel:
    /// `pool.par_iter_mut()` with rayon's prelude in scope (the `rayon` feature).
    ParIterMut, ObjectsMut, Handles, (Handle<T>, &'a mut T), Send
);
par_iter!(
    /// The live objects of a pool, in parallel; see [`Pool::par_values`].
    ParValues, Objects, Values, &'a T, Send + Sync
);
par_iter!(
    /// The live objects of a pool, mutably, in parallel; see [`Pool::par_values_mut`].
    ParValuesMut, ObjectsMut, Values, &'a mut T, Send
);

impl<T: Pooled, S, B: Storage> Pool<T, S, B> {
    /// The chunks, shared, for a parallel walk.
    fn pieces<K>(&self) -> Pieces<Each<'_, Objects<'_, T>, K>> {
        Pieces(
            self.books()
                .chunks()
                .map(|part| Each::new(shared(part)))
                .collect(),
        )
    }

    /// The chunks, mutably, for a parallel walk.
    fn pieces_mut<K>(&mut self) -> Pieces<Each<'_, ObjectsMut<'_, T>, K>> {
        let chunks = self.books_mut().chunks_mut();
        Pieces(chunks.map(|part| Each::new(exclusive(part))).collect())
    }
}

/// `pool.par_iter()`: the live objects with their handles, in parallel, for a pool that is
/// `Sync`.
impl<'a, T, S, B> IntoParallelIterator for &'a Pool<T, S, B>
where
    T: Pooled + Send + Sync + 'a,
    B: Storage,
{
    type Iter = ParIter<'a, T>;
    type Item = (Handle<T>, &'a T);

    fn into_par_iter(self) -> ParIter<'a, T> {
        ParIter(self.pieces())
    }
}

/// `pool.par_iter_mut()`: the live objects with their handles, mutably, in parallel.
impl<'a, T, S, B> IntoParallelIterator for &'a mut Pool<T, S, B>
where
    T: Pooled + Send + 'a,
    B: Storage,
{
    type Iter = ParIterMut<'a, T>;
    type Item = (Handle<T>, &'a mut T);

    fn into_par_iter(self) -> ParIterMut<'a, T> {
        ParIterMut(self.pieces_mut())
    }
}

impl<T: Pooled, S, B: Storage> Pool<T, S, B> {
    /// The live objects, in parallel with rayon (the `rayon` feature). The work splits at
    /// chunks and at groups of 64 slots.
    ///
    /// ```
    /// # use pooling::Pooled;
    /// use rayon::prelude::*;
    /// # #[derive(Pooled)]
    /// # #[pool(size = 256)]
    /// # struct Particle { x: f64 }
    /// let mut pool = ParticlePool::new();
    /// for i in 0..200 {
    ///     pool.try_create(|p| p.x = f64::from(i))?;
    /// }
    /// let sum: f64 = pool.par_values().map(|p| p.x).sum();
    /// assert_eq!(sum, pool.values().map(|p| p.x).sum());
    /// # Ok::<(), pooling::PoolFull>(())
    /// ```
    pub fn par_values(&self) -> ParValues<'_, T>
    where
        T: Send + Sync,
    {
        ParValues(self.pieces())
    }

    /// The live objects, mutably, in parallel with rayon (the `rayon` feature): the "animate
    /// everything" loop of [`values_mut`](Pool::values_mut) on every core. The work splits at
    /// chunks and at groups of 64 slots.
    ///
    /// ```
    /// # use pooling::Pooled;
    /// use rayon::prelude::*;
    /// # #[derive(Pooled)]
    /// # #[pool(size = 256)]
    /// # struct Particle { x: f64, x_velocity: f64 }
    /// let mut pool = ParticlePool::new();
    /// let p = pool.try_create(|p| p.x_velocity = 2.0)?;
    /// pool.par_values_mut().for_each(|p| p.x += p.x_velocity);
    /// assert_eq!(pool[p].x, 2.0);
    /// # Ok::<(), pooling::PoolFull>(())
    /// ```
    pub fn par_values_mut(&mut self) -> ParValuesMut<'_, T>
    where
        T: Send,
    {
        ParValuesMut(self.pieces_mut())
    }

    /// [`retain`](Pool::retain) in parallel with rayon (the `rayon` feature): calls `keep` on
    /// every live object, and releases (resets and frees) each one for which it returns false,
    /// the resets in parallel too.
    ///
    /// The pool ends as `retain` would leave it: the same objects, the same free list (so the
    /// next `create`s take the same slots), the same [`Stats`](crate::Stats). If `keep` or a
    /// reset panics, the panic reaches the caller once every part has stopped, and the objects
    /// visited so far are released or kept as decided, the rest untouched.
    ///
    /// ```
    /// # use pooling::Pooled;
    /// use rayon::prelude::*;
    /// # #[derive(Pooled)]
    /// # #[pool(size = 256)]
    /// # struct Particle { frames_left: u32 }
    /// let mut pool = ParticlePool::new();
    /// for frames in 0..200 {
    ///     pool.try_create(|p| p.frames_left = frames % 4)?;
    /// }
    /// pool.par_retain(|p| {
    ///     p.frames_left = p.frames_left.saturating_sub(1);
    ///     p.frames_left > 0
    /// });
    /// assert_eq!(pool.len(), 100);
    /// assert_eq!(pool.stats().released, 100);
    /// # Ok::<(), pooling::PoolFull>(())
    /// ```
    pub fn par_retain(&mut self, keep: impl Fn(&mut T) -> bool + Send + Sync)
    where
        T: Send,
    {
        self.books_mut().par_retain(&keep);
    }
}
