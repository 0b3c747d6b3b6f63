use core::cell::Cell;

/// The counts behind [`Stats`](crate::Stats) that it cannot derive from the slots.
///
/// Creations and releases are counted apart, each by its own operation, rather than as one
/// count of live objects that both move: a release followed by a create then updates two
/// counts once each, not one count twice, which halves the chain of dependent memory updates
/// in a churning loop. In cells, so that leases can count through `&Pool`.
pub(crate) struct Counts {
    /// Objects created or lent.
    created: Cell<u64>,
    /// Objects released, evicted or given back by a lease.
    released: Cell<u64>,
    /// Objects lent to leases now.
    leased: Cell<usize>,
    high_water: Cell<usize>,
    failed: Cell<u64>,
    evicted: Cell<u64>,
    retired: Cell<usize>,
}

impl Counts {
    /// Nothing counted yet.
    pub(crate) const fn new() -> Self {
        Self {
            created: Cell::new(0),
            released: Cell::new(0),
            leased: Cell::new(0),
            high_water: Cell::new(0),
            failed: Cell::new(0),
            evicted: Cell::new(0),
            retired: Cell::new(0),
        }
    }

    /// Objects live or lent now.
    #[inline]
    pub(crate) fn in_use(&self) -> usize {
        #[expect(
            clippy::cast_possible_truncation,
            reason = "objects in use at once fit in the pool, and so in usize"
        )]
        let in_use = (self.created.get() - self.released.get()) as usize;
        in_use
    }

    /// Objects live now: reachable by handle.
    #[inline]
    pub(crate) fn live(&self) -> usize {
        self.in_use() - self.leased.get()
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

    /// The same counts, with the objects lent now given back: for a copy of the pool, where the
    /// leases' slots are free.
    #[cfg(all(feature = "serde", feature = "alloc"))]
    pub(crate) fn without_leases(&self) -> Self {
        Self {
            created: self.created.clone(),
            released: Cell::new(self.released.get() + self.leased.get() as u64),
            leased: Cell::new(0),
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
            created: Cell::new(created),
            released: Cell::new(given_back),
            leased: Cell::new(0),
            high_water: Cell::new(self.high_water.get().max(live)),
            failed: self.failed.clone(),
            evicted: Cell::new(self.evicted.get().min(given_back)),
            retired: Cell::new(retired),
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
            created: Cell::new(created),
            released: Cell::new(given_back),
            leased: Cell::new(0),
            high_water: Cell::new(high_water),
            failed: Cell::new(failed),
            evicted: Cell::new(evicted),
            retired: Cell::new(retired),
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

    /// An object was created live.
    #[inline]
    pub(crate) fn create(&self) {
        bump(&self.created);
        let in_use = self.in_use();
        if in_use > self.high_water.get() {
            self.high_water.set(in_use);
        }
    }

    /// An object was lent to a lease.
    #[inline]
    pub(crate) fn lend(&self) {
        self.leased.set(self.leased.get() + 1);
        self.create();
    }

    /// A lend undone before the lease was made (its `init` unwound): the counts as they were,
    /// `high_water` the mark before it, or the objects in use now if more.
    #[inline]
    pub(crate) fn unlend(&self, high_water: usize) {
        self.leased.set(self.leased.get() - 1);
        self.created.set(self.created.get() - 1);
        self.high_water.set(high_water.max(self.in_use()));
    }

    /// A lease turned into a live object.
    #[inline]
    pub(crate) fn keep_lease(&self) {
        self.leased.set(self.leased.get() - 1);
    }

    /// A lease gave its object back.
    #[inline]
    pub(crate) fn return_lease(&self) {
        self.leased.set(self.leased.get() - 1);
        self.release();
    }

    /// A live object was released (or evicted).
    #[inline]
    pub(crate) fn release(&self) {
        bump(&self.released);
    }

    pub(crate) fn evict(&self) {
        bump(&self.evicted);
    }

    pub(crate) fn fail(&self) {
        bump(&self.failed);
    }

    pub(crate) fn retire(&self) {
        self.retired.set(self.retired.get() + 1);
    }
}

/// Counts a restored pool may start from: below them, no count overflows before its pool has run
/// for centuries.
#[cfg(all(feature = "serde", feature = "alloc"))]
const COUNT_END: u64 = 1 << 63;

#[inline]
fn bump(counter: &Cell<u64>) {
    counter.set(counter.get() + 1);
}
