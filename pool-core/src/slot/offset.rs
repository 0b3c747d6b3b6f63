//! Where each pool's slot versions start.

#[cfg(target_has_atomic = "32")]
use core::sync::atomic::{AtomicU32, Ordering};

/// The step between the offsets of pools made one after another: twice the 32-bit golden ratio,
/// so that the offsets are even (a version's parity says whether its slot is live) and spread
/// over the whole range, however many pools there are (the three-gap theorem: the first `n`
/// offsets cut the circle of versions into gaps of at most three sizes).
#[cfg_attr(not(target_has_atomic = "32"), allow(dead_code))]
const STEP: u32 = 0x9E37_79B9_u32.wrapping_mul(2);

/// The version offset for a new pool: the next of a process-wide sequence, 0 for the first pool.
///
/// A handle from one pool matches a live object of another pool of the same type only if the two
/// slots' versions, counted from different offsets, meet: one of the slots must have been filled
/// at least half the distance between the offsets more often than the other.
///
/// On targets without 32-bit atomics every pool starts at 0, and a handle from another pool is
/// refused only when its slot holds no live object.
pub(crate) fn next() -> u32 {
    #[cfg(target_has_atomic = "32")]
    {
        static POOLS: AtomicU32 = AtomicU32::new(0);
        POOLS.fetch_add(1, Ordering::Relaxed).wrapping_mul(STEP)
    }
    #[cfg(not(target_has_atomic = "32"))]
    {
        0
    }
}

/// The smallest distance, in versions, between the offsets of any two of the first `pools` pools.
#[cfg(test)]
pub(crate) fn smallest_gap(pools: u32) -> u32 {
    let mut offsets: alloc::vec::Vec<u32> = (0..pools).map(|n| n.wrapping_mul(STEP)).collect();
    offsets.sort_unstable();
    let wrap = offsets[0].wrapping_sub(offsets[offsets.len() - 1]);
    offsets
        .windows(2)
        .map(|pair| pair[1] - pair[0])
        .chain([wrap])
        .min()
        .unwrap_or(u32::MAX)
}
