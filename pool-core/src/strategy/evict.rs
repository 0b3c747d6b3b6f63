use crate::{Evictable, Handle, Lease, Lender, Pool, PoolFull, Storage};

/// A full pool evicts the live object its `evict_by` measure ranks lowest, and reuses its slot:
/// the seed's sound pool, which cuts the quietest voice to play a new one
/// (`#[pool(on_full = evict, evict_by = ...)]`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Evict;

impl<T: Evictable, B: Storage> Pool<T, Evict, B> {
    /// Takes a free slot or, when the pool is full, releases the least important live object
    /// and takes its slot; hands the blank object to `init` and returns its handle.
    ///
    /// Choosing costs one pass over the live objects, only when the pool is full; of equally
    /// unimportant objects the one in the lowest slot goes. The evicted object is reset at
    /// once, letting its references go, and its handle becomes stale. Rank floats with
    /// [`TotalOrder`](crate::TotalOrder).
    ///
    /// ```
    /// use pooling::{Pooled, TotalOrder};
    ///
    /// #[derive(Pooled)]
    /// #[pool(size = 2, on_full = evict, evict_by = |v| TotalOrder(v.volume))]
    /// struct Voice {
    ///     volume: f32,
    /// }
    ///
    /// let mut voices = VoicePool::new();
    /// let loud = voices.create(|v| v.volume = 0.9);
    /// let quiet = voices.create(|v| v.volume = 0.1);
    /// let new = voices.create(|v| v.volume = 0.5); // full: the quiet voice goes
    /// assert!(voices.contains(loud) && voices.contains(new));
    /// assert!(!voices.contains(quiet));
    /// ```
    ///
    /// # Panics
    /// When the pool is full and holds no live object to evict: a pool of capacity 0, or one
    /// whose slots are all lent or retired.
    #[doc(alias = "insert", alias = "push", alias = "spawn", alias = "alloc")]
    #[inline]
    pub fn create(&mut self, init: impl FnOnce(&mut T)) -> Handle<T> {
        self.create_with_handle(|_, object| init(object))
    }

    /// [`create`](Pool::create), with `init` seeing the handle the object will have.
    ///
    /// ```
    /// # use pooling::{Handle, Pooled};
    /// # #[derive(Pooled)]
    /// # #[pool(size = 1, on_full = evict, evict_by = |v| v.volume)]
    /// # struct Voice { volume: u32, me: Option<Handle<Voice>> }
    /// let mut voices = VoicePool::new();
    /// let first = voices.create_with_handle(|handle, v| v.me = Some(handle));
    /// let second = voices.create_with_handle(|handle, v| v.me = Some(handle)); // evicts
    /// assert_eq!(voices[second].me, Some(second));
    /// assert!(voices.get(first).is_none());
    /// ```
    ///
    /// # Panics
    /// When the pool is full and holds no live object to evict.
    #[doc(alias = "insert_with_key")]
    #[inline]
    pub fn create_with_handle(&mut self, init: impl FnOnce(Handle<T>, &mut T)) -> Handle<T> {
        // Evicts (more than once only if an evicted slot retires) until a slot is on the free
        // list, so that `create` cannot find it empty.
        while !self.books_mut().has_free_slot() {
            self.evict_one();
        }
        let Some(handle) = self.books_mut().create(init) else {
            unreachable!("a slot is on the free list");
        };
        handle
    }

    /// The live object `create` would evict if the pool were full
    /// now: the one `evict_by` ranks lowest, the lowest slot of equals. `None` when no object is
    /// live. One pass over the live objects.
    ///
    /// Look before creating, to fade out the voice that is about to be cut:
    ///
    /// ```
    /// # use pooling::Pooled;
    /// # #[derive(Pooled)]
    /// # #[pool(size = 2, on_full = evict, evict_by = |v| v.volume)]
    /// # struct Voice { volume: u32 }
    /// let mut voices = VoicePool::new();
    /// let quiet = voices.create(|v| v.volume = 1);
    /// voices.create(|v| v.volume = 5);
    /// assert_eq!(voices.victim(), Some(quiet));
    /// ```
    pub fn victim(&self) -> Option<Handle<T>> {
        self.least_important(T::importance)
    }

    /// Evicts the victim.
    #[cold]
    fn evict_one(&mut self) {
        let victim = self.victim().unwrap_or_else(|| nothing_to_evict(T::NAME));
        self.books_mut().evict(victim);
    }
}

/// Panics for the pool `name`, full and holding no live object to evict (either layout).
#[cold]
pub(crate) fn nothing_to_evict(name: &str) -> ! {
    panic!("{name} cannot evict: it is full but holds no live object")
}

impl<T: Evictable, B: Storage> Lender<'_, T, Evict, B> {
    /// Lends a blank object, set up by `init`; it comes back, reset, when the [`Lease`] drops.
    /// Unlike `create` it never evicts: evicting resets a live object, which someone may be
    /// reading through the lender. The same as [`try_acquire`](Lender::try_acquire).
    ///
    /// ```
    /// # use pooling::Pooled;
    /// # #[derive(Pooled)]
    /// # #[pool(size = 1, on_full = evict, evict_by = |v| v.volume)]
    /// # struct Voice { volume: u32 }
    /// let mut pool = VoicePool::new();
    /// let voices = pool.lender();
    /// let preview = voices.acquire(|v| v.volume = 3)?;
    /// assert!(voices.acquire(|_| {}).is_err()); // full, and leases never evict
    /// drop(preview);
    /// assert!(voices.acquire(|_| {}).is_ok());
    /// # Ok::<(), pooling::PoolFull>(())
    /// ```
    ///
    /// # Errors
    /// [`PoolFull`] when no slot is free; `init` is not called.
    #[doc(
        alias = "get",
        alias = "Get",
        alias = "get_or_create",
        alias = "pull",
        alias = "take"
    )]
    #[inline]
    pub fn acquire(&self, init: impl FnOnce(&mut T)) -> Result<Lease<'_, T>, PoolFull> {
        self.try_acquire(init)
    }
}
