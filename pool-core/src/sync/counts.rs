//! The counts behind the sync pool's [`Stats`](crate::Stats), in atomics.

use super::atomic::{AtomicU64, AtomicUsize, Ordering};

/// Every count is updated with Relaxed ordering: each is exact in itself, but a reader racing
/// other threads may see one count before an operation in flight moves it and another after.
/// Once the threads are done (joined, or synchronized some other way), every count is exact.
#[derive(Default)]
#[repr(align(128))]
pub(crate) struct Counts {
    /// Objects created or lent.
    created: AtomicU64,
    /// Objects released or given back by a lease.
    released: AtomicU64,
    /// Objects lent to leases now.
    leased: AtomicUsize,
    /// Slots off the free list and not retired: live, lent, being filled, or released with
    /// guards still out.
    taken: AtomicUsize,
    high_water: AtomicUsize,
    failed: AtomicU64,
    retired: AtomicUsize,
}

impl Counts {
    /// A slot left the free list.
    #[inline]
    pub(crate) fn take(&self) {
        let taken = self.taken.fetch_add(1, Ordering::Relaxed) + 1;
        if taken > self.high_water.load(Ordering::Relaxed) {
            self.high_water.fetch_max(taken, Ordering::Relaxed);
        }
    }

    /// A slot went back on the free list, or was retired.
    #[inline]
    pub(crate) fn untake(&self) {
        self.taken.fetch_sub(1, Ordering::Relaxed);
    }

    #[inline]
    pub(crate) fn create(&self) {
        self.created.fetch_add(1, Ordering::Relaxed);
    }

    #[inline]
    pub(crate) fn lend(&self) {
        self.leased.fetch_add(1, Ordering::Relaxed);
        self.create();
    }

    #[inline]
    pub(crate) fn keep_lease(&self) {
        self.leased.fetch_sub(1, Ordering::Relaxed);
    }

    #[inline]
    pub(crate) fn return_lease(&self) {
        self.leased.fetch_sub(1, Ordering::Relaxed);
        self.release();
    }

    #[inline]
    pub(crate) fn release(&self) {
        self.released.fetch_add(1, Ordering::Relaxed);
    }

    pub(crate) fn fail(&self) {
        self.failed.fetch_add(1, Ordering::Relaxed);
    }

    pub(crate) fn retire(&self) {
        self.retired.fetch_add(1, Ordering::Relaxed);
    }

    /// Live objects: created, less released, less lent now. Released is read first, so that a
    /// race can only undercount; never below zero.
    #[inline]
    pub(crate) fn live(&self) -> usize {
        let released = self.released.load(Ordering::Relaxed);
        let leased = self.leased.load(Ordering::Relaxed);
        let created = self.created.load(Ordering::Relaxed);
        let in_use = created.saturating_sub(released);
        usize::try_from(in_use)
            .unwrap_or(usize::MAX)
            .saturating_sub(leased)
    }

    pub(crate) fn leased(&self) -> usize {
        self.leased.load(Ordering::Relaxed)
    }

    pub(crate) fn taken(&self) -> usize {
        self.taken.load(Ordering::Relaxed)
    }

    pub(crate) fn high_water(&self) -> usize {
        self.high_water.load(Ordering::Relaxed)
    }

    pub(crate) fn created(&self) -> u64 {
        self.created.load(Ordering::Relaxed)
    }

    pub(crate) fn released(&self) -> u64 {
        self.released.load(Ordering::Relaxed)
    }

    pub(crate) fn failed(&self) -> u64 {
        self.failed.load(Ordering::Relaxed)
    }

    pub(crate) fn retired(&self) -> usize {
        self.retired.load(Ordering::Relaxed)
    }
}
