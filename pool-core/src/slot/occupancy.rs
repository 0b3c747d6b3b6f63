//! Occupancy bits: one per slot, set exactly while the slot holds a live object (kept by
//! `slot/state.rs`), 64 to a word. Iteration visits the set bits, skipping 64 free slots per
//! zero word, and trusts them.

pub(crate) const BITS: usize = u64::BITS as usize;

/// The words of bits that `slots` slots need.
#[inline]
pub(crate) const fn words_for(slots: usize) -> usize {
    slots.div_ceil(BITS)
}

/// Where the bit of the slot at `local` (an index in its chunk) is: its word, and the word's
/// mask with only that bit set. A shift rather than a table of masks: the table's address and
/// load cost two instructions more than the shift's move of the index into `cl`.
#[inline]
pub(crate) const fn locate(local: usize) -> (usize, u64) {
    (local / BITS, 1 << (local % BITS))
}

/// Sets the bits of the `count` slots from `first` (indices in their chunk), a word at a time.
#[inline]
pub(crate) fn set_run(bits: &mut [u64], first: usize, count: usize) {
    let (mut at, end) = (first, first + count);
    while at < end {
        let (word, low) = (at / BITS, at % BITS);
        let high = (end - word * BITS).min(BITS);
        if let Some(bits) = bits.get_mut(word) {
            *bits |= u64::MAX >> (BITS - (high - low)) << low;
        }
        at = word * BITS + high;
    }
}

/// The set bits of a sequence of words, lowest first, each word read when the walk reaches it:
/// through a lender, a bit set ahead of the walk (a lease turned into a handle) is seen, one set
/// behind it is not. (Through `&Pool` and `&mut Pool`, the walks are `slot/walk.rs`'s.)
#[derive(Clone)]
pub(crate) struct SetBits<I> {
    words: I,
    /// The index of bit 0 of `bits`.
    at: usize,
    /// The bits of the current word not yet yielded.
    bits: u64,
}

impl<I: Iterator<Item = u64>> SetBits<I> {
    pub(crate) fn new(words: I) -> Self {
        Self {
            words,
            at: 0usize.wrapping_sub(BITS),
            bits: 0,
        }
    }
}

impl<I: Iterator<Item = u64>> Iterator for SetBits<I> {
    type Item = usize;

    #[inline]
    fn next(&mut self) -> Option<usize> {
        while self.bits == 0 {
            self.bits = self.words.next()?;
            self.at = self.at.wrapping_add(BITS);
        }
        let bit = self.bits.trailing_zeros() as usize;
        self.bits &= self.bits - 1;
        Some(self.at + bit)
    }
}
