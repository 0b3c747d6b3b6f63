use crate::slot::shared::SharedU64;
#[cfg(feature = "alloc")]
use alloc::boxed::Box;

pub(crate) const BITS: usize = u64::BITS as usize;

/// One bit per slot of a chunk, set exactly while the slot holds a live object (kept by
/// `slot/state.rs`): iteration visits the set bits, skipping 64 free slots per zero word, and
/// trusts them.
///
/// In shared cells, so that a lease turning into a handle can set its bit through `&Pool` (under
/// the pool's lock), while other threads iterate.
#[cfg(feature = "alloc")]
#[derive(Clone)]
pub(crate) struct Occupancy {
    words: Box<[SharedU64]>,
}

#[cfg(feature = "alloc")]
impl Occupancy {
    pub(crate) fn new(slots: usize) -> Self {
        Self {
            words: (0..slots.div_ceil(BITS))
                .map(|_| SharedU64::new(0))
                .collect(),
        }
    }

    /// The bit of the slot at `local`, an index in the chunk.
    #[inline]
    pub(crate) fn bit(&self, local: usize) -> Bit<'_> {
        Bit::new(&self.words, local)
    }

    #[inline]
    pub(crate) fn words(&self) -> &[SharedU64] {
        &self.words
    }
}

/// A slot's occupancy bit, found when it is written.
pub(crate) struct Bit<'a> {
    words: &'a [SharedU64],
    /// The slot's index in its chunk, which has a bit for each slot.
    local: usize,
}

impl<'a> Bit<'a> {
    /// The bit of the slot at `local` in `words`.
    ///
    /// # Panics
    /// When `words` has no bit for `local`.
    #[inline]
    pub(crate) fn new(words: &'a [SharedU64], local: usize) -> Self {
        assert!(
            local / BITS < words.len(),
            "an occupancy bit past the words"
        );
        Self { words, local }
    }

    /// [`new`](Bit::new) without the check: for storage whose words cover every slot it holds,
    /// on the hot paths.
    ///
    /// # Safety
    /// `words` must have a bit for `local`: `local / 64 < words.len()`.
    #[inline]
    pub(crate) unsafe fn new_unchecked(words: &'a [SharedU64], local: usize) -> Self {
        debug_assert!(local / BITS < words.len());
        Self { words, local }
    }

    #[inline]
    fn word(&self) -> &SharedU64 {
        // SAFETY: every `Bit` has a word in `words`: `new` checks it, and the callers of
        // `new_unchecked` promise it.
        unsafe { self.words.get_unchecked(self.local / BITS) }
    }

    /// Sets the bit, with a shift rather than a table of masks: the table's address and load
    /// cost two instructions more than the shift's move of the index into `cl`.
    #[inline]
    pub(super) fn set(&self) {
        let word = self.word();
        word.set(word.get() | 1 << (self.local % BITS));
    }

    #[inline]
    pub(super) fn clear(&self) {
        let word = self.word();
        word.set(word.get() & !(1 << (self.local % BITS)));
    }
}

/// The set bits of `words`, lowest first, each word read when the walk reaches it: a bit set
/// ahead of the walk (a lease turned into a handle) is seen, one set behind it is not. The one
/// set-bit walker: `Walk` steps it a word and a bit at a time, and
/// as an iterator it yields the indices of the set bits.
#[derive(Clone)]
pub(crate) struct SetBits<'a> {
    words: core::slice::Iter<'a, SharedU64>,
    /// The index of bit 0 of `bits`.
    at: usize,
    /// The bits of the current word not yet yielded.
    bits: u64,
}

impl<'a> SetBits<'a> {
    pub(crate) fn new(words: &'a [SharedU64]) -> Self {
        Self {
            words: words.iter(),
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
            self.bits = word.get();
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

impl Iterator for SetBits<'_> {
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
