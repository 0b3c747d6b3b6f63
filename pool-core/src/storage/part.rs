//! A chunk of built slots as the pool reads and changes it: its objects, side by side, and
//! apart from them the slots' words and occupancy bits.
//!
//! Invariants, kept by the storage that makes them: `objects` and `words` have one element per
//! slot; `bits` has a bit for each (`words_for(len)` words), set exactly for the live slots.

use crate::slot::occupancy::{self, BITS};
use crate::slot::state::{self, Place};
use crate::storage::slot_ref::SlotMut;
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
    /// The part again, borrowed for a shorter while.
    #[inline]
    pub(crate) fn reborrow(&mut self) -> PartMut<'_, T> {
        PartMut {
            base: self.base,
            objects: self.objects,
            words: self.words,
            bits: self.bits,
        }
    }

    /// The slot at `local`, mutably: one bounds check, the object's, covers the word and the
    /// bit.
    #[inline]
    pub(crate) fn into_slot(self, local: usize) -> Option<SlotMut<'a, T>> {
        let object = self.objects.get_mut(local)?;
        let (at, mask) = occupancy::locate(local);
        debug_assert!(local < self.words.len() && at < self.bits.len());
        // SAFETY: `local` is in bounds of `objects`, which is as long as `words` (the invariant
        // above).
        let word = unsafe { self.words.get_unchecked_mut(local) };
        // SAFETY: `bits` has a bit for each slot (the invariant above): `local / 64` is in it.
        let bits = unsafe { self.bits.get_unchecked_mut(at) };
        Some(SlotMut::new(object, word, bits, mask))
    }

    /// Asks the memory system for the slot at `local` (its word and object), which `create`
    /// is about to take: a hint, which changes nothing.
    #[inline]
    pub(crate) fn prefetch(&self, local: usize) {
        prefetch(self.objects, self.words, local);
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

/// Asks the memory system for the slot at `local` of `objects` and `words`, to write them: a
/// hint, which changes nothing.
#[inline]
pub(crate) fn prefetch<T>(objects: &[T], words: &[u64], local: usize) {
    // No bounds check: an address past the slots, a slot of a later chunk's, is fetched for
    // nothing, which costs less than the check on every slot of a burst.
    prefetch_line::<true, _>(words.as_ptr().wrapping_add(local));
    prefetch_line::<true, _>(objects.as_ptr().wrapping_add(local));
}

/// Asks the memory system for the cache line that holds `address`, to write it if `WRITE`,
/// else to read it: a hint, which changes nothing, at any address.
#[inline]
pub(crate) fn prefetch_line<const WRITE: bool, T>(address: *const T) {
    #[cfg(target_arch = "x86_64")]
    {
        use core::arch::x86_64::{_MM_HINT_ET0, _MM_HINT_T0, _mm_prefetch};
        let address = address.cast();
        if WRITE {
            // SAFETY: a prefetch reads and writes nothing (it may fetch a cache line, no more,
            // from any address), and `sse`, which it needs, is in every x86_64 target.
            unsafe { _mm_prefetch::<_MM_HINT_ET0>(address) };
        } else {
            // SAFETY: as above.
            unsafe { _mm_prefetch::<_MM_HINT_T0>(address) };
        }
    }
    // `core::arch::aarch64::_prefetch` is not stable (rust-lang/rust#117217): the instruction
    // itself. Miri runs no assembly.
    #[cfg(all(target_arch = "aarch64", not(miri)))]
    {
        if WRITE {
            // SAFETY: `prfm` is a hint: it does not fault at any address, and changes no
            // register, flag or memory the program sees.
            unsafe {
                core::arch::asm!(
                    "prfm pstl1keep, [{0}]",
                    in(reg) address,
                    options(nostack, preserves_flags, readonly)
                );
            };
        } else {
            // SAFETY: as above.
            unsafe {
                core::arch::asm!(
                    "prfm pldl1keep, [{0}]",
                    in(reg) address,
                    options(nostack, preserves_flags, readonly)
                );
            };
        }
    }
    #[cfg(not(any(target_arch = "x86_64", all(target_arch = "aarch64", not(miri)))))]
    let _ = address;
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
