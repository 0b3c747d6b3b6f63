use core::cell::Cell;

/// The counts behind [`Stats`](crate::Stats) that it cannot derive from the slots.
///
/// In cells, so that leases can count through `&Pool`.
#[derive(Default)]
pub(crate) struct Counts {
    /// Objects live or lent now: `live` is this less `leased`, so that `create` updates one
    /// count and compares it with the high-water mark.
    in_use: Cell<usize>,
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
    /// Objects live now: reachable by handle.
    #[inline]
    pub(crate) fn live(&self) -> usize {
        self.in_use.get() - self.leased.get()
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
        let in_use = self.in_use.get() + 1;
        self.in_use.set(in_use);
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
        self.in_use.set(self.in_use.get() - 1);
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

#[inline]
fn bump(counter: &Cell<u64>) {
    counter.set(counter.get() + 1);
}
