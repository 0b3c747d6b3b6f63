//! A chunk of built slots as the pool reads and changes it: its objects, side by side, and
//! apart from them the slots' words and occupancy bits.
//!
//! Invariants, kept by the storage that makes them: `objects` and `words` have one element per
//! slot; `bits` has a bit for each (`words_for(len)` words), set exactly for the live slots.

use crate::slot::occupancy::{self, BITS};
use crate::slot::state::{self, Place};
use core::cell::Cell;

/// A chunk of built slots, shared.
pub(crate) struct Part<'a, T> {
    /// The pool-wide index of `objects[0]`.
    pub(crate) base: usize,
    pub(crate) objects: &'a [T],
    pub(crate) words: &'a [u64],
    pub(crate) bits: &'a [u64],
}

impl<T> Clone for Part<'_, T> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<T> Copy for Part<'_, T> {}

/// A chunk of built slots, mutably.
pub(crate) struct PartMut<'a, T> {
    pub(crate) base: usize,
    pub(crate) objects: &'a mut [T],
    pub(crate) words: &'a mut [u64],
    pub(crate) bits: &'a mut [u64],
}

impl<'a, T> PartMut<'a, T> {
    /// Calls `visit` on each live slot of the part, in index order, with its index in the part,
    /// its place and its object; `visit` may end the slot's life (vacate it). Each word of bits
    /// is read once, when the walk reaches it. Returns the part's words, for what `visit` left
    /// to do with them.
    pub(crate) fn visit_live(
        self,
        mut visit: impl FnMut(usize, Place<'_>, &mut T),
    ) -> &'a mut [u64] {
        let PartMut {
            objects,
            words,
            bits,
            ..
        } = self;
        {
            let cells = Cell::from_mut(&mut *words).as_slice_of_cells();
            // Whole groups of 64 objects and words apart from the last, shorter ones: in a group
            // whose length the compiler knows, a bit's slot needs no bounds check.
            let (groups, tail) = objects.as_chunks_mut::<BITS>();
            let (word_groups, word_tail) = cells.as_chunks::<BITS>();
            // The set bits of one word, read once (only `visit` clears bits, each of a slot
            // already passed), in `group`, the objects of that word, and `word_group`, their
            // words.
            let mut visit_word =
                |k: usize, bit_word: &Cell<u64>, group: &mut [T], word_group: &[Cell<u64>]| {
                    let mut set = bit_word.get();
                    while set != 0 {
                        let bit = set.trailing_zeros() as usize;
                        // Not `^= 1 << bit`: that waits on `trailing_zeros`.
                        set &= set - 1;
                        let (Some(object), Some(word)) = (group.get_mut(bit), word_group.get(bit))
                        else {
                            break;
                        };
                        visit(k * BITS + bit, Place::new(word, bit_word, 1 << bit), object);
                    }
                };
            for (k, bit_word) in Cell::from_mut(bits).as_slice_of_cells().iter().enumerate() {
                match (groups.get_mut(k), word_groups.get(k)) {
                    (Some(group), Some(word_group)) => visit_word(k, bit_word, group, word_group),
                    _ => visit_word(k, bit_word, tail, word_tail),
                }
            }
        }
        words
    }

    #[cfg(feature = "rayon")]
    /// The part split at `at` slots, a multiple of 64, so that each half has the words of its
    /// own bits: `None` when the part is not longer.
    pub(crate) fn split_at_group(self, at: usize) -> Result<(Self, Self), Self> {
        debug_assert!(at.is_multiple_of(BITS));
        if at == 0 || at >= self.objects.len() {
            return Err(self);
        }
        let (objects, later_objects) = self.objects.split_at_mut(at);
        let (words, later_words) = self.words.split_at_mut(at);
        let (bits, later_bits) = self.bits.split_at_mut(at / BITS);
        Ok((
            Self {
                base: self.base,
                objects,
                words,
                bits,
            },
            Self {
                base: self.base + at,
                objects: later_objects,
                words: later_words,
                bits: later_bits,
            },
        ))
    }
}

impl<T> Part<'_, T> {
    #[cfg(feature = "rayon")]
    /// [`PartMut::split_at_group`], shared.
    pub(crate) fn split_at_group(self, at: usize) -> Result<(Self, Self), Self> {
        debug_assert!(at.is_multiple_of(BITS));
        if at == 0 || at >= self.objects.len() {
            return Err(self);
        }
        let (objects, later_objects) = self.objects.split_at(at);
        let (words, later_words) = self.words.split_at(at);
        let (bits, later_bits) = self.bits.split_at(at / BITS);
        Ok((
            Self {
                base: self.base,
                objects,
                words,
                bits,
            },
            Self {
                base: self.base + at,
                objects: later_objects,
                words: later_words,
                bits: later_bits,
            },
        ))
    }
}

/// The words and bits of a chunk as cells: one [`Place`] per slot.
#[derive(Clone, Copy)]
pub(crate) struct Places<'a> {
    words: &'a [Cell<u64>],
    bits: &'a [Cell<u64>],
}

impl<'a> Places<'a> {
    /// The cells of `words` and `bits`, which have a bit for each word (`words_for`).
    #[inline]
    pub(crate) fn new(words: &'a mut [u64], bits: &'a mut [u64]) -> Self {
        Self::of_cells(
            Cell::from_mut(words).as_slice_of_cells(),
            Cell::from_mut(bits).as_slice_of_cells(),
        )
    }

    /// The places of `words`, with `bits`, which have a bit for each word (`words_for`).
    #[inline]
    pub(crate) fn of_cells(words: &'a [Cell<u64>], bits: &'a [Cell<u64>]) -> Self {
        debug_assert!(bits.len() >= occupancy::words_for(words.len()));
        Self { words, bits }
    }

    /// The place of the slot at `local`, if there is one.
    #[inline]
    pub(crate) fn get(&self, local: usize) -> Option<Place<'a>> {
        let word = self.words.get(local)?;
        let (at, mask) = occupancy::locate(local);
        let bits = self.bits.get(at)?;
        Some(Place::new(word, bits, mask))
    }

    #[inline]
    pub(crate) fn words(&self) -> &'a [Cell<u64>] {
        self.words
    }

    #[inline]
    pub(crate) fn bits(&self) -> &'a [Cell<u64>] {
        self.bits
    }
}

/// Whether `bits` has a word for each 64 of `words`, and a bit set exactly for each live word.
pub(crate) fn check_bits(words: &[u64], bits: &[u64]) -> Result<(), &'static str> {
    if bits.len() != occupancy::words_for(words.len()) {
        return Err("occupancy words not one per 64 slots");
    }
    for (at, &bitword) in bits.iter().enumerate() {
        let mut expected = 0;
        for (bit, &word) in words[at * BITS..].iter().take(BITS).enumerate() {
            expected |= u64::from(state::is_live(word)) << bit;
        }
        if bitword != expected {
            return Err("an occupancy bit that disagrees with its slot's version");
        }
    }
    Ok(())
}
