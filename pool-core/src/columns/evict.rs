//! `on_full = evict` for a column pool: its `evict_by` measure ranks rows.

use super::lease::ColumnLease;
use super::lender::ColumnLender;
use super::store::ColumnStorage;
use super::{ColumnPool, Columnar, slot};
use crate::strategy::evict::nothing_to_evict;
use crate::{Evict, Handle, Importance, PoolFull};

/// A column struct whose pool evicts when full: what `#[derive(Pooled)]` implements from
/// `#[pool(on_full = evict, evict_by = ...)]` with `layout = columns`, where the measure takes
/// a row (`|v: VoiceRef<'_>| TotalOrder(*v.volume)`).
pub trait ColumnEvictable: Columnar {
    /// How much the object whose row this is matters: of the live objects, the one ranked
    /// lowest is evicted.
    fn importance(row: Self::Ref<'_>) -> impl Importance + use<Self>;
}

impl<P: ColumnEvictable, B: ColumnStorage> ColumnPool<P, Evict, B> {
    /// Takes a free slot or, when the pool is full, releases the least important live object
    /// (its row reset) and takes its slot; hands the blank row to `init` and returns the
    /// object's handle. Choosing costs one pass over the live rows, only when the pool is
    /// full; of equals, the one in the lowest slot goes.
    ///
    /// ```
    /// use pooling::{Pooled, TotalOrder};
    ///
    /// #[derive(Pooled)]
    /// #[pool(size = 2, on_full = evict, evict_by = |v| TotalOrder(*v.volume), layout = columns)]
    /// struct Voice {
    ///     volume: f32,
    /// }
    ///
    /// let mut voices = VoicePool::new();
    /// let loud = voices.create(|v| *v.volume = 0.9);
    /// let quiet = voices.create(|v| *v.volume = 0.1);
    /// let new = voices.create(|v| *v.volume = 0.5); // full: the quiet voice goes
    /// assert!(voices.contains(loud) && voices.contains(new));
    /// assert!(!voices.contains(quiet));
    /// assert_eq!(voices.stats().evicted, 1);
    /// ```
    ///
    /// # Panics
    /// When the pool is full and holds no live object to evict (all its slots lent or
    /// retired), or when the evicted row's reset panics (the object then stays live).
    #[doc(alias = "insert", alias = "push", alias = "spawn")]
    #[inline]
    pub fn create(&mut self, init: impl FnOnce(P::Mut<'_>)) -> Handle<P> {
        self.create_with_handle(|_, row| init(row))
    }

    /// [`create`](ColumnPool::create), with `init` seeing the handle the object will have.
    ///
    /// # Panics
    /// As [`create`](ColumnPool::create).
    #[inline]
    pub fn create_with_handle(&mut self, init: impl FnOnce(Handle<P>, P::Mut<'_>)) -> Handle<P> {
        // Evicts (more than once only if an evicted slot retires) until a slot is free, so
        // that the create cannot find none.
        while !self.keys.books_mut().has_free_slot() {
            self.evict_one();
        }
        match self.try_create_with_handle(init) {
            Ok(handle) => handle,
            Err(_) => unreachable!("a slot is on the free list"),
        }
    }

    /// The live object `create` would evict if the pool were full now: the one `evict_by`
    /// ranks lowest, the lowest slot of equals; `None` when no object is live.
    ///
    /// ```
    /// # use pooling::Pooled;
    /// # #[derive(Pooled)]
    /// # #[pool(size = 2, on_full = evict, evict_by = |v| *v.volume, layout = columns)]
    /// # struct Voice { volume: u32 }
    /// let mut voices = VoicePool::new();
    /// let quiet = voices.create(|v| *v.volume = 1);
    /// voices.create(|v| *v.volume = 5);
    /// assert_eq!(voices.victim(), Some(quiet));
    /// ```
    pub fn victim(&self) -> Option<Handle<P>> {
        let ranked = self
            .iter()
            .map(|(handle, row)| (P::importance(row), handle));
        ranked
            .min_by(|(a, _), (b, _)| a.cmp(b))
            .map(|(_, handle)| handle)
    }

    /// Evicts the victim: its row reset, then its slot freed and the eviction counted.
    #[cold]
    fn evict_one(&mut self) {
        let victim = self.victim().unwrap_or_else(|| nothing_to_evict(P::NAME));
        if P::RESETS_AT_RELEASE {
            P::reset_at_release(super::row_mut::<P, _>(&mut self.columns, victim.index()));
        }
        self.keys.books_mut().evict(slot(victim));
    }
}

impl<P: ColumnEvictable, B: ColumnStorage> ColumnLender<'_, P, Evict, B> {
    /// Lends a blank row, set up by `init`. Unlike `create` it never evicts: evicting resets a
    /// live object, which someone may be reading through the lender. The same as
    /// [`try_acquire`](ColumnLender::try_acquire).
    ///
    /// # Errors
    /// [`PoolFull`] when no slot is free; `init` is not called.
    #[inline]
    pub fn acquire(&self, init: impl FnOnce(P::Mut<'_>)) -> Result<ColumnLease<'_, P>, PoolFull> {
        self.try_acquire(init)
    }
}
