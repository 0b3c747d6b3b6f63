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

/// The set bits of a sequence of words, lowest first, each word read when the walk reaches it:
/// through a lender, a bit set ahead of the walk (a lease turned into a handle) is seen, one set
/// behind it is not. The one set-bit walker: the walks step it a word and a bit at a time, and
/// as an iterator it yields the indices of the set bits.
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

    /// Whether the current word has bits not yet yielded.
    #[inline]
    pub(crate) fn in_word(&self) -> bool {
        self.bits != 0
    }

    /// Moves to the next word with a bit set, and returns the index of its bit 0; `None` past
    /// the last word.
    #[inline]
    pub(crate) fn next_word(&mut self) -> Option<usize> {
        loop {
            let word = self.words.next()?;
            self.at = self.at.wrapping_add(BITS);
            self.bits = word;
            if self.bits != 0 {
                return Some(self.at);
            }
        }
    }

    /// Whether every bit of the current word is set and none yielded yet.
    #[inline]
    pub(crate) fn word_full(&self) -> bool {
        self.bits == u64::MAX
    }

    /// Passes over the bits of the current word not yet yielded.
    #[inline]
    pub(crate) fn skip_word(&mut self) {
        self.bits = 0;
    }

    /// The lowest bit of the current word not yet yielded, counted from the word's bit 0; the
    /// word must have one ([`in_word`](SetBits::in_word)).
    #[inline]
    pub(crate) fn next_in_word(&mut self) -> usize {
        debug_assert!(self.bits != 0);
        let bit = self.bits.trailing_zeros() as usize;
        // Not `^= 1 << bit`: that waits on `trailing_zeros`, which would put the count's latency
        // on the chain from one object to the next.
        self.bits &= self.bits - 1;
        bit
    }
}

impl<I: Iterator<Item = u64>> SetBits<I> {
    /// The next run of consecutive set bits not yet yielded, as its first index and its
    /// length: the rest of the current word's lowest run, extended through the words after it
    /// while they are full, and into the low bits of the first that is not. `None` past the
    /// last word.
    #[inline]
    pub(crate) fn next_run(&mut self) -> Option<(usize, usize)> {
        if !self.in_word() {
            self.next_word()?;
        }
        let first = self.bits.trailing_zeros() as usize;
        // The bits below `first` are clear, so the run's length is the count of trailing ones
        // from `first` up, and what is left of the word is what lies above the run.
        let ones = (!(self.bits >> first)).trailing_zeros() as usize;
        let start = self.at.wrapping_add(first);
        if first + ones < BITS {
            self.bits &= u64::MAX << (first + ones);
            return Some((start, ones));
        }
        let mut len = BITS - first;
        self.bits = 0;
        for word in self.words.by_ref() {
            self.at = self.at.wrapping_add(BITS);
            if word == u64::MAX {
                len += BITS;
                continue;
            }
            let ones = word.trailing_ones();
            len += ones as usize;
            self.bits = word & (u64::MAX << ones);
            break;
        }
        Some((start, len))
    }
}

impl<I: Iterator<Item = u64>> Iterator for SetBits<I> {
    type Item = usize;

    #[inline]
    fn next(&mut self) -> Option<usize> {
        if !self.in_word() {
            self.next_word()?;
        }
        let bit = self.next_in_word();
        Some(self.at + bit)
    }
}

#[cfg(test)]
mod tests {
    use super::SetBits;
    use alloc::vec::Vec;

    fn runs(words: &[u64]) -> Vec<(usize, usize)> {
        let mut bits = SetBits::new(words.iter().copied());
        core::iter::from_fn(|| bits.next_run()).collect()
    }

    /// Runs from the bits one at a time: the reference `next_run` must match.
    fn runs_by_bits(words: &[u64]) -> Vec<(usize, usize)> {
        let mut out: Vec<(usize, usize)> = Vec::new();
        for index in SetBits::new(words.iter().copied()) {
            match out.last_mut() {
                Some((start, len)) if *start + *len == index => *len += 1,
                _ => out.push((index, 1)),
            }
        }
        out
    }

    #[test]
    fn runs_stop_at_clear_bits_and_cross_full_words() {
        let full = u64::MAX;
        assert_eq!(runs(&[]), []);
        assert_eq!(runs(&[0, 0]), []);
        assert_eq!(runs(&[full]), [(0, 64)]);
        assert_eq!(runs(&[full, full, 0b111]), [(0, 131)]);
        assert_eq!(runs(&[1 << 63, full, 1, 0, 0b110]), [(63, 66), (257, 2)]);
        assert_eq!(runs(&[0b1011_0110, 0]), [(1, 2), (4, 2), (7, 1)]);
        assert_eq!(runs(&[full << 1, full >> 1]), [(1, 126)]);
        assert_eq!(runs(&[0, full, 0b1, full]), [(64, 65), (192, 64)]);
    }

    #[test]
    fn runs_match_the_bits_one_at_a_time() {
        let mut state = 0x9E37_79B9_7F4A_7C15_u64;
        let mut next = || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        for _ in 0..2_000 {
            let words: Vec<u64> = (0..5)
                .map(|_| match next() % 4 {
                    0 => 0,
                    1 => u64::MAX,
                    2 => u64::MAX << (next() % 64),
                    _ => next(),
                })
                .collect();
            assert_eq!(runs(&words), runs_by_bits(&words), "{words:x?}");
        }
    }
}
