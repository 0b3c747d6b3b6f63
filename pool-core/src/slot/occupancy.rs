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
