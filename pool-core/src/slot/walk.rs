//! The one walk over a chunk's occupancy words, for both layouts and every loop over live
//! objects: iteration, runs, `retain`, `update` and their parallel forms. A chunk's slots are a
//! [`Strip`] (its objects side by side, or a column pool's rows) and its occupancy words say
//! which are live, 64 to a word. A stretch of full words is one loop over every slot in it,
//! which the compiler vectorizes as it does a slice's; any other word is walked bit by bit
//! (`trailing_zeros`, then the lowest bit cleared), and a run of live slots is cut from the
//! trailing zeros of a word and of its complement, with no lookup of its chunk.

use crate::slot::occupancy::BITS;
use crate::slot::state::Place;
use core::cell::Cell;
use core::marker::PhantomData;
use core::ptr;
use core::ptr::NonNull;

/// One chunk's slots, as a walk hands them out by index: its objects ([`Objects`],
/// [`ObjectsMut`]) or a column pool's rows (`Rows`, `RowsMut`). A strip is a pointer and a
/// length, so that a walk hands out a mutable slot without holding a borrow of the others;
/// the walks here hand each slot out once at a time, which is what keeps the pieces of a
/// mutable strip from overlapping.
pub(crate) trait Strip<'a>: Copy {
    /// One slot: `&T`, `&mut T`, a row.
    type One;
    /// Consecutive slots: `&[T]`, `&mut [T]`, a slice of each column.
    type Run;

    /// Whether a slot's fields lie in columns: a loop deciding each slot of a word then
    /// vectorizes, so `retain` gathers its decisions as bytes (see [`retain`]).
    const COLUMNS: bool = false;

    fn len(&self) -> usize;

    /// The first `len` slots (all of them, if there are fewer).
    fn truncate(self, len: usize) -> Self;

    /// The slots from `at` on.
    ///
    /// # Safety
    /// `at <= self.len()`.
    unsafe fn skip(self, at: usize) -> Self;

    /// The first `at` slots, and the rest.
    ///
    /// # Panics
    /// If `at` is past the last slot.
    #[inline]
    fn split_at(self, at: usize) -> (Self, Self) {
        assert!(at <= self.len(), "a split past the slots");
        // SAFETY: `at` is at most the length, checked above.
        (self.truncate(at), unsafe { self.skip(at) })
    }

    /// The slot at `at`.
    ///
    /// # Safety
    /// `at < self.len()`, and no slot handed out by this strip (or one split from the same
    /// whole) that covers `at` is in use.
    unsafe fn one(self, at: usize) -> Self::One;

    /// The `len` slots from `start`.
    ///
    /// # Safety
    /// As [`one`](Strip::one), for each of them: `start + len <= self.len()`.
    unsafe fn run(self, start: usize, len: usize) -> Self::Run;

    /// The slot at `at`, as [`one`](Strip::one), asking the memory system for what lies
    /// [`AHEAD`] bytes past it, where a walk from bit to bit will soon be: the processor fetches
    /// ahead for a load that steps by a fixed stride, which such a walk's loads do not (at 90 %
    /// live with holes at random, `values_mut().for_each` took 1.21-1.38 x a `Vec`'s time
    /// without, 1.04-1.21 x with). From the slot's address, not its index: from the index, a
    /// `for` loop's `next` took five instructions more a slot, not one.
    ///
    /// # Safety
    /// As [`one`](Strip::one).
    #[inline]
    unsafe fn one_fetching(self, at: usize) -> Self::One {
        // SAFETY: the caller's contract.
        unsafe { self.one(at) }
    }
}

/// How far ahead of its slot a walk from bit to bit asks for memory, in bytes: 512 and 1,024
/// measured alike, 1,024 a little better.
const AHEAD: usize = 1024;

/// A chunk's objects, shared ([`Objects`]) or mutably ([`ObjectsMut`]): the first and how many.
macro_rules! objects {
    ($(#[$doc:meta])* $name:ident, $slice:ty, $one:ty, $($access:tt)*) => {
        $(#[$doc])*
        pub(crate) struct $name<'a, T> {
            first: NonNull<T>,
            len: usize,
            objects: PhantomData<$slice>,
        }

        impl<'a, T> $name<'a, T> {
            #[inline]
            pub(crate) fn new(objects: $slice) -> Self {
                Self {
                    len: objects.len(),
                    first: NonNull::from(objects).cast(),
                    objects: PhantomData,
                }
            }
        }

        impl<T> Clone for $name<'_, T> {
            fn clone(&self) -> Self {
                *self
            }
        }

        impl<T> Copy for $name<'_, T> {}

        impl<'a, T> Strip<'a> for $name<'a, T> {
            type One = $one;
            type Run = $slice;

            #[inline]
            fn len(&self) -> usize {
                self.len
            }

            #[inline]
            fn truncate(self, len: usize) -> Self {
                let len = len.min(self.len);
                Self { len, ..self }
            }

            #[inline]
            unsafe fn skip(self, at: usize) -> Self {
                Self {
                    // SAFETY: `at` is at most the length (the caller's contract): the pointer
                    // stays in, or one past, the slice.
                    first: unsafe { self.first.add(at) },
                    len: self.len - at,
                    objects: PhantomData,
                }
            }

            #[inline]
            unsafe fn one(self, at: usize) -> $one {
                // SAFETY: `at` is below the length (the caller's contract).
                let object = unsafe { self.first.add(at) };
                // SAFETY: the object lives for `'a` (the strip borrows the slice as its type
                // says), and if mutable nothing else reaches it while this reference is in use
                // (the caller's contract).
                unsafe { &$($access)* *object.as_ptr() }
            }

            #[inline]
            unsafe fn one_fetching(self, at: usize) -> $one {
                // SAFETY: `at` is below the length (the caller's contract).
                let object = unsafe { self.first.add(at) };
                crate::storage::part::prefetch_line::<false, _>(
                    object.as_ptr().cast::<u8>().wrapping_add(AHEAD),
                );
                // SAFETY: as `one`'s.
                unsafe { &$($access)* *object.as_ptr() }
            }

            #[inline]
            unsafe fn run(self, start: usize, len: usize) -> $slice {
                // SAFETY: `start + len` is at most the length (the caller's contract).
                let first = unsafe { self.first.add(start) };
                // SAFETY: the `len` objects from `first` are in the slice, which lives for
                // `'a`, and if mutable nothing else reaches them while the run is in use (the
                // caller's contract).
                unsafe { &$($access)* *ptr::slice_from_raw_parts_mut(first.as_ptr(), len) }
            }
        }
    };
}

objects!(
    /// A chunk's objects, shared.
    Objects, &'a [T], &'a T,
);
objects!(
    /// A chunk's objects, mutably.
    ObjectsMut, &'a mut [T], &'a mut T, mut
);

// SAFETY: the strip stands for `&[T]`, which is `Send` and `Sync` when `T` is `Sync`,
unsafe impl<T: Sync> Send for Objects<'_, T> {}
// SAFETY: (as above)
unsafe impl<T: Sync> Sync for Objects<'_, T> {}
// SAFETY: and for `&mut [T]`, which is `Send` when `T` is,
unsafe impl<T: Send> Send for ObjectsMut<'_, T> {}
// SAFETY: and `Sync` when `T` is.
unsafe impl<T: Sync> Sync for ObjectsMut<'_, T> {}

/// A chunk as a walk reads it: its slots, one word per slot (a live slot's word is its
/// handle's bits), and the occupancy words of its slots.
#[derive(Clone, Copy)]
pub(crate) struct Chunk<'a, S> {
    pub(crate) strip: S,
    pub(crate) words: &'a [u64],
    pub(crate) bits: &'a [u64],
}

impl<'a, S: Strip<'a>> Chunk<'a, S> {
    /// The chunk split at `at` slots, a multiple of 64, so that each half has the occupancy
    /// words of its own slots: `Err` when the chunk is not longer.
    #[cfg(feature = "rayon")]
    pub(crate) fn split_at_group(self, at: usize) -> Result<(Self, Self), Self> {
        if at == 0 || at >= self.strip.len() {
            return Err(self);
        }
        let (strip, later_strip) = self.strip.split_at(at);
        let (words, later_words) = self.words.split_at(at);
        let (bits, later_bits) = self.bits.split_at(at / BITS);
        Ok((
            Self { strip, words, bits },
            Self {
                strip: later_strip,
                words: later_words,
                bits: later_bits,
            },
        ))
    }
}

/// The word of the live slot at `at`.
#[inline]
fn word(words: &[u64], at: usize) -> u64 {
    debug_assert!(at < words.len());
    // SAFETY: `at` is a live slot's index: below the chunk's length, and a chunk has a word
    // per slot (`Part`'s invariant).
    unsafe { *words.get_unchecked(at) }
}

/// Folds the live slots of a strip whose occupancy words are `bits`, in slot order, `f`
/// getting each slot's index: a stretch of full words as one loop over all its slots, the
/// other words bit by bit.
#[inline]
pub(crate) fn fold<'a, S: Strip<'a>, B>(
    strip: S,
    bits: &[u64],
    mut acc: B,
    mut f: impl FnMut(B, usize, S::One) -> B,
) -> B {
    let mut k = 0;
    while let Some(&word) = bits.get(k) {
        if word == u64::MAX {
            let full = bits[k..]
                .iter()
                .take_while(|&&word| word == u64::MAX)
                .count();
            for at in k * BITS..(k + full) * BITS {
                // SAFETY: every slot of a full word is live, so in the chunk (a bit is set for
                // a live slot only), and each is handed out once.
                acc = f(acc, at, unsafe { strip.one(at) });
            }
            k += full;
        } else {
            acc = fold_word(strip, k * BITS, word, acc, &mut f);
            k += 1;
        }
    }
    acc
}

/// Folds the slots whose bits are set in `word`, the occupancy word of the slots from `base`.
#[inline]
fn fold_word<'a, S: Strip<'a>, B>(
    strip: S,
    base: usize,
    mut word: u64,
    mut acc: B,
    f: &mut impl FnMut(B, usize, S::One) -> B,
) -> B {
    if word == 0 {
        return acc;
    }
    debug_assert!(base < strip.len());
    // The slots from the word's first, so that a slot's place is found from its bit alone.
    // SAFETY: the word has a bit set, for a live slot at `base` or past it: below the length.
    let group = unsafe { strip.skip(base) };
    loop {
        let bit = word.trailing_zeros() as usize;
        // Not `^= 1 << bit`: that waits on `trailing_zeros`, which would put the count's
        // latency on the chain from one object to the next.
        word &= word - 1;
        debug_assert!(bit < group.len(), "a bit past the chunk's slots");
        // SAFETY: a bit is set only for a live slot of the chunk (`slot/state.rs` changes bits
        // and versions together), and each bit is visited once.
        acc = f(acc, base + bit, unsafe { group.one_fetching(bit) });
        if word == 0 {
            return acc;
        }
    }
}

/// Calls `keep` on each live slot of a strip (with the slot's word, from the cells `words`,
/// whose occupancy words are the cells `bits`), and `release` on each it returns false for,
/// with the slot's place (its word and bit) to change. In a full word, when `batch` (no release
/// runs code that could panic), every slot is decided in one loop over the word, then the
/// word's releases made; elsewhere each slot is released as soon as it is decided. If `keep`
/// panics, the slots decided before it are released or kept as decided and the rest left live;
/// if `release` panics, its slot stays live.
#[inline]
pub(crate) fn retain<'a, S: Strip<'a>>(
    strip: S,
    (words, bits): (&[Cell<u64>], &[Cell<u64>]),
    batch: bool,
    mut keep: impl FnMut(u64, S::One) -> bool,
    mut release: impl FnMut(usize, Place<'_>, S::One),
) {
    let word = |at: usize| {
        debug_assert!(at < words.len());
        // SAFETY: `at` is a live slot's index: below the chunk's length, and a chunk has a word
        // per slot (`Part`'s invariant).
        unsafe { words.get_unchecked(at) }
    };
    for (k, cell) in bits.iter().enumerate() {
        let (base, live) = (k * BITS, cell.get());
        let mut release = |at: usize, one| {
            let place = Place::new(word(at), cell, 1 << (at % BITS));
            release(at, place, one);
        };
        if batch && live == u64::MAX {
            // Each slot kept until decided. The guard releases what was decided only while
            // unwinding, and the releases are made after it: a guard dropped on the way out,
            // out of line, held `release`'s captures in memory, to be loaded again at every
            // slot of the walk (the seed's frame: 12 % of its instructions).
            let mut decide = |at| {
                // SAFETY: every slot of a full word is live, and each is handed out once.
                keep(word(at).get(), unsafe { strip.one(at) })
            };
            let kept = if S::COLUMNS {
                // Over columns the loop vectorizes, storing the decisions a vector at a time.
                let mut kept = [true; BITS];
                let mut deciding = scopeguard::guard(&mut kept, |kept| {
                    fold_word(strip, base, !pack(kept), (), &mut |(), at, one| {
                        release(at, one);
                    });
                });
                for (at, kept) in (base..).zip(deciding.iter_mut()) {
                    *kept = decide(at);
                }
                scopeguard::ScopeGuard::into_inner(deciding);
                pack(&kept)
            } else {
                // Over objects it does not, and a byte stored per slot then read back eight
                // at a time missed the store buffer's forwarding: the seed's frame took
                // 1.3 x slab's time in as many instructions.
                let mut kept = scopeguard::guard(u64::MAX, |kept| {
                    fold_word(strip, base, !kept, (), &mut |(), at, one| {
                        release(at, one);
                    });
                });
                let (mut bit, mut at) = (1, base);
                while bit != 0 {
                    *kept ^= bit & u64::from(!decide(at)).wrapping_neg();
                    (bit, at) = (bit << 1, at + 1);
                }
                scopeguard::ScopeGuard::into_inner(kept)
            };
            fold_word(strip, base, !kept, (), &mut |(), at, one| {
                release(at, one);
            });
        } else if live != 0 {
            // Not `fold_word`: its closure would hold `keep`'s slot as an argument while
            // `release` takes the slot again. From the word's first slot, as there, so that a
            // slot is found from its bit alone: two instructions a slot fewer.
            // SAFETY: the word has a bit set, for a live slot at `base` or past it: below the
            // strip's length.
            let group = unsafe { strip.skip(base) };
            let mut live = live;
            while live != 0 {
                let bit = live.trailing_zeros() as usize;
                live &= live - 1;
                debug_assert!(bit < group.len(), "a bit past the chunk's slots");
                // SAFETY: a bit is set only for a live slot of the chunk, visited once.
                if !keep(word(base + bit).get(), unsafe { group.one_fetching(bit) }) {
                    // SAFETY: as above: the slot is live, and `keep` is done with it.
                    release(base + bit, unsafe { group.one(bit) });
                }
            }
        }
    }
}

/// The bits of 64 flags, `flags[i]` as bit `i`: eight bytes at a time, each byte's low bit
/// gathered by a multiplication.
#[inline]
fn pack(flags: &[bool; BITS]) -> u64 {
    let (bytes, _) = flags.as_chunks::<8>();
    bytes.iter().enumerate().fold(0, |bits, (k, eight)| {
        let eight = u64::from_le_bytes(eight.map(u8::from));
        bits | (eight.wrapping_mul(0x0102_0408_1020_4080) >> 56) << (8 * k)
    })
}

/// The live slots of a pool's chunks, one at a time or a run at a time, for the iterators that
/// hand them out: the current chunk's slots, words and occupancy words from the current
/// word's on, the current word's bits not yet handed out, and the chunks after it.
#[derive(Clone)]
pub(crate) struct Walk<'a, S, C> {
    strip: S,
    words: &'a [u64],
    /// The current occupancy word first: `word` is what is left of it.
    bits: &'a [u64],
    word: u64,
    rest: C,
}

impl<'a, S: Strip<'a>, C: Iterator<Item = Chunk<'a, S>>> Walk<'a, S, C> {
    /// A walk from the first slot of `first`, then of each chunk of `rest`.
    #[inline]
    pub(crate) fn new(first: Chunk<'a, S>, rest: C) -> Self {
        Self {
            strip: first.strip,
            words: first.words,
            bits: first.bits,
            word: first.bits.first().copied().unwrap_or(0),
            rest,
        }
    }

    /// The next live slot, with its word.
    #[inline]
    pub(crate) fn next(&mut self) -> Option<(u64, S::One)> {
        while self.word == 0 {
            self.next_word()?;
        }
        let at = self.word.trailing_zeros() as usize;
        self.word &= self.word - 1;
        debug_assert!(at < self.strip.len(), "a bit past the chunk's slots");
        // SAFETY: a bit is set only for a live slot, and each is handed out once.
        let one = unsafe { self.strip.one_fetching(at) };
        Some((word(self.words, at), one))
    }

    /// Moves to the next occupancy word, in this chunk or the next; `None` past the last.
    #[inline]
    fn next_word(&mut self) -> Option<()> {
        if let Some(bits @ [word, ..]) = self.bits.get(1..) {
            // SAFETY: a word follows, so the chunk has slots past this word's.
            self.strip = unsafe { self.strip.skip(BITS) };
            self.words = self.words.get(BITS..).unwrap_or_default();
            (self.bits, self.word) = (bits, *word);
        } else {
            let Chunk { strip, words, bits } = self.rest.next()?;
            let word = bits.first().copied().unwrap_or(0);
            (self.strip, self.words, self.bits, self.word) = (strip, words, bits, word);
        }
        Some(())
    }

    /// The next run of consecutive live slots: the rest of the current word's lowest run,
    /// through the full words after it and into the low bits of the first that is not.
    #[inline]
    pub(crate) fn next_run(&mut self) -> Option<S::Run> {
        while self.word == 0 {
            self.next_word()?;
        }
        let first = self.word.trailing_zeros() as usize;
        // The bits below `first` are clear: the run is the trailing ones from `first` up.
        let ones = (!(self.word >> first)).trailing_zeros() as usize;
        let (strip, mut len) = (self.strip, ones);
        if first + ones < BITS {
            self.word &= u64::MAX << (first + ones);
        } else {
            self.word = 0;
            while let Some(bits @ [word, ..]) = self.bits.get(1..) {
                // SAFETY: a word follows, so the chunk has slots past this word's.
                self.strip = unsafe { self.strip.skip(BITS) };
                self.words = self.words.get(BITS..).unwrap_or_default();
                self.bits = bits;
                let ones = word.trailing_ones() as usize;
                len += ones;
                if ones < BITS {
                    self.word = word & (u64::MAX << ones);
                    break;
                }
            }
        }
        debug_assert!(first + len <= strip.len(), "a run past the chunk's slots");
        // SAFETY: the slots are live (their bits set), so in the chunk, and each bit is cleared
        // as its slot is handed out.
        Some(unsafe { strip.run(first, len) })
    }

    /// Folds the live slots not yet handed out, with their words: [`fold`] over the rest of
    /// each chunk (the current word bit by bit first if the walk is part-way through it).
    #[inline]
    pub(crate) fn fold<B>(self, mut acc: B, mut f: impl FnMut(B, u64, S::One) -> B) -> B {
        let Self {
            mut strip,
            mut words,
            mut bits,
            word,
            mut rest,
        } = self;
        if let Some((&whole, later)) = bits.split_first()
            && whole != word
        {
            acc = fold_word(strip, 0, word, acc, &mut |acc, at, one| {
                f(acc, self::word(words, at), one)
            });
            if !later.is_empty() {
                // SAFETY: a word follows, so the chunk has slots past this word's.
                strip = unsafe { strip.skip(BITS) };
                words = words.get(BITS..).unwrap_or_default();
            }
            bits = later;
        }
        loop {
            acc = fold(strip, bits, acc, |acc, at, one| {
                f(acc, self::word(words, at), one)
            });
            let Some(chunk) = rest.next() else {
                return acc;
            };
            (strip, words, bits) = (chunk.strip, chunk.words, chunk.bits);
        }
    }
}

/// A walk's groups: each stretch of consecutive occupancy words with a live slot in each, with
/// those words and all the slots they cover (64 a word, fewer at a chunk's end), live and free
/// alike, for kernels that run over free slots too. A stretch ends at a word with no live slot or
/// at a chunk's end: with random holes, a chunk is one group.
pub(crate) struct Groups<W>(W);

impl<'a, S: Strip<'a>, C: Iterator<Item = Chunk<'a, S>>> Groups<Walk<'a, S, C>> {
    /// The groups of a walk nothing was taken from yet.
    #[inline]
    pub(crate) fn new(walk: Walk<'a, S, C>) -> Self {
        debug_assert!(walk.bits.first().is_none_or(|&whole| whole == walk.word));
        Self(walk)
    }

    /// The next stretch of words with a live slot, and its slots.
    #[inline]
    pub(crate) fn next(&mut self) -> Option<(&'a [u64], S::Run)> {
        let walk = &mut self.0;
        while walk.word == 0 {
            walk.next_word()?;
        }
        // The walk never takes part of a word here: the current word is whole.
        let words = walk.bits.iter().position(|&word| word == 0);
        let (live, rest) = walk.bits.split_at(words.unwrap_or(walk.bits.len()));
        let len = walk.strip.len().min(live.len() * BITS);
        let group = walk.strip;
        // On the stretch's last word, cleared, so that the next call moves past it.
        let last = (live.len() - 1) * BITS;
        // SAFETY: the stretch's last word covers a slot of the chunk, so `last` is below its
        // length.
        walk.strip = unsafe { walk.strip.skip(last) };
        walk.words = walk.words.get(last..).unwrap_or_default();
        walk.bits = &walk.bits[live.len() - 1..];
        walk.word = 0;
        debug_assert_eq!(walk.bits.len(), rest.len() + 1);
        // SAFETY: the strip started at the stretch's first slot and `len` is at most its
        // length; every slot of a chunk holds an object, live or free (`Part`'s invariant), and
        // each group is handed out once, the walk moved past it.
        Some((live, unsafe { group.run(0, len) }))
    }
}

#[cfg(test)]
mod tests {
    use super::{Chunk, Groups, Objects, Strip, Walk, fold};
    use alloc::vec::Vec;
    use core::iter;

    /// The walk over chunks of these occupancy words, each chunk's slots holding their indices
    /// in the whole (and as words).
    fn chunks(chunks: &[Vec<u64>], slots: &[usize]) -> Vec<(usize, usize)> {
        let mut at = 0;
        chunks
            .iter()
            .map(|bits| {
                let len = (bits.len() * 64).min(slots.len() - at);
                at += len;
                (at - len, len)
            })
            .collect()
    }

    fn walk<'a>(
        all: &'a [Vec<u64>],
        slots: &'a [usize],
        words: &'a [u64],
    ) -> Walk<'a, Objects<'a, usize>, impl Iterator<Item = Chunk<'a, Objects<'a, usize>>>> {
        let mut each = chunks(all, slots)
            .into_iter()
            .zip(all)
            .map(move |((at, len), bits)| Chunk {
                strip: Objects::new(&slots[at..at + len]),
                words: &words[at..at + len],
                bits,
            });
        let first = each.next().unwrap();
        Walk::new(first, each)
    }

    /// Every set bit's slot, one at a time.
    fn by_bits(all: &[Vec<u64>], slots: &[usize]) -> Vec<usize> {
        let mut found = Vec::new();
        for ((at, _), bits) in chunks(all, slots).into_iter().zip(all) {
            for (k, &word) in bits.iter().enumerate() {
                found.extend(
                    (0..64)
                        .filter(|bit| word >> bit & 1 == 1)
                        .map(|b| at + k * 64 + b),
                );
            }
        }
        found
    }

    #[test]
    fn walks_by_slot_by_run_and_by_fold_see_the_set_bits_in_order() {
        let full = u64::MAX;
        let mut state = 0x9E37_79B9_7F4A_7C15_u64;
        let mut next = || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        // Fewer under Miri, which runs each case a thousand times slower: four still give one,
        // two and three chunks.
        for case in 0..if cfg!(miri) { 4 } else { 1_000 } {
            let all: Vec<Vec<u64>> = (0..=case % 3)
                .map(|_| {
                    (0..=next() % 4)
                        .map(|_| match next() % 4 {
                            0 => 0,
                            1 => full,
                            2 => full << (next() % 64),
                            _ => next(),
                        })
                        .collect()
                })
                .collect();
            let len: usize = all.iter().map(|bits| bits.len() * 64).sum();
            let slots: Vec<usize> = (0..len).collect();
            let words: Vec<u64> = (0..len as u64).collect();
            let expected = by_bits(&all, &slots);

            let mut one = walk(&all, &slots, &words);
            let by_next: Vec<usize> = iter::from_fn(|| one.next())
                .map(|(w, &s)| {
                    assert_eq!(w, s as u64, "a slot's word");
                    s
                })
                .collect();
            assert_eq!(by_next, expected, "{all:x?}");

            let mut runs = walk(&all, &slots, &words);
            let by_run: Vec<&[usize]> = iter::from_fn(|| runs.next_run()).collect();
            assert_eq!(by_run.concat(), expected, "{all:x?}");
            let starts: Vec<usize> = chunks(&all, &slots).iter().map(|&(at, _)| at).collect();
            assert!(
                by_run
                    .windows(2)
                    .all(|w| w[0].last().unwrap() + 1 < w[1][0] || starts.contains(&w[1][0])),
                "runs end at a clear bit or a chunk's end: {all:x?}"
            );

            // Groups: each stretch of words with a bit set, with their slots (64 a word, fewer
            // at a chunk's end).
            let mut groups = Groups::new(walk(&all, &slots, &words));
            let by_group: Vec<(&[u64], &[usize])> = iter::from_fn(|| groups.next()).collect();
            let mut whole = Vec::new();
            for ((at, len), bits) in chunks(&all, &slots).into_iter().zip(&all) {
                for (k, stretch) in bits
                    .chunk_by(|a, b| (*a == 0) == (*b == 0))
                    .fold((0, Vec::new()), |(k, mut found), stretch| {
                        found.push((k, stretch));
                        (k + stretch.len(), found)
                    })
                    .1
                {
                    if stretch[0] != 0 {
                        let from = at + k * 64;
                        let to = (from + 64 * stretch.len()).min(at + len);
                        whole.push((stretch, &slots[from..to]));
                    }
                }
            }
            assert_eq!(by_group, whole, "{all:x?}");

            for taken in [0, 1, 63, 64, 65, expected.len()] {
                let mut walk = walk(&all, &slots, &words);
                let mut seen: Vec<usize> = iter::from_fn(|| walk.next())
                    .take(taken)
                    .map(|(_, &s)| s)
                    .collect();
                walk.fold((), |(), w, &s| {
                    assert_eq!(w, s as u64);
                    seen.push(s);
                });
                assert_eq!(seen, expected, "{taken} by `next`, then `fold`: {all:x?}");
            }
        }
    }

    #[test]
    fn a_stretch_of_full_words_is_folded_in_one_loop_with_each_slot_once() {
        let slots: Vec<usize> = (0..300).collect();
        let bits = [u64::MAX, u64::MAX, 0b101, u64::MAX, u64::MAX >> 20];
        let seen = fold(
            Objects::new(&slots),
            &bits,
            Vec::new(),
            |mut seen, at, &slot| {
                assert_eq!(at, slot);
                seen.push(slot);
                seen
            },
        );
        let expected: Vec<usize> = (0..128).chain([128, 130]).chain(192..300).collect();
        assert_eq!(seen, expected);
        assert_eq!(Objects::new(&slots).split_at(64).1.len(), 236);
    }
}
