//! What a column pool does with every live object: rows, runs of column slices, retain.

use super::runs::{ColumnRuns, ColumnRunsMut, RowWalk, RowWalkMut, chunks};
use super::store::{ColumnStorage, ColumnStore, GrownSets, SetRows, SetRowsMut};
use super::{ColumnPool, Columnar, object};
use crate::Handle;
use crate::slot::walk::{Strip, Walk};
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
        ColumnRuns(self.walk())
    }

    fn walk(&self) -> RowWalk<'_, P> {
        let SetRows { first, grown } = self.columns.sets();
        let (first, rest) = chunks(self.keys.books().chunks(), first, grown);
        Walk::new(first, rest)
    }

    pub(crate) fn walk_mut(&mut self) -> RowWalkMut<'_, P> {
        let SetRowsMut { first, grown } = self.columns.sets_mut();
        let (first, rest) = chunks(self.keys.books().chunks(), first, grown);
        Walk::new(first, rest)
    }

    /// The live objects as runs of consecutive live slots, a mutable slice of each column for
    /// each run (`ParticleSlicesMut<'_>`), in slot order: the loop over a run's slices is the
    /// one the compiler vectorizes across objects, and it streams only the columns it names.
    /// With holes at random a run is short (about ten objects at 90 % live): for a struct of
    /// plain fields, [`groups_mut`](ColumnPool::groups_mut) is the kernel path there, one
    /// loop over a whole chunk, free rows included.
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
        ColumnRunsMut(self.walk_mut())
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
        ColumnValues(self.walk())
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
        ColumnValuesMut(self.walk_mut())
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
        ColumnIter(self.walk())
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
        ColumnIterMut(self.walk_mut())
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
        let SetRowsMut { first, mut grown } = self.columns.sets_mut();
        let mut first = Some(first);
        (self.keys.books_mut()).retain_in(
            |base, slots| match first.take() {
                Some(first) => first.split_at(slots.len()).0,
                None => grown.rows(base, slots.len()),
            },
            !P::RESETS_AT_RELEASE,
            |word, row| keep(object(Handle::from_live_word(word)), P::row_mut(row)),
            |row| {
                if P::RESETS_AT_RELEASE {
                    P::reset_at_release(P::row_mut(row));
                }
            },
        );
    }
}

/// An iterator of a column pool: the walk, and what it makes of each live slot's word and row.
macro_rules! rows {
    ($(#[$doc:meta])* $name:ident, $walk:ident, $item:ty, |$word:ident, $row:ident| $make:expr) => {
        $(#[$doc])*
        pub struct $name<'a, P: Columnar + 'a>($walk<'a, P>);

        impl<'a, P: Columnar + 'a> Iterator for $name<'a, P> {
            type Item = $item;

            #[inline]
            fn next(&mut self) -> Option<Self::Item> {
                let ($word, $row) = self.0.next()?;
                Some($make)
            }

            /// A stretch of full words in one loop over its rows, which the compiler
            /// vectorizes across objects; the other words bit by bit.
            #[inline]
            fn fold<B, F: FnMut(B, Self::Item) -> B>(self, init: B, mut f: F) -> B {
                self.0.fold(init, |acc, $word, $row| f(acc, $make))
            }
        }

        impl<'a, P: Columnar + 'a> FusedIterator for $name<'a, P> {}
    };
}

rows!(
    /// The live objects' rows with their handles; see [`ColumnPool::iter`].
    ColumnIter,
    RowWalk,
    (Handle<P>, P::Ref<'a>),
    |word, row| (object(Handle::from_live_word(word)), P::row(row))
);
rows!(
    /// The live objects' rows with their handles, mutably; see [`ColumnPool::iter_mut`].
    ColumnIterMut,
    RowWalkMut,
    (Handle<P>, P::Mut<'a>),
    |word, row| (object(Handle::from_live_word(word)), P::row_mut(row))
);
rows!(
    /// The live objects' rows; see [`ColumnPool::values`].
    ColumnValues,
    RowWalk,
    P::Ref<'a>,
    |_word, row| P::row(row)
);
rows!(
    /// The live objects' rows, mutably; see [`ColumnPool::values_mut`].
    ColumnValuesMut,
    RowWalkMut,
    P::Mut<'a>,
    |_word, row| P::row_mut(row)
);

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
