use crate::Handle;
use crate::slot::occupancy::{BITS, SetBits};
use crate::storage::{Chunks, ChunksMut};
use core::iter::{Copied, FusedIterator};
use core::{mem, slice};

/// The set bits of a chunk's words, each word read when the walk reaches it.
pub(crate) type Bits<'a> = SetBits<Copied<slice::Iter<'a, u64>>>;

/// The live slots of a pool's chunks, through `&Pool`, found by their occupancy bits.
pub(crate) struct Walk<'a, T> {
    objects: &'a [T],
    words: &'a [u64],
    /// The objects and the words from the current word of bits' first slot on.
    group: &'a [T],
    group_words: &'a [u64],
    bits: Bits<'a>,
    rest: Chunks<'a, T>,
}

impl<'a, T> Walk<'a, T> {
    pub(crate) fn new(mut chunks: Chunks<'a, T>) -> Self {
        let first = chunks.next().expect("a pool has a first chunk");
        Self {
            objects: first.objects,
            words: first.words,
            group: &[],
            group_words: &[],
            bits: SetBits::new(first.bits.iter().copied()),
            rest: chunks,
        }
    }

    /// The next live slot's word and object.
    #[inline]
    pub(crate) fn next(&mut self) -> Option<(&'a u64, &'a T)> {
        if !self.bits.in_word() {
            self.next_word()?;
        }
        let bit = self.bits.next_in_word();
        debug_assert!(bit < self.group.len(), "a bit past the chunk's slots");
        // SAFETY: a bit is set only for a live slot of its chunk (`slot/state.rs` changes bits
        // and versions together), and a chunk's bits cover its own slots: `bit` is in bounds
        // of the objects from its word's first slot on.
        let object = unsafe { self.group.get_unchecked(bit) };
        // SAFETY: as for `object`: the slot's index is in bounds of the words, as many as the
        // objects. (Read only where the caller uses it: `values()` does not.)
        let word = unsafe { self.group_words.get_unchecked(bit) };
        Some((word, object))
    }

    /// Moves to the next word with a bit set, in this chunk or the next ones.
    #[inline]
    fn next_word(&mut self) -> Option<()> {
        loop {
            if let Some(at) = self.bits.next_word() {
                self.group = self.objects.get(at..).unwrap_or_default();
                self.group_words = self.words.get(at..).unwrap_or_default();
                return Some(());
            }
            self.next_chunk()?;
        }
    }

    /// Inlined, though rare: as a call it would take the walk's address, and keep every field
    /// of the walk in memory rather than in registers.
    #[inline]
    fn next_chunk(&mut self) -> Option<()> {
        let chunk = self.rest.next()?;
        self.objects = chunk.objects;
        self.words = chunk.words;
        self.bits = SetBits::new(chunk.bits.iter().copied());
        Some(())
    }
}

impl<'a, T> Walk<'a, T> {
    /// Folds the live slots not yet passed, a run of consecutive live slots at a time: `f`
    /// gets each run's objects and words as slices, so that its loop is a slice's.
    #[inline]
    pub(crate) fn fold_runs<B>(
        mut self,
        mut acc: B,
        mut f: impl FnMut(B, &'a [T], &'a [u64]) -> B,
    ) -> B {
        loop {
            while let Some((start, len)) = self.bits.next_run() {
                // A chunk's bits cover its own slots: the run is in bounds.
                let (Some(run), Some(words)) = (
                    self.objects.get(start..start + len),
                    self.words.get(start..start + len),
                ) else {
                    return acc;
                };
                acc = f(acc, run, words);
            }
            if self.next_chunk().is_none() {
                return acc;
            }
        }
    }
}

impl<T> Clone for Walk<'_, T> {
    fn clone(&self) -> Self {
        Self {
            objects: self.objects,
            words: self.words,
            group: self.group,
            group_words: self.group_words,
            bits: self.bits.clone(),
            rest: self.rest.clone(),
        }
    }
}

/// The live slots of a pool's chunks, through `&mut Pool`: each object is split off the rest as
/// it is visited, so the mutable borrows handed out never overlap.
///
/// A word whose 64 bits are all set is taken whole, as a slice of 64 live objects: walked as a
/// slice is, with no bit found one by one, so that a full pool's update runs as a plain slice's.
pub(crate) struct WalkMut<'a, T> {
    /// The objects of the current chunk not yet passed, past `group`.
    objects: &'a mut [T],
    /// The index in the chunk of `objects[0]`.
    start: usize,
    /// The current chunk's words, which the walk does not change.
    words: &'a [u64],
    bits: Bits<'a>,
    /// The objects of a full word not yet passed, and the index in the chunk of the next.
    group: slice::IterMut<'a, T>,
    group_start: usize,
    rest: ChunksMut<'a, T>,
}

impl<'a, T> WalkMut<'a, T> {
    pub(crate) fn new(mut chunks: ChunksMut<'a, T>) -> Self {
        let first = chunks.next().expect("a pool has a first chunk");
        Self {
            objects: first.objects,
            start: 0,
            words: first.words,
            bits: SetBits::new(first.bits.iter().copied()),
            group: [].iter_mut(),
            group_start: 0,
            rest: chunks,
        }
    }

    /// The word of the slot at `local`, an index in the current chunk, of a live slot.
    #[inline]
    fn word(&self, local: usize) -> &'a u64 {
        debug_assert!(local < self.words.len());
        let words: &'a [u64] = self.words;
        // SAFETY: `local` is a live slot's (its bit is set), and a chunk's bits cover its own
        // slots, which have a word each.
        unsafe { words.get_unchecked(local) }
    }

    /// The object of the next set bit, in the current word or a later one of the chunk, and
    /// its index in the chunk; `None` past the chunk's last. Bit by bit: whole words are
    /// [`next_word`](WalkMut::next_word)'s.
    #[inline]
    fn next_in_word(&mut self) -> Option<(usize, &'a mut T)> {
        let local = self.bits.next()?;
        let objects = mem::take(&mut self.objects);
        let (object, rest) = objects.get_mut(local - self.start..)?.split_first_mut()?;
        self.objects = rest;
        self.start = local + 1;
        Some((local, object))
    }

    /// Moves to the next chunk; `None` past the last.
    #[inline]
    fn next_chunk(&mut self) -> Option<()> {
        let chunk = self.rest.next()?;
        self.objects = chunk.objects;
        self.start = 0;
        self.words = chunk.words;
        self.bits = SetBits::new(chunk.bits.iter().copied());
        Some(())
    }

    /// Moves to the next word with a bit set: taken whole, as `group`, if all 64 are set and
    /// true returned; `None` past the last word of the last chunk.
    #[inline]
    fn next_word(&mut self) -> Option<bool> {
        loop {
            if let Some(at) = self.bits.next_word() {
                let from = at - self.start;
                if !self.bits.word_full() || self.objects.len() < from + BITS {
                    return Some(false);
                }
                let objects = mem::take(&mut self.objects);
                let (group, rest) = objects[from..].split_at_mut(BITS);
                self.objects = rest;
                self.start = at + BITS;
                self.bits.skip_word();
                self.group = group.iter_mut();
                self.group_start = at;
                return Some(true);
            }
            self.next_chunk()?;
        }
    }
}

impl<'a, T> Iterator for WalkMut<'a, T> {
    type Item = (&'a u64, &'a mut T);

    #[inline]
    fn next(&mut self) -> Option<Self::Item> {
        loop {
            if let Some(object) = self.group.next() {
                let word = self.word(self.group_start);
                self.group_start += 1;
                return Some((word, object));
            }
            if self.bits.in_word() {
                let (local, object) = self.next_in_word()?;
                return Some((self.word(local), object));
            }
            self.next_word()?;
        }
    }

    /// Every run of consecutive live slots in one loop, as a slice's.
    #[inline]
    fn fold<B, F: FnMut(B, Self::Item) -> B>(self, acc: B, mut f: F) -> B {
        self.fold_runs(acc, |acc, run, words| {
            run.iter_mut()
                .zip(words)
                .fold(acc, |acc, (object, word)| f(acc, (word, object)))
        })
    }
}

impl<'a, T> WalkMut<'a, T> {
    /// Folds the live slots not yet passed, a run of consecutive live slots at a time: `f`
    /// gets each run's objects and words as slices, so that its loop is a slice's.
    #[inline]
    pub(crate) fn fold_runs<B>(
        mut self,
        mut acc: B,
        mut f: impl FnMut(B, &'a mut [T], &'a [u64]) -> B,
    ) -> B {
        let group = mem::take(&mut self.group).into_slice();
        if let Some(words) = self
            .words
            .get(self.group_start..self.group_start + group.len())
        {
            acc = f(acc, group, words);
        }
        loop {
            while let Some((start, len)) = self.bits.next_run() {
                let objects = mem::take(&mut self.objects);
                let Some((run, rest)) = (objects.get_mut(start - self.start..))
                    .and_then(|objects| objects.split_at_mut_checked(len))
                else {
                    return acc;
                };
                let Some(words) = self.words.get(start..start + len) else {
                    return acc;
                };
                self.objects = rest;
                self.start = start + len;
                acc = f(acc, run, words);
            }
            if self.next_chunk().is_none() {
                return acc;
            }
        }
    }
}

/// The live objects of a pool with their handles, in slot order; see
/// [`Pool::iter`](crate::Pool::iter).
///
/// It is `Send` and `Sync` when `T` is `Sync`, so that it can be split over threads; so is
/// [`Values`].
pub struct Iter<'a, T> {
    walk: Walk<'a, T>,
    /// Objects live and not yet passed: none starts or stops being live while the pool is
    /// borrowed shared.
    remaining: usize,
}

impl<'a, T> Iter<'a, T> {
    pub(crate) fn new(chunks: Chunks<'a, T>, len: usize) -> Self {
        Self {
            walk: Walk::new(chunks),
            remaining: len,
        }
    }
}

impl<'a, T> Iterator for Iter<'a, T> {
    type Item = (Handle<T>, &'a T);

    #[inline]
    fn next(&mut self) -> Option<Self::Item> {
        let (&word, object) = self.walk.next()?;
        self.remaining -= 1;
        Some((Handle::from_live_word(word), object))
    }

    #[inline]
    fn size_hint(&self) -> (usize, Option<usize>) {
        (self.remaining, Some(self.remaining))
    }

    /// Each run of consecutive live slots in one loop, as a slice's.
    #[inline]
    fn fold<B, F: FnMut(B, Self::Item) -> B>(self, init: B, mut f: F) -> B {
        self.walk.fold_runs(init, |acc, run, words| {
            run.iter().zip(words).fold(acc, |acc, (object, &word)| {
                f(acc, (Handle::from_live_word(word), object))
            })
        })
    }
}

impl<T> ExactSizeIterator for Iter<'_, T> {}

impl<T> FusedIterator for Iter<'_, T> {}

impl<T> Clone for Iter<'_, T> {
    fn clone(&self) -> Self {
        Self {
            walk: self.walk.clone(),
            remaining: self.remaining,
        }
    }
}

/// The live objects of a pool with their handles, mutably, in slot order; see
/// [`Pool::iter_mut`](crate::Pool::iter_mut).
///
/// It is `Send` when `T` is `Send`; so is [`ValuesMut`].
pub struct IterMut<'a, T> {
    walk: WalkMut<'a, T>,
    remaining: usize,
}

impl<'a, T> IterMut<'a, T> {
    pub(crate) fn new(chunks: ChunksMut<'a, T>, len: usize) -> Self {
        Self {
            walk: WalkMut::new(chunks),
            remaining: len,
        }
    }
}

impl<'a, T> Iterator for IterMut<'a, T> {
    type Item = (Handle<T>, &'a mut T);

    #[inline]
    fn next(&mut self) -> Option<Self::Item> {
        let (&word, object) = self.walk.next()?;
        self.remaining -= 1;
        Some((Handle::from_live_word(word), object))
    }

    #[inline]
    fn size_hint(&self) -> (usize, Option<usize>) {
        (self.remaining, Some(self.remaining))
    }

    #[inline]
    fn fold<B, F: FnMut(B, Self::Item) -> B>(self, init: B, mut f: F) -> B {
        self.walk.fold_runs(init, |acc, run, words| {
            run.iter_mut().zip(words).fold(acc, |acc, (object, &word)| {
                f(acc, (Handle::from_live_word(word), object))
            })
        })
    }
}

impl<T> ExactSizeIterator for IterMut<'_, T> {}
impl<T> FusedIterator for IterMut<'_, T> {}

/// The live objects of a pool, in slot order; see [`Pool::values`](crate::Pool::values).
pub struct Values<'a, T>(Iter<'a, T>);

impl<'a, T> Values<'a, T> {
    pub(crate) fn new(iter: Iter<'a, T>) -> Self {
        Self(iter)
    }
}

impl<'a, T> Iterator for Values<'a, T> {
    type Item = &'a T;

    #[inline]
    fn next(&mut self) -> Option<&'a T> {
        Some(self.0.next()?.1)
    }

    #[inline]
    fn size_hint(&self) -> (usize, Option<usize>) {
        self.0.size_hint()
    }

    /// Each run of consecutive live slots in a `for` loop over its slice, as `ValuesMut`'s.
    #[inline]
    fn fold<B, F: FnMut(B, Self::Item) -> B>(self, init: B, mut f: F) -> B {
        (self.0.walk).fold_runs(init, |mut acc, run, _| {
            for object in run {
                acc = f(acc, object);
            }
            acc
        })
    }
}

impl<T> ExactSizeIterator for Values<'_, T> {}
impl<T> FusedIterator for Values<'_, T> {}

impl<T> Clone for Values<'_, T> {
    fn clone(&self) -> Self {
        Self(self.0.clone())
    }
}

/// The live objects of a pool, mutably, in slot order; see
/// [`Pool::values_mut`](crate::Pool::values_mut).
pub struct ValuesMut<'a, T>(IterMut<'a, T>);

impl<'a, T> ValuesMut<'a, T> {
    pub(crate) fn new(iter: IterMut<'a, T>) -> Self {
        Self(iter)
    }
}

impl<'a, T> Iterator for ValuesMut<'a, T> {
    type Item = &'a mut T;

    #[inline]
    fn next(&mut self) -> Option<&'a mut T> {
        self.0.next().map(|(_, object)| object)
    }

    #[inline]
    fn size_hint(&self) -> (usize, Option<usize>) {
        self.0.size_hint()
    }

    /// Each run of consecutive live slots in a `for` loop over its slice, the loop the compiler
    /// vectorizes as it does a `Vec`'s (`run.iter_mut().fold(acc, &mut f)` did not: a kernel
    /// of a few adds took 1.55 × the `Vec`'s loop).
    #[inline]
    fn fold<B, F: FnMut(B, Self::Item) -> B>(self, init: B, mut f: F) -> B {
        (self.0.walk).fold_runs(init, |mut acc, run, _| {
            for object in run {
                acc = f(acc, object);
            }
            acc
        })
    }
}

impl<T> ExactSizeIterator for ValuesMut<'_, T> {}
impl<T> FusedIterator for ValuesMut<'_, T> {}
