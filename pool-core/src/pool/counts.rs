use crate::slot::shared::{SharedU64, SharedUsize};

/// The counts behind [`Stats`](crate::Stats) that it cannot derive from the slots.
///
/// Creations and releases are counted apart, each by its own operation, rather than as one
/// count of live objects that both move: a release followed by a create then updates two
/// counts once each, not one count twice, which halves the chain of dependent memory updates
/// in a churning loop. In shared cells, so that leases can count through `&Pool`: through
/// `&self` they change only under the pool's lock (see `Lock`), and through `&mut self` with
/// plain loads and stores (the `_mut` methods).
pub(crate) struct Counts {
    /// Objects created or lent.
    created: SharedU64,
    /// Objects released, evicted or given back by a lease.
    released: SharedU64,
    /// Objects lent to leases now.
    leased: SharedUsize,
    high_water: SharedUsize,
    failed: SharedU64,
    evicted: SharedU64,
    retired: SharedUsize,
}

impl Counts {
    /// Nothing counted yet.
    #[cfg(not(loom))]
    pub(crate) const fn new() -> Self {
        Self {
            created: SharedU64::new(0),
            released: SharedU64::new(0),
            leased: SharedUsize::new(0),
            high_water: SharedUsize::new(0),
            failed: SharedU64::new(0),
            evicted: SharedU64::new(0),
            retired: SharedUsize::new(0),
        }
    }

    /// loom's atomics are not `const`.
    #[cfg(loom)]
    pub(crate) fn new() -> Self {
        Self {
            created: SharedU64::new(0),
            released: SharedU64::new(0),
            leased: SharedUsize::new(0),
            high_water: SharedUsize::new(0),
            failed: SharedU64::new(0),
            evicted: SharedU64::new(0),
            retired: SharedUsize::new(0),
        }
    }

    /// Objects live or lent now.
    ///
    /// Read without the lock, the counts may be from different moments: `released` is read
    /// first, so that the `created` read after is at least as large (an object is created
    /// before it is released).
    #[inline]
    pub(crate) fn in_use(&self) -> usize {
        let released = self.released.get();
        #[expect(
            clippy::cast_possible_truncation,
            reason = "objects in use at once fit in the pool, and so in usize"
        )]
        let in_use = self.created.get().saturating_sub(released) as usize;
        in_use
    }

    /// Objects live now: reachable by handle.
    #[inline]
    pub(crate) fn live(&self) -> usize {
        let leased = self.leased.get();
        self.in_use().saturating_sub(leased)
    }

    /// [`live`](Counts::live), through `&mut`.
    #[inline]
    pub(crate) fn live_mut(&mut self) -> usize {
        #[expect(
            clippy::cast_possible_truncation,
            reason = "objects in use at once fit in the pool, and so in usize"
        )]
        let in_use = (self.created.load_mut() - self.released.load_mut()) as usize;
        in_use - self.leased.load_mut()
    }

    #[inline]
    pub(crate) fn leased(&self) -> usize {
        self.leased.get()
    }

    pub(crate) fn high_water(&self) -> usize {
        self.high_water.get()
    }

    pub(crate) fn created(&self) -> u64 {
        self.created.get()
    }

    /// Objects given back, not counting evictions.
    pub(crate) fn released(&self) -> u64 {
        self.released.get() - self.evicted.get()
    }

    pub(crate) fn failed(&self) -> u64 {
        self.failed.get()
    }

    pub(crate) fn evicted(&self) -> u64 {
        self.evicted.get()
    }

    pub(crate) fn retired(&self) -> usize {
        self.retired.get()
    }

    /// The same counts, for a copy of the pool where `live` objects are live and every other
    /// object created is given back. Call it holding the pool's lock.
    #[cfg(all(feature = "alloc", feature = "serde"))]
    pub(crate) fn with_live(&self, live: usize) -> Self {
        let created = self.created.get();
        Self {
            created: SharedU64::new(created),
            released: SharedU64::new(created - live as u64),
            leased: SharedUsize::new(0),
            high_water: self.high_water.clone(),
            failed: self.failed.clone(),
            evicted: self.evicted.clone(),
            retired: self.retired.clone(),
        }
    }

    /// The counts of a copy of the pool with `live` live and `retired` retired slots, none
    /// lent: whatever the copy did not take as live was given back. Made from the copy's
    /// slots, which user code run while copying may have made differ from the pool's.
    pub(crate) fn for_copy(&self, live: usize, retired: usize) -> Self {
        let created = self.created.get();
        let given_back = created.saturating_sub(live as u64);
        Self {
            created: SharedU64::new(created),
            released: SharedU64::new(given_back),
            leased: SharedUsize::new(0),
            high_water: SharedUsize::new(self.high_water.get().max(live)),
            failed: self.failed.clone(),
            evicted: SharedU64::new(self.evicted.get().min(given_back)),
            retired: SharedUsize::new(retired),
        }
    }

    #[cfg(all(feature = "serde", feature = "alloc"))]
    /// Counts from the figures [`Stats`](crate::Stats) shows, for `live` live objects and none
    /// lent; an error saying what does not add up.
    pub(crate) fn restore(
        [created, released, failed, evicted]: [u64; 4],
        high_water: usize,
        live: usize,
        retired: usize,
    ) -> Result<Self, &'static str> {
        // A pool counts one at a time: 2⁶³ of anything is past what it reaches, and a count
        // below that cannot overflow on the operations that follow.
        if [created, released, failed, evicted]
            .iter()
            .any(|&n| n >= COUNT_END)
        {
            return Err("a count past what a pool reaches");
        }
        let given_back = released
            .checked_add(evicted)
            .ok_or("more objects released than a count holds")?;
        if created.checked_sub(given_back) != Some(live as u64) {
            return Err("objects created less objects released is not the number of live objects");
        }
        if high_water < live {
            return Err("a high water mark below the number of live objects");
        }
        if high_water as u64 > created {
            return Err("a high water mark above the number of objects created");
        }
        Ok(Self {
            created: SharedU64::new(created),
            released: SharedU64::new(given_back),
            leased: SharedUsize::new(0),
            high_water: SharedUsize::new(high_water),
            failed: SharedU64::new(failed),
            evicted: SharedU64::new(evicted),
            retired: SharedUsize::new(retired),
        })
    }

    /// Whether the counts agree with `live`, `lent` and `retired` slots found by walking the
    /// pool; what disagrees if not.
    #[cfg(feature = "alloc")]
    pub(crate) fn check(
        &self,
        live: usize,
        lent: usize,
        retired: usize,
    ) -> Result<(), &'static str> {
        let (created, given_back) = (self.created.get(), self.released.get());
        if given_back < self.evicted.get() {
            return Err("more objects evicted than given back");
        }
        if created.checked_sub(given_back) != Some((live + lent) as u64) {
            return Err("objects created less objects given back is not the number in use");
        }
        if self.leased.get() != lent {
            return Err(
                "a lease count that is not the number of slots neither live, free nor retired",
            );
        }
        if self.retired.get() != retired {
            return Err("a retired count that is not the number of retired slots");
        }
        if self.high_water.get() < live + lent || self.high_water.get() as u64 > created {
            return Err("a high water mark below the objects in use, or above those created");
        }
        Ok(())
    }

    /// An object was created live, through `&mut`.
    #[inline]
    pub(crate) fn create_mut(&mut self) {
        let created = self.created.load_mut() + 1;
        self.created.store_mut(created);
        #[expect(
            clippy::cast_possible_truncation,
            reason = "objects in use at once fit in the pool, and so in usize"
        )]
        let in_use = (created - self.released.load_mut()) as usize;
        if in_use > self.high_water.load_mut() {
            self.high_water.store_mut(in_use);
        }
    }

    /// An object was lent to a lease. Under the pool's lock.
    #[inline]
    pub(crate) fn lend(&self) {
        self.leased.set(self.leased.get() + 1);
        let created = self.created.get() + 1;
        self.created.set(created);
        #[expect(
            clippy::cast_possible_truncation,
            reason = "objects in use at once fit in the pool, and so in usize"
        )]
        let in_use = (created - self.released.get()) as usize;
        if in_use > self.high_water.get() {
            self.high_water.set(in_use);
        }
    }

    /// A lend undone before the lease was made (its `init` unwound): the counts as if it had
    /// never been, `high_water` the mark before it. Under the pool's lock.
    ///
    /// Every count of objects in use since the lend included its slot, so a mark raised since
    /// was raised by one too many: the mark is the higher of the one before and the one now less
    /// one. Exact whatever ran meanwhile (an `init` that leased and gave back, other threads).
    #[inline]
    pub(crate) fn unlend(&self, high_water: usize) {
        self.leased.set(self.leased.get() - 1);
        self.created.set(self.created.get() - 1);
        self.high_water
            .set(high_water.max(self.high_water.get().saturating_sub(1)));
    }

    /// A lease turned into a live object. Under the pool's lock.
    #[inline]
    pub(crate) fn keep_lease(&self) {
        self.leased.set(self.leased.get() - 1);
    }

    /// A lease gave its object back. Under the pool's lock.
    #[inline]
    pub(crate) fn return_lease(&self) {
        self.leased.set(self.leased.get() - 1);
        self.released.set(self.released.get() + 1);
    }

    /// A live object was released (or evicted), through `&mut`.
    #[inline]
    pub(crate) fn release_mut(&mut self) {
        let released = self.released.load_mut() + 1;
        self.released.store_mut(released);
    }

    pub(crate) fn evict_mut(&mut self) {
        let evicted = self.evicted.load_mut() + 1;
        self.evicted.store_mut(evicted);
    }

    /// A refusal. Under the pool's lock.
    pub(crate) fn fail(&self) {
        self.failed.set(self.failed.get() + 1);
    }

    pub(crate) fn retire_mut(&mut self) {
        let retired = self.retired.load_mut() + 1;
        self.retired.store_mut(retired);
    }
}

/// Counts a restored pool may start from: below them, no count overflows before its pool has run
/// for centuries.
#[cfg(all(feature = "serde", feature = "alloc"))]
const COUNT_END: u64 = 1 << 63;
