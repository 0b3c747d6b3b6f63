use core::cell::Cell;

/// The counts behind [`Stats`](crate::Stats) that it cannot derive from the slots.
///
/// In cells, so that leases can count through `&Pool`.
#[derive(Default)]
pub(crate) struct Counts {
    /// Objects live now: reachable by handle.
    live: Cell<usize>,
    /// Objects lent to leases now.
    leased: Cell<usize>,
    high_water: Cell<usize>,
    /// Objects created or lent; released ones are counted by difference.
    created: Cell<u64>,
    failed: Cell<u64>,
    evicted: Cell<u64>,
    retired: Cell<usize>,
}

impl Counts {
    #[inline]
    pub(crate) fn live(&self) -> usize {
        self.live.get()
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

    pub(crate) fn failed(&self) -> u64 {
        self.failed.get()
    }

    pub(crate) fn evicted(&self) -> u64 {
        self.evicted.get()
    }

    pub(crate) fn retired(&self) -> usize {
        self.retired.get()
    }

    /// An object was created live.
    #[inline]
    pub(crate) fn create(&self) {
        bump(&self.created);
        self.live.set(self.live.get() + 1);
        self.raise_high_water();
    }

    /// An object was lent to a lease.
    #[inline]
    pub(crate) fn lend(&self) {
        bump(&self.created);
        self.leased.set(self.leased.get() + 1);
        self.raise_high_water();
    }

    /// A lease turned into a live object.
    #[inline]
    pub(crate) fn keep_lease(&self) {
        self.leased.set(self.leased.get() - 1);
        self.live.set(self.live.get() + 1);
    }

    /// A lease gave its object back.
    #[inline]
    pub(crate) fn return_lease(&self) {
        self.leased.set(self.leased.get() - 1);
    }

    /// A live object was released (or evicted).
    #[inline]
    pub(crate) fn release(&self) {
        self.live.set(self.live.get() - 1);
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

    #[inline]
    fn raise_high_water(&self) {
        let in_use = self.live.get() + self.leased.get();
        if in_use > self.high_water.get() {
            self.high_water.set(in_use);
        }
    }
}

#[inline]
fn bump(counter: &Cell<u64>) {
    counter.set(counter.get() + 1);
}
