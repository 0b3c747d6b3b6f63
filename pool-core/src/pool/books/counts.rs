use core::cell::Cell;

/// The counts behind [`Stats`](crate::Stats) that it cannot derive from the slots.
///
/// Creations and releases are counted apart, each by its own operation, rather than as one
/// count of live objects that both move: a release followed by a create then updates two
/// counts once each, not one count twice, which halves the chain of dependent memory updates
/// in a churning loop.
#[derive(Clone, Copy, Default, Debug, PartialEq, Eq)]
pub(crate) struct Counts {
    /// Objects created or lent.
    created: u64,
    /// Objects released, evicted or given back by a lease.
    released: u64,
    /// Objects lent to leases now.
    leased: usize,
    high_water: usize,
    failed: u64,
    evicted: u64,
    retired: usize,
    /// `created` when the high water mark last rose for an object about to be made (a
    /// `create`'s out-of-line path, before its reset and `init`), so that either unwinding
    /// lowers it again; any other value once that object is made, as `created` then counts it.
    rose_for: u64,
}

/// Counts a restored pool may start from: below them, no count overflows before its pool has run
/// for centuries.
#[cfg(all(feature = "serde", feature = "alloc"))]
const COUNT_END: u64 = 1 << 63;

impl Counts {
    /// Nothing counted yet.
    pub(crate) const fn new() -> Self {
        Self {
            created: 0,
            released: 0,
            leased: 0,
            high_water: 0,
            failed: 0,
            evicted: 0,
            retired: 0,
            rose_for: u64::MAX,
        }
    }

    /// Changes the counts in `cell` with `change`: a lender's counts are a cell, which its
    /// leases change through `&`.
    #[inline]
    pub(crate) fn update<R>(cell: &Cell<Self>, change: impl FnOnce(&mut Self) -> R) -> R {
        let mut counts = cell.get();
        let result = change(&mut counts);
        cell.set(counts);
        result
    }

    /// Objects live or lent now.
    #[inline]
    pub(crate) fn in_use(&self) -> usize {
        #[expect(
            clippy::cast_possible_truncation,
            reason = "objects in use at once fit in the pool, and so in usize"
        )]
        let in_use = (self.created - self.released) as usize;
        in_use
    }

    /// Objects live now: reachable by handle.
    #[inline]
    pub(crate) fn live(&self) -> usize {
        self.in_use() - self.leased
    }

    #[inline]
    pub(crate) fn leased(&self) -> usize {
        self.leased
    }

    pub(crate) fn high_water(&self) -> usize {
        self.high_water
    }

    pub(crate) fn created(&self) -> u64 {
        self.created
    }

    /// Objects given back, not counting evictions.
    pub(crate) fn released(&self) -> u64 {
        self.released - self.evicted
    }

    pub(crate) fn failed(&self) -> u64 {
        self.failed
    }

    pub(crate) fn evicted(&self) -> u64 {
        self.evicted
    }

    #[inline]
    pub(crate) fn retired(&self) -> usize {
        self.retired
    }

    /// The counts of a copy of the pool with `live` live and `retired` retired slots, none
    /// lent: whatever the copy did not take as live was given back.
    pub(crate) fn for_copy(&self, live: usize, retired: usize) -> Self {
        let given_back = self.created - live as u64;
        Self {
            released: given_back,
            leased: 0,
            evicted: self.evicted.min(given_back),
            retired,
            ..*self
        }
    }

    /// Counts from the figures [`Stats`](crate::Stats) shows, for `live` live objects and none
    /// lent; an error saying what does not add up.
    #[cfg(all(feature = "serde", feature = "alloc"))]
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
            created,
            released: given_back,
            leased: 0,
            high_water,
            failed,
            evicted,
            retired,
            rose_for: u64::MAX,
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
        if self.released < self.evicted {
            return Err("more objects evicted than given back");
        }
        if self.created.checked_sub(self.released) != Some((live + lent) as u64) {
            return Err("objects created less objects given back is not the number in use");
        }
        if self.leased != lent {
            return Err(
                "a lease count that is not the number of slots neither live, free nor retired",
            );
        }
        if self.retired != retired {
            return Err("a retired count that is not the number of retired slots");
        }
        if self.high_water < live + lent || self.high_water as u64 > self.created {
            return Err("a high water mark below the objects in use, or above those created");
        }
        Ok(())
    }

    /// An object was created live.
    #[inline]
    pub(crate) fn create(&mut self) {
        self.created += 1;
        let in_use = self.in_use();
        if in_use > self.high_water {
            self.high_water = in_use;
        }
    }

    /// An object was created live, its high water mark raised before, if it had to be, by
    /// [`raise_high_water_for_one_more`](Counts::raise_high_water_for_one_more).
    #[inline]
    pub(crate) fn count_create(&mut self) {
        self.created += 1;
    }

    /// The high water mark raised to the objects in use and one about to be made, if they are
    /// more, for [`undo_rise`](Counts::undo_rise) to lower again if that object is not made.
    pub(crate) fn raise_high_water_for_one_more(&mut self) {
        if self.in_use() + 1 > self.high_water {
            self.high_water = self.in_use() + 1;
            self.rose_for = self.created;
        }
    }

    /// For an object that was not made after all (its reset at reuse or its `init` unwound):
    /// lowers the high water mark if it rose for it; whether it did.
    pub(crate) fn undo_rise(&mut self) -> bool {
        let rose = self.rose_for == self.created;
        if rose {
            self.high_water -= 1;
            self.rose_for = u64::MAX;
        }
        rose
    }

    /// `count` objects were created, one after another.
    #[inline]
    pub(crate) fn create_many(&mut self, count: usize) {
        self.created += count as u64;
        let in_use = self.in_use();
        if in_use > self.high_water {
            self.high_water = in_use;
        }
    }

    /// An object was lent to a lease; the high water mark before, for [`unlend`](Counts::unlend).
    #[inline]
    pub(crate) fn lend(&mut self) -> usize {
        let high_water = self.high_water;
        self.leased += 1;
        self.create();
        high_water
    }

    /// A lend undone before the lease was made (its `init` unwound): the counts as if it had
    /// never been, `high_water` the mark before it.
    ///
    /// Every count of objects in use since the lend included its slot, so a mark raised since
    /// was raised by one too many: the mark is the higher of the one before and the one now less
    /// one. Exact whatever ran meanwhile (an `init` that leased and gave back).
    #[inline]
    pub(crate) fn unlend(&mut self, high_water: usize) {
        self.leased -= 1;
        self.created -= 1;
        self.high_water = high_water.max(self.high_water - 1);
    }

    /// A lease turned into a live object.
    #[inline]
    pub(crate) fn keep_lease(&mut self) {
        self.leased -= 1;
    }

    /// A lease gave its object back.
    #[inline]
    pub(crate) fn return_lease(&mut self) {
        self.leased -= 1;
        self.released += 1;
    }

    /// A live object was released (or evicted).
    #[inline]
    pub(crate) fn release(&mut self) {
        self.released += 1;
    }

    pub(crate) fn evict(&mut self) {
        self.evicted += 1;
    }

    /// A refusal.
    pub(crate) fn fail(&mut self) {
        self.failed += 1;
    }

    /// A slot retired: its versions ran out, or its lease's reset panicked.
    pub(crate) fn retire(&mut self) {
        self.retired += 1;
    }

    /// `released` slots freed at once (by `par_retain`), `retired` of them retired.
    #[cfg(feature = "rayon")]
    pub(crate) fn release_many(&mut self, released: usize, retired: usize) {
        self.released += released as u64;
        self.retired += retired;
    }
}
