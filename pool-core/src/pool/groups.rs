//! The kernel path for plain types: a pool as groups of slots, live and free alike, each with
//! its occupancy words, for kernels that run straight over every slot of a group (see
//! [`PlainFields`]). A module of its own, reached from `__private`, so that a compile error
//! names the methods by a path of the facade.

use crate::columns::{ColumnGroupsMut, ColumnStorage, Columnar};
use crate::pool::iter::{Exclusive, walk_mut};
use crate::slot::walk::{Groups, ObjectsMut, Walk};
use crate::storage::Storage;
use crate::{ColumnPool, PlainFields, Pool, Pooled};
use core::iter::FusedIterator;

impl<T: Pooled, S, B: Storage> Pool<T, S, B> {
    /// The kernel path for plain types: the pool as groups of slots, live and free alike, a
    /// mutable slice of each group with its occupancy words (`live[i / 64] >> (i % 64) & 1`
    /// set when object `i` of the slice is live), in slot order. A group is a stretch of
    /// words of 64 slots with a live one in each, up to a word with none or a chunk's end:
    /// with holes at random, a chunk is one group. A kernel runs straight over the whole
    /// group, vectorized, whatever the holes, and applies the mask only where it matters:
    /// what it reads out, not what it updates. At 90 % live that is a tenth more work and no
    /// loop cut at every hole.
    ///
    /// What a kernel writes in a free slot never shows: the next `create` there resets every
    /// field first. That is why it needs [`PlainFields`](crate::PlainFields), which the
    /// derive implements when every field is plain data (`Copy`) that reuse resets; a `Vec`
    /// field, a `#[pool(keep)]` or a `reset_with` field makes it a compile error, and
    /// [`runs_mut`](Pool::runs_mut) the path. A slot whose lease was forgotten
    /// (`mem::forget`) is handed out as not live: nothing can reach it again, so a write there
    /// is as unseen as in a free slot.
    ///
    /// ```
    /// # use pooling::Pooled;
    /// #[derive(Pooled)]
    /// #[pool(size = 256)]
    /// struct Particle { x: f32, vx: f32 }
    ///
    /// let mut pool = ParticlePool::new();
    /// let all: Vec<_> = (0..200).map(|i| pool.create(|p| p.vx = i as f32).unwrap()).collect();
    /// for &dead in all.iter().step_by(3) {
    ///     pool.release(dead)?;
    /// }
    /// let mut right = 0.0;
    /// for (live, group) in pool.groups_mut() {
    ///     // Every slot of the group, free ones too: no branch, so it vectorizes.
    ///     for p in group.iter_mut() {
    ///         p.x += p.vx * 0.5;
    ///     }
    ///     // The mask where it matters: a sum of the live objects only.
    ///     right += (0..group.len())
    ///         .filter(|&i| live[i / 64] >> (i % 64) & 1 == 1)
    ///         .map(|i| group[i].x)
    ///         .sum::<f32>();
    /// }
    /// assert_eq!(right, pool.values().map(|p| p.x).sum::<f32>());
    /// // A free slot's writes do not reach the object created there.
    /// let new = pool.create(|_| {})?;
    /// assert_eq!((pool[new].x, pool[new].vx), (0.0, 0.0));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[inline]
    pub fn groups_mut(&mut self) -> GroupsMut<'_, T>
    where
        T: PlainFields,
    {
        GroupsMut(Groups::new(walk_mut(self.books_mut().chunks_mut())))
    }
}

impl<P: Columnar, S, B: ColumnStorage> ColumnPool<P, S, B> {
    /// The kernel path for plain types: the pool as groups of slots, live and free alike, a
    /// mutable slice of each column for each group, with the group's occupancy words
    /// (`live[i / 64] >> (i % 64) & 1` set when slot `i` of the group is live), in slot order.
    /// A group is a stretch of words of 64 slots with a live one in each, up to a word with
    /// none or a chunk's end: with holes at random, a chunk is one group. A kernel runs
    /// straight over the whole group, vectorized, whatever the holes, and applies the mask
    /// only where it matters: what it reads out, not what it updates. At 90 % live that is a
    /// tenth more work and no loop cut at every hole.
    ///
    /// What a kernel writes in a free slot never shows: the next `create` there resets every
    /// field first. That is why it needs [`PlainFields`](crate::PlainFields), which the
    /// derive implements when every field is plain data (`Copy`) that reuse resets; a `Vec`
    /// field (its pushes would stay), a `#[pool(keep)]` or a `reset_with` field (reuse leaves
    /// them) makes it a compile error, and [`runs_mut`](ColumnPool::runs_mut) the path. A
    /// slot whose lease was forgotten (`mem::forget`) is handed out as not live: nothing can
    /// reach it again, so a write there is as unseen as in a free slot.
    ///
    /// ```
    /// # use pooling::Pooled;
    /// #[derive(Pooled)]
    /// #[pool(size = 256, layout = columns)]
    /// struct Particle { x: f32, vx: f32 }
    ///
    /// let mut pool = ParticlePool::new();
    /// let all: Vec<_> = (0..200).map(|i| pool.create(|p| *p.vx = i as f32).unwrap()).collect();
    /// for &dead in all.iter().step_by(3) {
    ///     pool.release(dead)?;
    /// }
    /// let mut right = 0.0;
    /// for (live, group) in pool.groups_mut() {
    ///     // Every slot of the group, free ones too: no branch, so it vectorizes.
    ///     for (x, vx) in group.x.iter_mut().zip(&*group.vx) {
    ///         *x += vx * 0.5;
    ///     }
    ///     // The mask where it matters: a sum of the live objects only.
    ///     right += (0..group.x.len())
    ///         .filter(|&i| live[i / 64] >> (i % 64) & 1 == 1)
    ///         .map(|i| group.x[i])
    ///         .sum::<f32>();
    /// }
    /// assert_eq!(right, pool.values().map(|p| *p.x).sum::<f32>());
    /// // A free slot's writes do not reach the object created there.
    /// let new = pool.create(|_| {})?;
    /// assert_eq!((*pool.get(new).unwrap().x, *pool.get(new).unwrap().vx), (0.0, 0.0));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[inline]
    pub fn groups_mut(&mut self) -> ColumnGroupsMut<'_, P>
    where
        P: PlainFields,
        P::Fields: Copy,
    {
        ColumnGroupsMut(Groups::new(self.walk_mut()))
    }
}

/// A pool's groups of slots, live and free alike, each with its occupancy words: a mutable
/// slice of the objects of each stretch of words with a live slot in each, in slot order; see
/// [`Pool::groups_mut`](crate::Pool::groups_mut).
pub struct GroupsMut<'a, T>(Groups<Walk<'a, ObjectsMut<'a, T>, Exclusive<'a, T>>>);

impl<'a, T> Iterator for GroupsMut<'a, T> {
    type Item = (&'a [u64], &'a mut [T]);

    #[inline]
    fn next(&mut self) -> Option<Self::Item> {
        self.0.next()
    }
}

impl<T> FusedIterator for GroupsMut<'_, T> {}
