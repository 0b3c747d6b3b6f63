//! What a column pool does with every live object: rows, runs of column slices, retain.

use super::rows::{Rows, RowsMut};
use super::runs::{ColumnRuns, ColumnRunsMut};
use super::store::{ColumnStorage, ColumnStore};
use super::{ColumnPool, Columnar, object, row_mut};
use crate::Handle;
use core::iter::FusedIterator;

impl<P: Columnar, S, B: ColumnStorage> ColumnPool<P, S, B> {
    /// The live objects as runs of consecutive live slots, a slice of each column for each
    /// run (`ParticleSlices<'_>`), in slot order: for kernels that read many objects.
    ///
    /// ```
    /// # use pooling::Pooled;
    /// # #[derive(Pooled)]
    /// # #[pool(size = 8, layout = columns)]
    /// # struct Particle { x: f32, mass: f32 }
    /// let mut pool = ParticlePool::new();
    /// for mass in [1.0, 2.0, 3.0] {
    ///     pool.create(|p| *p.mass = mass)?;
    /// }
    /// let total: f32 = pool.runs().map(|run| run.mass.iter().sum::<f32>()).sum();
    /// assert_eq!(total, 6.0);
    /// # Ok::<(), pooling::PoolFull>(())
    /// ```
    #[inline]
    pub fn runs(&self) -> ColumnRuns<'_, P> {
        ColumnRuns::new(self.keys.books().chunks(), self.columns.sets())
    }

    /// The live objects as runs of consecutive live slots, a mutable slice of each column for
    /// each run (`ParticleSlicesMut<'_>`), in slot order: the loop over a run's slices is the
    /// one the compiler vectorizes across objects, and it streams only the columns it names.
    ///
    /// ```
    /// # use pooling::Pooled;
    /// # #[derive(Pooled)]
    /// # #[pool(size = 8, layout = columns)]
    /// # struct Particle { x: f32, vx: f32, name: String }
    /// let mut pool = ParticlePool::new();
    /// let p = pool.create(|p| *p.vx = 4.0)?;
    /// let dt = 0.25;
    /// for run in pool.runs_mut() {
    ///     // Zipped slices: no bounds check in the loop, so it vectorizes.
    ///     for (x, vx) in run.x.iter_mut().zip(&*run.vx) {
    ///         *x += vx * dt;
    ///     }
    /// }
    /// assert_eq!(*pool.get(p).unwrap().x, 1.0);
    /// # Ok::<(), pooling::PoolFull>(())
    /// ```
    #[inline]
    pub fn runs_mut(&mut self) -> ColumnRunsMut<'_, P> {
        ColumnRunsMut::new(self.keys.books().chunks(), self.columns.sets_mut())
    }

    /// The live objects' rows (`ParticleRef<'_>`), in slot order.
    ///
    /// ```
    /// # use pooling::Pooled;
    /// # #[derive(Pooled)]
    /// # #[pool(size = 8, layout = columns)]
    /// # struct Particle { x: f32 }
    /// let mut pool = ParticlePool::new();
    /// for x in [1.0, 2.0] {
    ///     pool.create(|p| *p.x = x)?;
    /// }
    /// assert_eq!(pool.values().map(|p| *p.x).sum::<f32>(), 3.0);
    /// # Ok::<(), pooling::PoolFull>(())
    /// ```
    #[inline]
    pub fn values(&self) -> ColumnValues<'_, P> {
        ColumnValues { iter: self.iter() }
    }

    /// The live objects' rows, mutably (`ParticleMut<'_>`), in slot order.
    ///
    /// ```
    /// # use pooling::Pooled;
    /// # #[derive(Pooled)]
    /// # #[pool(size = 8, layout = columns)]
    /// # struct Particle { x: f32 }
    /// let mut pool = ParticlePool::new();
    /// let p = pool.create(|p| *p.x = 1.0)?;
    /// for row in pool.values_mut() {
    ///     *row.x *= 10.0;
    /// }
    /// assert_eq!(*pool.get(p).unwrap().x, 10.0);
    /// # Ok::<(), pooling::PoolFull>(())
    /// ```
    #[inline]
    pub fn values_mut(&mut self) -> ColumnValuesMut<'_, P> {
        ColumnValuesMut {
            iter: self.iter_mut(),
        }
    }

    /// The live objects' rows with their handles, in slot order.
    ///
    /// ```
    /// # use pooling::Pooled;
    /// # #[derive(Pooled)]
    /// # #[pool(size = 8, layout = columns)]
    /// # struct Particle { x: f32 }
    /// let mut pool = ParticlePool::new();
    /// let p = pool.create(|p| *p.x = 1.0)?;
    /// let (handle, row) = pool.iter().next().unwrap();
    /// assert_eq!((handle, *row.x), (p, 1.0));
    /// # Ok::<(), pooling::PoolFull>(())
    /// ```
    #[inline]
    pub fn iter(&self) -> ColumnIter<'_, P> {
        ColumnIter {
            runs: self.runs(),
            words: &[],
            rows: None,
            at: 0,
        }
    }

    /// The live objects' rows with their handles, mutably, in slot order.
    ///
    /// ```
    /// # use pooling::{Handle, Pooled};
    /// # #[derive(Pooled)]
    /// # #[pool(size = 8, layout = columns)]
    /// # struct Node { me: Option<Handle<Node>> }
    /// let mut nodes = NodePool::new();
    /// let n = nodes.create(|_| {})?;
    /// for (handle, row) in nodes.iter_mut() {
    ///     *row.me = Some(handle);
    /// }
    /// assert_eq!(*nodes.get(n).unwrap().me, Some(n));
    /// # Ok::<(), pooling::PoolFull>(())
    /// ```
    #[inline]
    pub fn iter_mut(&mut self) -> ColumnIterMut<'_, P> {
        ColumnIterMut {
            runs: self.runs_mut(),
            run: None,
        }
    }

    /// Calls `keep` on every live object's row, and releases (resets and frees) each one for
    /// which it returns false.
    ///
    /// ```
    /// # use pooling::Pooled;
    /// # #[derive(Pooled)]
    /// # #[pool(size = 8, layout = columns)]
    /// # struct Particle { frames_left: u32 }
    /// let mut pool = ParticlePool::new();
    /// for frames in [1, 3] {
    ///     pool.create(|p| *p.frames_left = frames)?;
    /// }
    /// pool.retain(|p| {
    ///     *p.frames_left -= 1;
    ///     *p.frames_left > 0
    /// });
    /// assert_eq!(pool.len(), 1);
    /// # Ok::<(), pooling::PoolFull>(())
    /// ```
    #[inline]
    pub fn retain(&mut self, mut keep: impl FnMut(P::Mut<'_>) -> bool) {
        self.retain_with_handle(|_, row| keep(row));
    }

    /// [`retain`](ColumnPool::retain), with `keep` seeing each object's handle as well.
    pub fn retain_with_handle(&mut self, mut keep: impl FnMut(Handle<P>, P::Mut<'_>) -> bool) {
        let columns = &mut self.columns;
        self.keys.retain_with_handle(|handle, _| {
            let index = handle.index();
            let kept = keep(object(handle), row_mut::<P, _>(columns, index));
            if !kept && P::RESETS_AT_RELEASE {
                // If it panics, the object stays live, as a release's does.
                P::reset_at_release(row_mut::<P, _>(columns, index));
            }
            kept
        });
    }
}

/// The live objects' rows with their handles; see [`ColumnPool::iter`].
pub struct ColumnIter<'a, P: Columnar + 'a> {
    runs: ColumnRuns<'a, P>,
    /// The run in hand: its words, its rows, and the next row's place in it.
    words: &'a [u64],
    rows: Option<Rows<'a, P::Fields>>,
    at: usize,
}

impl<'a, P: Columnar + 'a> Iterator for ColumnIter<'a, P> {
    type Item = (Handle<P>, P::Ref<'a>);

    #[inline]
    fn next(&mut self) -> Option<Self::Item> {
        loop {
            if let Some(rows) = &self.rows
                && let Some(&word) = self.words.get(self.at)
                && let Some(row) = rows.row(self.at)
            {
                self.at += 1;
                return Some((Handle::from_live_word(word), P::row(row)));
            }
            let (words, rows) = self.runs.next_with_words()?;
            (self.words, self.rows, self.at) = (words, Some(rows), 0);
        }
    }
}

impl<'a, P: Columnar + 'a> FusedIterator for ColumnIter<'a, P> {}

/// The live objects' rows with their handles, mutably; see [`ColumnPool::iter_mut`].
pub struct ColumnIterMut<'a, P: Columnar + 'a> {
    runs: ColumnRunsMut<'a, P>,
    /// The run in hand: the words and rows not yet passed.
    run: Option<(&'a [u64], RowsMut<'a, P::Fields>)>,
}

impl<'a, P: Columnar + 'a> Iterator for ColumnIterMut<'a, P> {
    type Item = (Handle<P>, P::Mut<'a>);

    #[inline]
    fn next(&mut self) -> Option<Self::Item> {
        loop {
            if let Some((words, rows)) = self.run.take()
                && let Some((&word, words)) = words.split_first()
                && let Some((row, rows)) = rows.split_first()
            {
                self.run = Some((words, rows));
                return Some((Handle::from_live_word(word), P::row_mut(row)));
            }
            self.run = Some(self.runs.next_with_words()?);
        }
    }
}

impl<'a, P: Columnar + 'a> FusedIterator for ColumnIterMut<'a, P> {}

/// The live objects' rows; see [`ColumnPool::values`].
pub struct ColumnValues<'a, P: Columnar + 'a> {
    iter: ColumnIter<'a, P>,
}

impl<'a, P: Columnar + 'a> Iterator for ColumnValues<'a, P> {
    type Item = P::Ref<'a>;

    #[inline]
    fn next(&mut self) -> Option<P::Ref<'a>> {
        self.iter.next().map(|(_, row)| row)
    }
}

impl<'a, P: Columnar + 'a> FusedIterator for ColumnValues<'a, P> {}

/// The live objects' rows, mutably; see [`ColumnPool::values_mut`].
pub struct ColumnValuesMut<'a, P: Columnar + 'a> {
    iter: ColumnIterMut<'a, P>,
}

impl<'a, P: Columnar + 'a> Iterator for ColumnValuesMut<'a, P> {
    type Item = P::Mut<'a>;

    #[inline]
    fn next(&mut self) -> Option<P::Mut<'a>> {
        self.iter.next().map(|(_, row)| row)
    }
}

impl<'a, P: Columnar + 'a> FusedIterator for ColumnValuesMut<'a, P> {}

impl<'a, P: Columnar, S, B: ColumnStorage> IntoIterator for &'a ColumnPool<P, S, B> {
    type Item = (Handle<P>, P::Ref<'a>);
    type IntoIter = ColumnIter<'a, P>;

    fn into_iter(self) -> ColumnIter<'a, P> {
        self.iter()
    }
}

impl<'a, P: Columnar, S, B: ColumnStorage> IntoIterator for &'a mut ColumnPool<P, S, B> {
    type Item = (Handle<P>, P::Mut<'a>);
    type IntoIter = ColumnIterMut<'a, P>;

    fn into_iter(self) -> ColumnIterMut<'a, P> {
        self.iter_mut()
    }
}
