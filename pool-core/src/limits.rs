//! What both pools share: the version rules.

/// The version of a slot never used, counted from the pool's offset: even, not live.
pub(crate) const FIRST_VERSION: u32 = 0;

/// The version of a retired slot, counted from the pool's offset: even, and never reached but
/// by a slot that has had 2³¹ − 1 lives, after which the next version would come round to
/// those of its first lives.
pub(crate) const RETIRED_VERSION: u32 = 0u32.wrapping_sub(2);
