use alloc::boxed::Box;
use alloc::vec;
use core::cell::Cell;
use core::slice;

const BITS: usize = u64::BITS as usize;

/// One bit per slot, set whenever the slot holds a live object: iteration skips 64 free slots per
/// zero word instead of testing each slot.
///
/// Releasing an object leaves its bit set, to keep `release` to the slot itself; a set bit is
/// only a hint, which iteration confirms against the slot ([`Slot::is_live`]) and clears when
/// stale. `retain` and `release_all` clear the bits of what they release.
///
/// [`Slot::is_live`]: crate::slot::Slot::is_live
pub(crate) struct Occupancy {
    words: Box<[Cell<u64>]>,
}

impl Occupancy {
    pub(crate) fn new(capacity: usize) -> Self {
        Self {
            words: vec![0; capacity.div_ceil(BITS)]
                .into_iter()
                .map(Cell::new)
                .collect(),
        }
    }

    /// Sets the bit; a slot reused right after its release still has it, and then nothing is
    /// written.
    #[inline]
    pub(crate) fn insert(&self, index: usize) {
        let word = &self.words[index / BITS];
        let bit = 1 << (index % BITS);
        if word.get() & bit == 0 {
            word.set(word.get() | bit);
        }
    }

    #[inline]
    pub(crate) fn remove(&self, index: usize) {
        let word = &self.words[index / BITS];
        word.set(word.get() & !(1 << (index % BITS)));
    }

    /// The indices of live slots in ascending order. A bit cleared behind the cursor does not
    /// disturb it, so slots may be vacated while walking.
    #[inline]
    pub(crate) fn indices(&self) -> Indices<'_> {
        Indices {
            words: self.words.iter(),
            base: 0usize.wrapping_sub(BITS),
            bits: 0,
        }
    }
}

pub(crate) struct Indices<'a> {
    words: slice::Iter<'a, Cell<u64>>,
    /// The index of bit 0 of `bits`.
    base: usize,
    /// The bits of the current word not yet yielded.
    bits: u64,
}

impl Iterator for Indices<'_> {
    type Item = usize;

    #[inline]
    fn next(&mut self) -> Option<usize> {
        while self.bits == 0 {
            self.bits = self.words.next()?.get();
            self.base = self.base.wrapping_add(BITS);
        }
        let bit = self.bits.trailing_zeros() as usize;
        self.bits &= self.bits - 1;
        Some(self.base + bit)
    }
}
