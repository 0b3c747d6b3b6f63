//! Creating objects in a column pool: what each strategy does when the pool is full, as a
//! [`Pool`](crate::Pool)'s strategies do.

use super::store::{ColumnStorage, ColumnStore};
use super::{ColumnPool, Columnar, Row, object, row_mut};
#[cfg(feature = "alloc")]
use crate::strategy::grow::limit;
use crate::{Fail, Handle, Panic, PoolFull};
use scopeguard::ScopeGuard;

/// Resets the row of the slot `handle` names and hands it to `init`; if `init` unwinds, resets
/// what it wrote, as the slot stays free.
#[inline]
fn fill<P: Columnar>(
    columns: &mut impl ColumnStore<P::Fields>,
    handle: Handle<Row<P>>,
    init: impl FnOnce(Handle<P>, P::Mut<'_>),
) {
    let index = handle.index();
    let mut columns = scopeguard::guard(columns, |columns| {
        P::reset_at_release(row_mut::<P, _>(columns, index));
    });
    let mut row = row_mut::<P, _>(&mut **columns, index);
    P::reset_at_reuse(&mut row);
    init(object(handle), row);
    ScopeGuard::into_inner(columns);
}

impl<P: Columnar, S, B: ColumnStorage> ColumnPool<P, S, B> {
    /// Takes a free slot, hands its blank row to `init`, and returns the object's handle; an
    /// error, changing nothing but [`Stats::failed`](crate::Stats::failed), when no slot is
    /// free. It never grows, evicts or panics, whatever the strategy. If `init` panics, the
    /// row is reset and the slot stays free.
    ///
    /// ```
    /// # use pooling::Pooled;
    /// # #[derive(Pooled)]
    /// # #[pool(size = 1, layout = columns)]
    /// # struct Particle { frames_left: u32, x: f64 }
    /// let mut pool = ParticlePool::new();
    /// let p = pool.try_create(|p| *p.frames_left = 30)?;
    /// assert_eq!(*pool.get(p).unwrap().x, 0.0); // what init did not set is blank
    /// assert!(pool.try_create(|_| {}).is_err()); // full
    /// # Ok::<(), pooling::PoolFull>(())
    /// ```
    ///
    /// # Errors
    /// [`PoolFull`] when every slot is live or retired; `init` is not called.
    #[inline]
    pub fn try_create(&mut self, init: impl FnOnce(P::Mut<'_>)) -> Result<Handle<P>, PoolFull> {
        self.try_create_with_handle(|_, row| init(row))
    }

    /// [`try_create`](ColumnPool::try_create), with `init` seeing the handle the object will
    /// have.
    ///
    /// # Errors
    /// [`PoolFull`] when every slot is live or retired; `init` is not called.
    #[inline]
    pub fn try_create_with_handle(
        &mut self,
        init: impl FnOnce(Handle<P>, P::Mut<'_>),
    ) -> Result<Handle<P>, PoolFull> {
        let columns = &mut self.columns;
        (self.keys)
            .try_create_with_handle(|handle, _| fill::<P>(columns, handle, init))
            .map(object)
    }

    /// Creates up to `count` objects, each set up by `init` with its number in the burst, in
    /// as many free slots as there are; how many it created. As
    /// [`Pool::create_many`](crate::Pool::create_many): it never grows, evicts or panics for a
    /// full pool, and a burst cut short counts one refusal.
    ///
    /// ```
    /// # use pooling::Pooled;
    /// # #[derive(Pooled)]
    /// # #[pool(size = 100, layout = columns)]
    /// # struct Particle { x: f32 }
    /// let mut pool = ParticlePool::new();
    /// assert_eq!(pool.create_many(60, |i, p| *p.x = i as f32), 60);
    /// assert_eq!(pool.create_many(60, |_, _| {}), 40, "as many as there is room for");
    /// ```
    #[inline]
    pub fn create_many(&mut self, count: usize, mut init: impl FnMut(usize, P::Mut<'_>)) -> usize {
        self.create_many_with_handle(count, |i, _, row| init(i, row))
    }

    /// [`create_many`](ColumnPool::create_many), with `init` seeing the handle each object
    /// will have.
    #[inline]
    pub fn create_many_with_handle(
        &mut self,
        count: usize,
        mut init: impl FnMut(usize, Handle<P>, P::Mut<'_>),
    ) -> usize {
        let columns = &mut self.columns;
        (self.keys).create_many_with_handle(count, |at, handle, _| {
            fill::<P>(columns, handle, |handle, row| init(at, handle, row));
        })
    }
}

impl<P: Columnar, B: ColumnStorage> ColumnPool<P, Fail, B> {
    /// Takes a free slot, hands its blank row to `init`, and returns the object's handle; an
    /// error when the pool is full. The same as [`try_create`](ColumnPool::try_create).
    ///
    /// ```
    /// # use pooling::Pooled;
    /// # #[derive(Pooled)]
    /// # #[pool(size = 1, layout = columns)]
    /// # struct Particle { frames_left: u32 }
    /// let mut pool = ParticlePool::new();
    /// let p = pool.create(|p| *p.frames_left = 30)?;
    /// assert_eq!(*pool.get(p).unwrap().frames_left, 30);
    /// assert!(pool.create(|_| {}).is_err()); // full
    /// # Ok::<(), pooling::PoolFull>(())
    /// ```
    ///
    /// # Errors
    /// [`PoolFull`] when every slot is in use; `init` is not called.
    #[doc(alias = "insert", alias = "push", alias = "spawn")]
    #[inline]
    pub fn create(&mut self, init: impl FnOnce(P::Mut<'_>)) -> Result<Handle<P>, PoolFull> {
        self.try_create(init)
    }

    /// [`create`](ColumnPool::create), with `init` seeing the handle the object will have.
    ///
    /// # Errors
    /// [`PoolFull`] when every slot is in use; `init` is not called.
    #[inline]
    pub fn create_with_handle(
        &mut self,
        init: impl FnOnce(Handle<P>, P::Mut<'_>),
    ) -> Result<Handle<P>, PoolFull> {
        self.try_create_with_handle(init)
    }
}

impl<P: Columnar, B: ColumnStorage> ColumnPool<P, Panic, B> {
    /// Takes a free slot, hands its blank row to `init`, and returns the object's handle.
    ///
    /// ```should_panic
    /// # use pooling::Pooled;
    /// # #[derive(Pooled)]
    /// # #[pool(size = 1, on_full = panic, layout = columns)]
    /// # struct Boss { health: u32 }
    /// let mut bosses = BossPool::new();
    /// bosses.create(|b| *b.health = 900);
    /// bosses.create(|b| *b.health = 900); // panics: "BossPool is full: ..."
    /// ```
    ///
    /// # Panics
    /// When every slot is in use.
    #[inline]
    pub fn create(&mut self, init: impl FnOnce(P::Mut<'_>)) -> Handle<P> {
        self.create_with_handle(|_, row| init(row))
    }

    /// [`create`](ColumnPool::create), with `init` seeing the handle the object will have.
    ///
    /// # Panics
    /// When every slot is in use.
    #[inline]
    pub fn create_with_handle(&mut self, init: impl FnOnce(Handle<P>, P::Mut<'_>)) -> Handle<P> {
        let columns = &mut self.columns;
        object(
            self.keys
                .create_with_handle(|handle, _| fill::<P>(columns, handle, init)),
        )
    }
}

#[cfg(feature = "alloc")]
impl<P: Columnar, const MAX: usize> ColumnPool<P, crate::Grow<MAX>> {
    /// Takes a free slot, adding a chunk of slots (and of each column) when the pool is full,
    /// hands its blank row to `init`, and returns the object's handle; an error when the pool
    /// holds `MAX` slots and all are in use.
    ///
    /// ```
    /// # use pooling::Pooled;
    /// # #[derive(Pooled)]
    /// # #[pool(size = 2, on_full = grow, max = 8, layout = columns)]
    /// # struct Enemy { health: u32 }
    /// let mut enemies = EnemyPool::new();
    /// let first = enemies.create(|e| *e.health = 10)?;
    /// for _ in 0..7 {
    ///     enemies.create(|e| *e.health = 10)?;
    /// }
    /// assert_eq!(enemies.capacity(), 8);
    /// assert!(enemies.create(|_| {}).is_err()); // at `max`
    /// assert_eq!(*enemies.get(first).unwrap().health, 10);
    /// # Ok::<(), pooling::PoolFull>(())
    /// ```
    ///
    /// # Errors
    /// [`PoolFull`] when every slot is in use and the pool holds `MAX` slots; `init` is not
    /// called.
    #[inline]
    pub fn create(&mut self, init: impl FnOnce(P::Mut<'_>)) -> Result<Handle<P>, PoolFull> {
        self.create_with_handle(|_, row| init(row))
    }

    /// [`create`](ColumnPool::create), with `init` seeing the handle the object will have.
    ///
    /// # Errors
    /// [`PoolFull`] when every slot is in use and the pool holds `MAX` slots; `init` is not
    /// called.
    #[inline]
    pub fn create_with_handle(
        &mut self,
        init: impl FnOnce(Handle<P>, P::Mut<'_>),
    ) -> Result<Handle<P>, PoolFull> {
        if self.is_full() {
            let limit = limit::<MAX>(self.capacity());
            if !self.keys.books_mut().grow(limit) {
                return Err(self.keys.refuse());
            }
            // If a field's blank value panics, the new chunk goes back (it holds nothing yet),
            // so that no slot is ever without its row.
            let mut pool = scopeguard::guard(&mut *self, |pool| {
                pool.keys.shrink();
                pool.fit_columns();
            });
            pool.fit_columns();
            ScopeGuard::into_inner(pool);
        }
        self.try_create_with_handle(init)
    }

    /// Gives back the chunks the pool added that hold no live object, and the rows of each
    /// column they held; how many slots it freed.
    ///
    /// ```
    /// # use pooling::Pooled;
    /// # #[derive(Pooled)]
    /// # #[pool(size = 2, on_full = grow, max = 8, layout = columns)]
    /// # struct Enemy { health: u32 }
    /// let mut enemies = EnemyPool::new();
    /// let wave: Vec<_> = (0..5).map(|_| enemies.create(|_| {}).unwrap()).collect();
    /// for enemy in wave {
    ///     enemies.release(enemy)?;
    /// }
    /// assert_eq!(enemies.shrink(), 6);
    /// assert_eq!(enemies.capacity(), 2);
    /// # Ok::<(), pooling::StaleHandle>(())
    /// ```
    pub fn shrink(&mut self) -> usize {
        let freed = self.keys.shrink();
        self.fit_columns();
        freed
    }
}
