//! Two 32-bit halves in one 64-bit word: what a handle, a slot's word, the sync pool's state
//! word and its free lists' heads are made of. One word is stored and loaded whole, so that a
//! lookup compares once and a compare-and-swap changes both halves together.

/// The word whose high half is `high` and low half `low`.
#[inline]
pub(crate) const fn pack(high: u32, low: u32) -> u64 {
    (high as u64) << 32 | low as u64
}

/// The high half of `word`.
#[inline]
pub(crate) const fn high(word: u64) -> u32 {
    (word >> 32) as u32
}

/// The low half of `word`.
#[inline]
pub(crate) const fn low(word: u64) -> u32 {
    #[expect(clippy::cast_possible_truncation, reason = "the low half")]
    let low = word as u32;
    low
}
