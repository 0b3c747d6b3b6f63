//! What a column pool does with one object at a time: get, release, and its size and stats.

use super::store::{ColumnStorage, ColumnStore};
use super::{ColumnPool, Columnar, row_mut, slot};
use crate::{Handle, StaleHandle, Stats};

impl<P: Columnar, S, B: ColumnStorage> ColumnPool<P, S, B> {
    /// The number of slots, live or not.
    #[inline]
    pub fn capacity(&self) -> usize {
        self.keys.capacity()
    }

    /// The number of live objects.
    #[inline]
    pub fn len(&self) -> usize {
        self.keys.len()
    }

    /// Whether no object is live.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.keys.is_empty()
    }

    /// Whether every slot is in use (for a growing pool: until it grows).
    #[inline]
    pub fn is_full(&self) -> bool {
        self.keys.is_full()
    }

    /// Occupancy and traffic, as [`Pool::stats`](crate::Pool::stats) counts them.
    pub fn stats(&self) -> Stats {
        self.keys.stats()
    }

    /// The fields of the live object `handle` names; `None` if it was released.
    ///
    /// ```
    /// # use pooling::Pooled;
    /// # #[derive(Pooled)]
    /// # #[pool(size = 4, layout = columns)]
    /// # struct Particle { x: f32, y: f32 }
    /// let mut pool = ParticlePool::new();
    /// let p = pool.create(|p| (*p.x, *p.y) = (1.0, 2.0))?;
    /// let row = pool.get(p).unwrap();
    /// assert_eq!((*row.x, *row.y), (1.0, 2.0));
    /// pool.release(p)?;
    /// assert!(pool.get(p).is_none());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[inline]
    pub fn get(&self, handle: Handle<P>) -> Option<P::Ref<'_>> {
        if !self.keys.contains(slot(handle)) {
            return None;
        }
        self.columns.row(handle.index()).map(P::row)
    }

    /// The fields of the live object `handle` names, mutably; `None` if it was released.
    ///
    /// ```
    /// # use pooling::Pooled;
    /// # #[derive(Pooled)]
    /// # #[pool(size = 4, layout = columns)]
    /// # struct Particle { x: f32, y: f32 }
    /// let mut pool = ParticlePool::new();
    /// let p = pool.create(|_| {})?;
    /// *pool.get_mut(p).unwrap().y = 3.0;
    /// assert_eq!(*pool.get(p).unwrap().y, 3.0);
    /// # Ok::<(), pooling::PoolFull>(())
    /// ```
    #[inline]
    pub fn get_mut(&mut self, handle: Handle<P>) -> Option<P::Mut<'_>> {
        if !self.keys.contains(slot(handle)) {
            return None;
        }
        self.columns.row_mut(handle.index()).map(P::row_mut)
    }

    /// Whether `handle` names a live object.
    #[inline]
    pub fn contains(&self, handle: Handle<P>) -> bool {
        self.keys.contains(slot(handle))
    }

    /// Resets the object `handle` names, field by field (a `Vec` cleared, an `Rc` let go), and
    /// frees its slot. If a reset panics, the object stays live.
    ///
    /// ```
    /// # use pooling::Pooled;
    /// # #[derive(Pooled)]
    /// # #[pool(size = 4, layout = columns)]
    /// # struct Particle { trail: Vec<f32> }
    /// let mut pool = ParticlePool::new();
    /// let p = pool.create(|p| p.trail.push(1.0))?;
    /// pool.release(p)?;
    /// assert!(pool.release(p).is_err()); // stale now
    /// let q = pool.create(|_| {})?; // the same slot, a new version
    /// assert!(pool.get(q).unwrap().trail.is_empty());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    ///
    /// # Errors
    /// [`StaleHandle`] if `handle` names no live object; nothing changes.
    #[inline]
    pub fn release(&mut self, handle: Handle<P>) -> Result<(), StaleHandle> {
        if P::RESETS_AT_RELEASE {
            if !self.keys.contains(slot(handle)) {
                return Err(StaleHandle::new(handle));
            }
            P::reset_at_release(row_mut::<P, _>(&mut self.columns, handle.index()));
        }
        self.keys.release(slot(handle))
    }

    /// Releases every live object.
    pub fn release_all(&mut self) {
        self.retain(|_| false);
    }

    /// Whether the books add up; what is wrong if not. For tests and fuzzing.
    ///
    /// # Errors
    /// A description of the first inconsistency found.
    #[cfg(feature = "alloc")]
    pub fn check_consistency(&self) -> Result<(), alloc::string::String> {
        self.keys.check_consistency()
    }
}
