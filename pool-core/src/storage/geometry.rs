//! Where a growing pool's chunks go: positions of doubling length past the first chunk.

use crate::limits::INDEX_END;

/// The most positions for grown chunks: indices are 32-bit and chunk lengths double.
pub(crate) const POSITIONS: usize = 32;

/// The positions past a first chunk of `start` slots: the chunk at position `k` holds up to
/// `1 << (chunk_bits + k)` slots (the last may be shorter, to stop at the limit), and the
/// positions' index ranges follow one another past the first chunk. So at most 32 positions
/// exist, and an index finds its position with a leading-zero count.
#[derive(Clone, Copy)]
pub(crate) struct Geometry {
    /// The length of the first chunk, where the first position starts.
    start: usize,
    chunk_bits: u32,
}

impl Geometry {
    /// The positions past a first chunk of `start` slots.
    pub(crate) fn new(start: usize) -> Self {
        Self {
            start,
            chunk_bits: start.max(1).next_power_of_two().trailing_zeros(),
        }
    }

    #[inline]
    pub(crate) fn start(self) -> usize {
        self.start
    }

    /// How many positions start below `INDEX_END`: the length of the table of positions,
    /// whatever the pool's limit, so that a pool restored from its parts grows as it would have.
    pub(crate) fn position_count(self) -> usize {
        (0..POSITIONS)
            .take_while(|&k| self.position_base(k).is_some_and(|base| base < INDEX_END))
            .count()
    }

    /// The index of the first slot of the position `k`, if it fits in a `usize`.
    pub(crate) fn position_base(self, k: usize) -> Option<usize> {
        if k >= POSITIONS {
            return None;
        }
        let past_first = ((1u64 << k) - 1).checked_shl(self.chunk_bits)?;
        if past_first >> self.chunk_bits != (1u64 << k) - 1 {
            return None;
        }
        usize::try_from(past_first).ok()?.checked_add(self.start)
    }

    /// The most slots a chunk at the position `k` holds.
    pub(crate) fn position_len(self, k: usize) -> usize {
        let bits = self.chunk_bits + u32::try_from(k).unwrap_or(u32::MAX);
        1usize.checked_shl(bits).unwrap_or(usize::MAX)
    }

    /// The position whose range holds `index` (past the first chunk), and the index within it.
    #[inline]
    pub(crate) fn position(self, index: usize) -> (usize, usize) {
        let past_first = index - self.start;
        let k = (usize::BITS - 1 - ((past_first >> self.chunk_bits) + 1).leading_zeros()) as usize;
        (k, past_first - (((1 << k) - 1) << self.chunk_bits))
    }

    /// Whether a chunk of `len` slots from `base` is where position `k` puts it, and no longer.
    pub(crate) fn fits(self, k: usize, base: usize, len: usize) -> bool {
        Some(base) == self.position_base(k)
            && len != 0
            && len <= self.position_len(k)
            && base + len <= INDEX_END
    }

    /// Where the next chunk goes when the pool may grow by `room` slots: the lowest position for
    /// which `empty` is true, its first index and the chunk's length; `None` when there is no
    /// room or no such position.
    pub(crate) fn next_chunk(
        self,
        room: usize,
        empty: impl Fn(usize) -> bool,
    ) -> Option<(usize, usize, usize)> {
        if room == 0 {
            return None;
        }
        let k = (0..self.position_count()).find(|&k| empty(k))?;
        let base = self.position_base(k)?;
        let len = (self.position_len(k))
            .min(room)
            .min(INDEX_END.saturating_sub(base));
        (len != 0).then_some((k, base, len))
    }
}
