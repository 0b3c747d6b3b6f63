pub(crate) mod chunk;
pub(crate) use crate::storage::geometry;
pub(crate) mod grown;
mod view;

use crate::limits::{self, FIRST_VERSION};
use crate::slot::free_list::{FreeStack, HeapStack};
use crate::slot::offset;
use crate::storage::heap::chunk::Chunk;
use crate::storage::heap::geometry::POSITIONS;
use crate::storage::heap::grown::Grown;
use crate::storage::part::PartMut;
use crate::storage::slot_ref::SlotMut;
use crate::storage::slots::{Chunks, ChunksMut, Slots};
use core::iter;
pub use view::HeapView;

/// A heap pool's slots: the first chunk, built up front, and the chunks a growing pool added.
#[doc(hidden)]
pub struct HeapSlots<T> {
    first: Chunk<T>,
    grown: Grown<T>,
    /// Where this pool's slot versions are counted from: apart from other pools' (see
    /// `offset`), so that a handle from another pool almost never matches a live object here.
    offset: u32,
    /// `limits::retired_at(offset)`, kept so that a release compares with it in one
    /// instruction.
    retired_at: u32,
}

impl<T> HeapSlots<T> {
    /// `capacity` blank slots.
    pub(crate) fn new(capacity: usize, blank: impl FnMut() -> T) -> Self {
        let offset = offset::next();
        Self {
            first: Chunk::build(0, capacity, offset.wrapping_add(FIRST_VERSION), blank),
            grown: Grown::new(capacity),
            offset,
            retired_at: limits::retired_at(offset),
        }
    }

    /// Storage from its parts (see [`Grown::restore`]), its versions counted from `offset`.
    #[cfg(feature = "serde")]
    pub(crate) fn from_parts(offset: u32, first: Chunk<T>, grown: Grown<T>) -> Self {
        Self {
            first,
            grown,
            offset,
            retired_at: limits::retired_at(offset),
        }
    }

    #[cfg(feature = "serde")]
    pub(crate) fn first(&self) -> &Chunk<T> {
        &self.first
    }

    #[cfg(feature = "serde")]
    pub(crate) fn grown(&self) -> &Grown<T> {
        &self.grown
    }

    /// Frees the grown chunks whose every slot is on the free list `free` (so none is live,
    /// lent or retired: a retired slot leaves the list), takes their slots off the list, and
    /// returns how many slots they held.
    pub(crate) fn shrink(&mut self, free: &mut HeapStack) -> usize {
        let geometry = self.grown.geometry();
        if self.grown.chunk_count() == 0 {
            return 0;
        }
        let mut free_slots = [0usize; POSITIONS];
        for &index in free.entries() {
            let index = index as usize;
            if index >= geometry.start() {
                free_slots[geometry.position(index).0] += 1;
            }
        }
        let mut freeable = [false; POSITIONS];
        for part in self.grown.chunks() {
            let k = geometry.position(part.base).0;
            freeable[k] = free_slots[k] == part.objects.len();
        }
        if !freeable.contains(&true) {
            return 0;
        }
        free.retain(|index| index < geometry.start() || !freeable[geometry.position(index).0]);
        let freed = self.grown.free_chunks(self.offset, |k| freeable[k]);
        // The list's room goes with the chunks: a pool that grew and shrank back holds what it
        // held before.
        free.shrink_to(self.capacity());
        freed
    }

    /// The place of the chunk holding `index` (0 for the first, `1 + k` for the grown chunk at
    /// position `k`), and the index within it.
    #[inline]
    fn place_of(&self, index: usize) -> (usize, usize) {
        let geometry = self.grown.geometry();
        if index < geometry.start() {
            return (0, index);
        }
        let (k, local) = geometry.position(index);
        (1 + k, local)
    }

    /// The places for chunks: the first's, and the grown ones' positions (none before the pool
    /// first grows).
    fn places(&self) -> usize {
        1 + self.grown.positions()
    }

    /// The chunk at place `k` (see [`place_of`](HeapSlots::place_of)), if there is one.
    #[inline]
    fn chunk_mut(&mut self, k: usize) -> Option<&mut Chunk<T>> {
        match k.checked_sub(1) {
            None => Some(&mut self.first),
            Some(k) => self.grown.chunk_mut(k),
        }
    }

    /// Where [`grow`](Slots::grow) would put the next chunk, making the table of positions if
    /// the pool has never grown: the position, first index, length and first version.
    fn next_chunk(&mut self, limit: usize) -> Option<(usize, usize, usize, u32)> {
        let room = limit.saturating_sub(self.capacity());
        self.grown.next(room, self.offset)
    }
}

impl<T> Slots<T> for HeapSlots<T> {
    type Free = HeapStack;
    type View<'a>
        = HeapView<'a, T>
    where
        T: 'a;

    #[inline]
    fn retired_at(&self) -> u32 {
        self.retired_at
    }

    #[cfg(any(test, all(feature = "serde", feature = "alloc")))]
    #[inline]
    fn offset(&self) -> u32 {
        self.offset
    }

    /// Slots built now, in every chunk.
    #[inline]
    fn capacity(&self) -> usize {
        self.first.len() + self.grown.len()
    }

    #[inline]
    fn built(&self) -> usize {
        self.capacity()
    }

    fn chunk_count(&self) -> usize {
        1 + self.grown.chunk_count()
    }

    #[inline]
    fn get(&self, index: usize, word: u64) -> Option<&T> {
        if index < self.first.len() {
            self.first.get(index, word)
        } else {
            self.grown.get(index, word)
        }
    }

    #[inline]
    fn word(&self, index: usize) -> Option<u64> {
        match self.first.word(index) {
            Some(word) => Some(word),
            None => self.grown.word(index),
        }
    }

    #[inline]
    fn prefetch(&self, index: usize) {
        self.first.prefetch(index);
    }

    #[inline]
    fn first_part_mut(&mut self) -> PartMut<'_, T> {
        self.first.part_mut()
    }

    #[inline]
    fn part_mut(&mut self, index: usize) -> Option<(PartMut<'_, T>, usize)> {
        if index < self.first.len() {
            Some((self.first.part_mut(), index))
        } else {
            self.grown.part_mut(index)
        }
    }

    #[inline]
    fn slot_mut(&mut self, index: usize) -> Option<SlotMut<'_, T>> {
        let (part, local) = self.part_mut(index)?;
        part.into_slot(local)
    }

    #[inline]
    fn chunks(&self) -> Chunks<'_, T> {
        iter::once(self.first.part()).chain(self.grown.chunks())
    }

    #[inline]
    fn chunks_mut(&mut self) -> ChunksMut<'_, T> {
        iter::once(self.first.part_mut()).chain(self.grown.chunks_mut())
    }

    #[inline]
    fn build_next(&mut self, _: impl FnOnce() -> T) -> Option<usize> {
        None
    }

    fn grow(&mut self, limit: usize, blank: impl FnMut() -> T) -> Option<(usize, usize)> {
        let (k, base, len, version) = self.next_chunk(limit)?;
        self.grown
            .install(k, Chunk::build(base, len, version, blank));
        Some((base, len))
    }

    fn view(&mut self) -> HeapView<'_, T> {
        HeapView::new(self)
    }

    fn clone_with(&self, mut object: impl FnMut(bool, &T) -> T) -> Self {
        Self {
            first: self.first.clone_with(&mut object),
            grown: self.grown.clone_with(object),
            offset: self.offset,
            retired_at: self.retired_at,
        }
    }

    fn check_layout(&self) -> Result<(), &'static str> {
        if self.first.base() != 0 {
            return Err("a first chunk not at index 0");
        }
        self.first.check_bits()?;
        self.grown.check(self.offset)
    }
}
