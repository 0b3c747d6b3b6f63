//! Parallel iteration with rayon (the `rayon` feature): the pool's slots split into spans at
//! chunk and 64-slot group boundaries, each walked as the sequential iterators walk them.

pub(crate) mod retain;
pub(crate) mod span;
#[cfg(test)]
mod tests;

use crate::storage::Storage;
use crate::{Handle, Pool, Pooled};
use rayon::iter::plumbing::{UnindexedConsumer, bridge_unindexed};
use rayon::iter::{IntoParallelIterator, ParallelIterator};
pub(crate) use retain::{Freed, Retain};
pub(crate) use span::Runs;
use span::{Handles, Objects, Span, SpanMut, Walked, WalkedMut};

/// The live objects of a pool with their handles, in parallel: `pool.par_iter()` with rayon's
/// prelude in scope (the `rayon` feature).
pub struct ParIter<'a, T>(Walked<'a, T, Handles>);

/// The live objects of a pool with their handles, mutably, in parallel: `pool.par_iter_mut()`
/// with rayon's prelude in scope (the `rayon` feature).
pub struct ParIterMut<'a, T>(WalkedMut<'a, T, Handles>);

/// The live objects of a pool, in parallel; see [`Pool::par_values`].
pub struct ParValues<'a, T>(Walked<'a, T, Objects>);

/// The live objects of a pool, mutably, in parallel; see [`Pool::par_values_mut`].
pub struct ParValuesMut<'a, T>(WalkedMut<'a, T, Objects>);

impl<'a, T: Send + Sync + 'a> ParallelIterator for ParIter<'a, T> {
    type Item = (Handle<T>, &'a T);

    fn drive_unindexed<C: UnindexedConsumer<Self::Item>>(self, consumer: C) -> C::Result {
        bridge_unindexed(self.0, consumer)
    }
}

impl<'a, T: Send + 'a> ParallelIterator for ParIterMut<'a, T> {
    type Item = (Handle<T>, &'a mut T);

    fn drive_unindexed<C: UnindexedConsumer<Self::Item>>(self, consumer: C) -> C::Result {
        bridge_unindexed(self.0, consumer)
    }
}

impl<'a, T: Send + Sync + 'a> ParallelIterator for ParValues<'a, T> {
    type Item = &'a T;

    fn drive_unindexed<C: UnindexedConsumer<Self::Item>>(self, consumer: C) -> C::Result {
        bridge_unindexed(self.0, consumer)
    }
}

impl<'a, T: Send + 'a> ParallelIterator for ParValuesMut<'a, T> {
    type Item = &'a mut T;

    fn drive_unindexed<C: UnindexedConsumer<Self::Item>>(self, consumer: C) -> C::Result {
        bridge_unindexed(self.0, consumer)
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
        ParIter(Walked::new(Span::new(self.books().parts())))
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
        ParIterMut(WalkedMut::new(SpanMut::new(self.books_mut().parts_mut())))
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
        ParValues(Walked::new(Span::new(self.books().parts())))
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
        ParValuesMut(WalkedMut::new(SpanMut::new(self.books_mut().parts_mut())))
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
