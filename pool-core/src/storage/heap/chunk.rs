use crate::slot::occupancy;
use crate::slot::state;
use crate::storage::part::{Part, PartMut};
use crate::storage::view::ChunkView;
use alloc::boxed::Box;

/// A block of slots that never moves once built: its objects side by side, and apart from them
/// each slot's word and one occupancy bit per slot.
///
/// A lender reaches a chunk's buffers by their addresses (`&raw mut *`), which makes no
/// reference to them, so leases' references into them stay good (see storage/view.rs).
pub(crate) struct Chunk<T> {
    // Invariant: `objects` and `words` have the same length, and `bits` has a bit for each slot
    // (`words_for(len)` words), set exactly for the live ones; kept by the constructors (nothing
    // changes the lengths after) and `slot/state.rs`.
    /// The pool-wide index of the first slot.
    base: usize,
    objects: Box<[T]>,
    words: Box<[u64]>,
    bits: Box<[u64]>,
}

impl<T> Chunk<T> {
    /// `len` blank slots at `version` (even: not live).
    pub(crate) fn build(base: usize, len: usize, version: u32, blank: impl FnMut() -> T) -> Self {
        let mut blank = blank;
        let objects = (0..len).map(|_| blank()).collect();
        let words = (base..base + len)
            .map(|index| state::free_word(version, index))
            .collect();
        Self {
            base,
            objects,
            words,
            bits: Self::no_bits(len),
        }
    }

    /// A chunk of `objects` from `base` on, with their `words`, the bits of the live ones set.
    ///
    /// # Panics
    /// When `objects` and `words` differ in length.
    #[cfg(feature = "serde")]
    pub(crate) fn from_parts(base: usize, objects: Box<[T]>, words: Box<[u64]>) -> Self {
        assert_eq!(objects.len(), words.len(), "a word for each object");
        let mut bits = Self::no_bits(words.len());
        for (local, &word) in words.iter().enumerate() {
            if state::is_live(word) {
                let (at, mask) = occupancy::locate(local);
                bits[at] |= mask;
            }
        }
        Self {
            base,
            objects,
            words,
            bits,
        }
    }

    fn no_bits(len: usize) -> Box<[u64]> {
        alloc::vec![0; occupancy::words_for(len)].into_boxed_slice()
    }

    /// The same slots, each object made by `object` from whether its slot is live and the
    /// object here: handles into this chunk are good in the copy.
    pub(crate) fn clone_with(&self, mut object: impl FnMut(bool, &T) -> T) -> Self {
        let objects = (self.objects.iter().zip(&*self.words))
            .map(|(here, &word)| object(state::is_live(word), here))
            .collect();
        Self {
            base: self.base,
            objects,
            words: self.words.clone(),
            bits: self.bits.clone(),
        }
    }

    #[inline]
    pub(crate) fn base(&self) -> usize {
        self.base
    }

    #[inline]
    pub(crate) fn len(&self) -> usize {
        self.words.len()
    }

    #[inline]
    pub(crate) fn words(&self) -> &[u64] {
        &self.words
    }

    /// The slots, shared.
    #[inline]
    pub(crate) fn part(&self) -> Part<'_, T> {
        Part {
            base: self.base,
            objects: &self.objects,
            words: &self.words,
            bits: &self.bits,
        }
    }

    /// The slots, mutably.
    #[inline]
    pub(crate) fn part_mut(&mut self) -> PartMut<'_, T> {
        PartMut {
            base: self.base,
            objects: &mut self.objects,
            words: &mut self.words,
            bits: &mut self.bits,
        }
    }

    /// The slots as a lender sees them: pointers into the buffers, made without a reference
    /// to any of them.
    ///
    /// # Safety
    /// As [`ChunkView::new`]: for `'a` the buffers stay put (the chunk may move: its boxes'
    /// buffers do not), and are reached only through views.
    #[inline]
    pub(crate) unsafe fn view<'a>(&mut self) -> ChunkView<'a, T> {
        let len = self.words.len();
        let objects = (&raw mut *self.objects).cast::<T>();
        let (words, bits) = ((&raw mut *self.words).cast(), (&raw mut *self.bits).cast());
        // SAFETY: `words` has a word per object and `bits` a bit per word (the invariant
        // above); the rest is the caller's contract.
        unsafe { ChunkView::new(self.base, objects, words, bits, len) }
    }

    /// The object of the slot at `local`, an index in the chunk, if the slot's word is `word`:
    /// one bounds check, the word's, covers both.
    #[inline]
    pub(crate) fn get(&self, local: usize, word: u64) -> Option<&T> {
        if *self.words.get(local)? != word {
            stale();
            return None;
        }
        // SAFETY: `local` is in bounds of `words`, which is as long as `objects` (the invariant
        // above).
        Some(unsafe { self.objects.get_unchecked(local) })
    }

    /// The word of the slot at `local`.
    #[inline]
    pub(crate) fn word(&self, local: usize) -> Option<u64> {
        self.words.get(local).copied()
    }

    /// Asks the memory system for the slot at `local` (its word and object), which `create`
    /// is about to take: a hint, which changes nothing.
    #[inline]
    pub(crate) fn prefetch(&self, local: usize) {
        crate::storage::part::prefetch(&self.objects, &self.words, local);
    }

    /// The version, counted from `offset`, that a chunk built in this one's place must start
    /// from so that no handle into this one can match it: past every version used here. The
    /// chunk's slots are free and none retired, so it is even and not 0.
    pub(crate) fn version_floor(&self, offset: u32) -> u32 {
        (self.words.iter())
            .map(|&word| state::version(word).wrapping_sub(offset))
            .max()
            .unwrap_or(crate::limits::FIRST_VERSION)
    }

    /// Whether the bits are those of the live slots, and no bit is set past the slots; what
    /// disagrees if not.
    pub(crate) fn check_bits(&self) -> Result<(), &'static str> {
        crate::storage::part::check_bits(&self.words, &self.bits)
    }
}

/// Marks the path that calls it cold (`core::hint::cold_path`, after the crate's MSRV): a stale
/// handle is the rare case, so the object's load falls through from the compare, where a lookup
/// loop otherwise jumps to it and back (one instruction a lookup).
#[cold]
#[inline]
fn stale() {}
