//! What both pools, [`Pool`](crate::Pool) and the sync pool, share: the largest capacity and its
//! check, the full pool's panic, and the version rules.

/// Slot indices stay below this, so that `NIL` (`u32::MAX`, the end of a free list) is never an
/// index.
pub(crate) const INDEX_END: usize = u32::MAX as usize - 1;

/// The largest capacity a pool can have: slot indices are 32-bit.
pub(crate) const MAX_CAPACITY: usize = INDEX_END;

/// Panics unless a pool may hold `capacity` slots.
#[cfg(feature = "alloc")]
#[inline]
#[track_caller]
pub(crate) fn check_capacity(capacity: usize) {
    assert!(
        capacity <= MAX_CAPACITY,
        "a pool holds at most {MAX_CAPACITY} objects, not {capacity}",
    );
}

/// The panic of a full pool of `name`s that panics when full.
#[cold]
#[track_caller]
pub(crate) fn panic_full(name: &str, capacity: usize, high_water: usize) -> ! {
    panic!(
        "{name} is full: all {capacity} slots are in use (high water {high_water}); raise `#[pool(size = N)]` or release objects sooner",
    );
}

/// The version of a slot never used, counted from the pool's offset: even, not live.
pub(crate) const FIRST_VERSION: u32 = 0;

/// The version of a retired slot, counted from the pool's offset: even, and never reached but
/// by a slot that has had 2³¹ − 1 lives, after which the next version would come round to
/// those of its first lives.
pub(crate) const RETIRED_VERSION: u32 = 0u32.wrapping_sub(2);

/// The version of a retired slot of the pool whose versions start at `offset`.
#[inline]
pub(crate) const fn retired_at(offset: u32) -> u32 {
    offset.wrapping_add(RETIRED_VERSION)
}

/// Where the versions of the pool whose slots retire at `retired_at` start.
#[cfg(any(target_has_atomic = "32", feature = "portable-atomic"))]
#[inline]
pub(crate) const fn offset_of(retired_at: u32) -> u32 {
    retired_at.wrapping_sub(RETIRED_VERSION)
}
