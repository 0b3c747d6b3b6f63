use crate::Handle;
use crate::slot::Slot;
#[cfg(feature = "rayon")]
use crate::slot::occupancy::Bit;
use crate::slot::occupancy::{BITS, SetBits};
use crate::slot::shared::SharedU64;
use crate::storage::{Chunks, ChunksMut};
use core::iter::FusedIterator;
use core::mem;

/// The live slots of a pool's chunks, through `&Pool`, found by their occupancy bits.
pub(crate) struct Walk<'a, T> {
    slots: &'a [Slot<T>],
    /// The slots from the current word's first on.
    group: &'a [Slot<T>],
    /// The pool-wide index of `slots[0]`.
    base: usize,
    bits: SetBits<'a>,
    /// The index in the chunk of the current word's bit 0.
    at: usize,
    rest: Chunks<'a, T>,
}

impl<'a, T> Walk<'a, T> {
    pub(crate) fn new(mut chunks: Chunks<'a, T>) -> Self {
        let first = chunks.next().expect("a pool has a first chunk");
        Self {
            slots: first.slots,
            group: &[],
            base: first.base,
            bits: SetBits::new(first.words),
            at: 0,
            rest: chunks,
        }
    }

    /// The next live slot's index, the slot and its object.
    #[inline]
    pub(crate) fn next(&mut self) -> Option<(usize, &'a Slot<T>, &'a T)> {
        if !self.bits.in_word() {
            self.next_word()?;
        }
        let bit = self.bits.next_in_word();
        debug_assert!(bit < self.group.len(), "a bit past the chunk's slots");
        // SAFETY: a bit is set only for a slot of its chunk, so `bit` is in bounds of the
        // slots from its word's first on.
        let slot = unsafe { self.group.get_unchecked(bit) };
        // SAFETY: the slot's occupancy bit is set, and a bit is set exactly while its slot is
        // live: `slot/state.rs` makes every change of either, and changes both together.
        let object = unsafe { slot.get_unchecked() };
        Some((self.base + self.at + bit, slot, object))
    }

    /// Moves to the next word with a bit set, in this chunk or the next ones.
    #[inline]
    fn next_word(&mut self) -> Option<()> {
        loop {
            if let Some(at) = self.bits.next_word() {
                self.at = at;
                self.group = self.slots.get(at..).unwrap_or_default();
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
        self.slots = chunk.slots;
        self.base = chunk.base;
        self.bits = SetBits::new(chunk.words);
        Some(())
    }
}

impl<T> Clone for Walk<'_, T> {
    fn clone(&self) -> Self {
        Self {
            slots: self.slots,
            group: self.group,
            base: self.base,
            bits: self.bits.clone(),
            at: self.at,
            rest: self.rest.clone(),
        }
    }
}

/// The live slots of a pool's chunks, through `&mut Pool`: each slot is split off the rest as it
/// is visited, so the mutable borrows handed out never overlap.
///
/// A word whose 64 bits are all set is taken whole, as a slice of 64 live slots: walked as a
/// slice is, with no bit found one by one, so that a full pool's update runs as a plain slice's.
pub(crate) struct WalkMut<'a, T> {
    /// The slots of the current chunk not yet passed, past `group`.
    slots: &'a mut [Slot<T>],
    /// The index in the chunk of `slots[0]`.
    start: usize,
    base: usize,
    /// The current chunk's occupancy words, and its set bits not yet passed.
    words: &'a [SharedU64],
    bits: SetBits<'a>,
    /// The slots of a full word not yet passed, and the pool-wide index of the next.
    group: core::slice::IterMut<'a, Slot<T>>,
    group_index: usize,
    rest: ChunksMut<'a, T>,
}

impl<'a, T> WalkMut<'a, T> {
    pub(crate) fn new(mut chunks: ChunksMut<'a, T>) -> Self {
        let first = chunks.next().expect("a pool has a first chunk");
        Self {
            slots: first.slots,
            start: 0,
            base: first.base,
            words: first.words,
            bits: SetBits::new(first.words),
            group: [].iter_mut(),
            group_index: 0,
            rest: chunks,
        }
    }

    /// The slot of the next set bit, in the current word or a later one of the chunk, and its
    /// index in the chunk; `None` past the chunk's last. Bit by bit: whole words are
    /// [`next_word`](WalkMut::next_word)'s.
    #[inline]
    fn next_in_word(&mut self) -> Option<(usize, &'a mut Slot<T>)> {
        let local = self.bits.next()?;
        let slots = mem::take(&mut self.slots);
        let (slot, rest) = slots.get_mut(local - self.start..)?.split_first_mut()?;
        self.slots = rest;
        self.start = local + 1;
        Some((local, slot))
    }

    /// Moves to the next chunk; `None` past the last.
    #[inline]
    fn next_chunk(&mut self) -> Option<()> {
        let chunk = self.rest.next()?;
        self.base = chunk.base;
        self.slots = chunk.slots;
        self.start = 0;
        self.words = chunk.words;
        self.bits = SetBits::new(chunk.words);
        Some(())
    }

    /// The next live slot's index, the slot and its occupancy bit: to vacate it. The bits of a
    /// word are read when the walk reaches it, so clearing the bit of a slot passed is safe.
    /// One bit at a time (no whole words), so that a bit cleared is never of a word taken.
    #[cfg(feature = "rayon")]
    #[inline]
    pub(crate) fn next_with_bit(&mut self) -> Option<(usize, &'a mut Slot<T>, Bit<'a>)> {
        debug_assert!(self.group.len() == 0, "`next_with_bit` walks bit by bit");
        loop {
            if let Some((local, slot)) = self.next_in_word() {
                return Some((self.base + local, slot, Bit::new(self.words, local)));
            }
            self.next_chunk()?;
        }
    }

    /// Moves to the next word with a bit set: taken whole, as `group`, if all 64 are set and
    /// true returned; `None` past the last word of the last chunk.
    #[inline]
    fn next_word(&mut self) -> Option<bool> {
        loop {
            if let Some(at) = self.bits.next_word() {
                let from = at - self.start;
                if !self.bits.word_full() || self.slots.len() < from + BITS {
                    return Some(false);
                }
                let slots = mem::take(&mut self.slots);
                let (group, rest) = slots[from..].split_at_mut(BITS);
                self.slots = rest;
                self.start = at + BITS;
                self.bits.skip_word();
                self.group = group.iter_mut();
                self.group_index = self.base + at;
                return Some(true);
            }
            self.next_chunk()?;
        }
    }
}

impl<'a, T> Iterator for WalkMut<'a, T> {
    type Item = (usize, &'a mut Slot<T>);

    #[inline]
    fn next(&mut self) -> Option<(usize, &'a mut Slot<T>)> {
        loop {
            if let Some(slot) = self.group.next() {
                let index = self.group_index;
                self.group_index += 1;
                return Some((index, slot));
            }
            if self.bits.in_word() {
                let (local, slot) = self.next_in_word()?;
                return Some((self.base + local, slot));
            }
            self.next_word()?;
        }
    }

    /// A whole word's slots in one loop, as a slice's.
    #[inline]
    fn fold<B, F: FnMut(B, Self::Item) -> B>(mut self, mut acc: B, mut f: F) -> B {
        loop {
            let index = self.group_index;
            for (k, slot) in mem::take(&mut self.group).enumerate() {
                acc = f(acc, (index + k, slot));
            }
            while self.bits.in_word() {
                let Some((local, slot)) = self.next_in_word() else {
                    return acc;
                };
                acc = f(acc, (self.base + local, slot));
            }
            if self.next_word().is_none() {
                return acc;
            }
        }
    }
}

/// The live objects of a pool with their handles, in slot order; see
/// [`Pool::iter`](crate::Pool::iter).
///
/// It borrows the pool shared, so leases may turn into handles while it runs
/// ([`Lease::into_handle`](crate::Lease::into_handle)): it yields every object live when it
/// started, and perhaps some made live since. Its length is known only from below, so it is not
/// an `ExactSizeIterator`; [`Pool::len`](crate::Pool::len) is exact.
///
/// It is `Send` and `Sync` when `T` is `Sync` (with `std`, on targets with 64-bit atomics), so
/// that it can be split over threads; so is [`Values`].
pub struct Iter<'a, T> {
    walk: Walk<'a, T>,
    /// Objects live at the start and not yet passed, at least: none can stop being live while
    /// the pool is borrowed shared.
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
        let (index, slot, object) = self.walk.next()?;
        self.remaining = self.remaining.saturating_sub(1);
        Some((slot.handle(index), object))
    }

    #[inline]
    fn size_hint(&self) -> (usize, Option<usize>) {
        (self.remaining, None)
    }
}

impl<T> FusedIterator for Iter<'_, T> {}

// SAFETY: an `Iter` only reads: occupancy words and versions through atomics, and live objects
// shared, which `T: Sync` allows from any thread. Slots it passes over may be lent or made live
// by other threads meanwhile; it reads a slot's object only once its bit, set with release after
// the object was written, is seen with acquire.
#[cfg(all(feature = "std", target_has_atomic = "64"))]
unsafe impl<T: Sync> Send for Iter<'_, T> {}

// SAFETY: as for `Send`: shared, an `Iter` hands out nothing but clones of itself.
#[cfg(all(feature = "std", target_has_atomic = "64"))]
unsafe impl<T: Sync> Sync for Iter<'_, T> {}

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
/// It is `Send` when `T` is `Send` (with `std`, on targets with 64-bit atomics); so is
/// [`ValuesMut`].
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
        let (index, slot) = self.walk.next()?;
        self.remaining -= 1;
        let handle = slot.handle(index);
        Some((handle, slot.value_mut()))
    }

    #[inline]
    fn size_hint(&self) -> (usize, Option<usize>) {
        (self.remaining, Some(self.remaining))
    }

    #[inline]
    fn fold<B, F: FnMut(B, Self::Item) -> B>(self, init: B, mut f: F) -> B {
        (self.walk).fold(init, |acc, (index, slot)| {
            let handle = slot.handle(index);
            f(acc, (handle, slot.value_mut()))
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
        // Not through `Iter::next`: the handle's version is an atomic load, which the compiler
        // keeps even when the handle is dropped.
        let (_, _, object) = self.0.walk.next()?;
        self.0.remaining = self.0.remaining.saturating_sub(1);
        Some(object)
    }

    #[inline]
    fn size_hint(&self) -> (usize, Option<usize>) {
        self.0.size_hint()
    }
}

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

    #[inline]
    fn fold<B, F: FnMut(B, Self::Item) -> B>(self, init: B, mut f: F) -> B {
        (self.0.walk).fold(init, |acc, (_, slot)| f(acc, slot.value_mut()))
    }
}

impl<T> ExactSizeIterator for ValuesMut<'_, T> {}
impl<T> FusedIterator for ValuesMut<'_, T> {}
