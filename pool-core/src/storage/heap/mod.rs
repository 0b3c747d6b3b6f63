pub(crate) mod chunk;
pub(crate) mod grown;
mod once_box;

use crate::limits::{self, FIRST_VERSION};
use crate::slot::Slot;
use crate::slot::free_list::FreeList;
use crate::slot::occupancy::Bit;
use crate::slot::offset;
use crate::storage::heap::chunk::Chunk;
use crate::storage::heap::grown::Grown;
use crate::storage::lock::Lock;
use crate::storage::slots::{Chunks, ChunksMut, Slots};
use core::iter;

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
    /// `capacity` blank slots, free-listed in order.
    pub(crate) fn new(capacity: usize, blank: impl FnMut() -> T) -> Self {
        let offset = offset::next();
        Self {
            first: Chunk::build(0, capacity, offset.wrapping_add(FIRST_VERSION), blank),
            grown: Grown::new(capacity),
            offset,
            retired_at: limits::retired_at(offset),
        }
    }

    #[cfg(feature = "serde")]
    /// Storage from its parts (see [`Grown::restore`]), its versions counted from `offset`.
    pub(crate) fn from_parts(offset: u32, first: Chunk<T>, grown: Grown<T>) -> Self {
        Self {
            first,
            grown,
            offset,
            retired_at: limits::retired_at(offset),
        }
    }

    #[cfg(feature = "serde")]
    pub(crate) fn offset(&self) -> u32 {
        self.offset
    }

    #[cfg(feature = "serde")]
    pub(crate) fn first(&self) -> &Chunk<T> {
        &self.first
    }

    #[cfg(feature = "serde")]
    pub(crate) fn grown(&self) -> &Grown<T> {
        &self.grown
    }

    /// Adds a chunk (see [`Grown::grow`]) and puts its slots at the head of `free`; false when
    /// the pool holds `limit` slots.
    #[cold]
    pub(crate) fn grow(
        &self,
        limit: usize,
        lock: &Lock,
        free: &FreeList,
        blank: impl FnMut() -> T,
    ) -> bool {
        self.grown.grow(limit, self.offset, lock, free, blank)
    }

    /// Frees the grown chunks with no slot off `free` (see [`Grown::shrink`]).
    pub(crate) fn shrink(&mut self, free: &FreeList) -> usize {
        self.grown.shrink(&self.first, free, self.offset)
    }
}

impl<T> Slots<T> for HeapSlots<T> {
    #[inline]
    fn retired_at(&self) -> u32 {
        self.retired_at
    }

    /// Slots built now, in every chunk.
    #[inline]
    fn capacity(&self) -> usize {
        self.first.len() + self.grown.len()
    }

    fn chunk_count(&self) -> usize {
        1 + self.grown.chunks().count()
    }

    #[inline]
    fn slot(&self, index: usize) -> Option<&Slot<T>> {
        match self.first.slots().get(index) {
            Some(slot) => Some(slot),
            None => self.grown.slot(index).map(|(slot, _)| slot),
        }
    }

    #[inline]
    fn slot_with_bit(&self, index: usize) -> Option<(&Slot<T>, Bit<'_>)> {
        match self.first.slot(index) {
            Some(found) => Some(found),
            None => self.grown.slot(index),
        }
    }

    #[inline]
    fn first_slot_mut(&mut self, index: usize) -> Option<(&mut Slot<T>, Bit<'_>)> {
        self.first.slot_mut(index)
    }

    #[inline]
    fn slot_mut(&mut self, index: usize) -> Option<(&mut Slot<T>, Bit<'_>)> {
        if index < self.first.len() {
            self.first.slot_mut(index)
        } else {
            self.grown.slot_mut(index)
        }
    }

    #[inline]
    fn chunks(&self) -> Chunks<'_, T> {
        iter::once(self.first.part()).chain(self.grown.chunks())
    }

    #[inline]
    fn chunks_mut(&mut self) -> ChunksMut<'_, T> {
        iter::once(self.first.part_mut()).chain(self.grown.chunks_mut())
    }

    #[cfg(feature = "rayon")]
    fn parts(
        &self,
    ) -> (
        crate::storage::part::Part<'_, T>,
        crate::storage::slots::Rest<'_, T>,
    ) {
        (self.first.part(), self.grown.chunks())
    }

    #[cfg(feature = "rayon")]
    fn parts_mut(
        &mut self,
    ) -> (
        crate::storage::part::PartMut<'_, T>,
        crate::storage::slots::RestMut<'_, T>,
    ) {
        (self.first.part_mut(), self.grown.chunks_mut())
    }

    #[inline]
    fn build_next(&self, _: &FreeList, _: &Lock, _: impl FnOnce() -> T) -> bool {
        false
    }

    fn map_slots(&self, mut slot: impl FnMut(usize, &Slot<T>) -> Slot<T>) -> Self {
        Self {
            first: self.first.map_slots(&mut slot),
            grown: self.grown.map_slots(slot),
            offset: self.offset,
            retired_at: self.retired_at,
        }
    }

    fn check_layout(&self) -> Result<(), &'static str> {
        if self.first.base() != 0 {
            return Err("a first chunk not at index 0");
        }
        self.grown.check(self.offset)
    }

    #[cfg(test)]
    fn version_of(&self, relative: u32) -> u32 {
        self.offset.wrapping_add(relative)
    }
}
