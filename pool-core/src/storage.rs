use crate::chunk::Chunk;
use crate::free_list::FreeList;
use crate::grown::{self, Grown};
use crate::occupancy::Bit;
use crate::offset;
use crate::slot::Slot;
use core::iter::{self, Chain, Once};

/// The version of a slot never used, counted from the pool's offset: even, not live.
pub(crate) const FIRST_VERSION: u32 = 0;

/// The version of a retired slot, counted from the pool's offset: even, and never reached but
/// by a slot that has had 2³¹ − 1 lives, after which the next version would come round to
/// those of its first lives.
const RETIRED_VERSION: u32 = 0u32.wrapping_sub(2);

/// A pool's slots: the first chunk, built up front, and the chunks a growing pool added.
pub(crate) struct Storage<T> {
    first: Chunk<T>,
    grown: Grown<T>,
    /// Where this pool's slot versions are counted from: apart from other pools' (see
    /// `offset`), so that a handle from another pool almost never matches a live object here.
    offset: u32,
}

impl<T> Storage<T> {
    /// `capacity` blank slots, free-listed in order.
    pub(crate) fn new(capacity: usize, blank: impl FnMut() -> T) -> Self {
        let offset = offset::next();
        Self {
            first: Chunk::build(0, capacity, offset.wrapping_add(FIRST_VERSION), blank),
            grown: Grown::new(capacity),
            offset,
        }
    }

    #[cfg(feature = "serde")]
    /// Storage from its parts (see [`Grown::restore`]), its versions counted from `offset`.
    pub(crate) fn from_parts(offset: u32, first: Chunk<T>, grown: Grown<T>) -> Self {
        Self {
            first,
            grown,
            offset,
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

    /// The same chunks at the same versions, each slot made by `slot` from its pool-wide index
    /// and the slot here: handles into this storage are good in the copy.
    pub(crate) fn map_slots(&self, mut slot: impl FnMut(usize, &Slot<T>) -> Slot<T>) -> Self {
        Self {
            first: self.first.map_slots(&mut slot),
            grown: self.grown.map_slots(slot),
            offset: self.offset,
        }
    }

    /// The version of a retired slot (see `RETIRED_VERSION`).
    #[inline]
    pub(crate) fn retired_at(&self) -> u32 {
        self.offset.wrapping_add(RETIRED_VERSION)
    }

    /// Slots built now, in every chunk.
    #[inline]
    pub(crate) fn capacity(&self) -> usize {
        self.first.len() + self.grown.len()
    }

    pub(crate) fn chunk_count(&self) -> usize {
        1 + self.grown.chunks().count()
    }

    #[inline]
    pub(crate) fn slot(&self, index: usize) -> Option<&Slot<T>> {
        match self.first.slots().get(index) {
            Some(slot) => Some(slot),
            None => self.grown.slot(index).map(|(slot, _)| slot),
        }
    }

    /// The slot at `index` and its occupancy bit.
    #[inline]
    pub(crate) fn slot_with_bit(&self, index: usize) -> Option<(&Slot<T>, Bit<'_>)> {
        match self.first.slot(index) {
            Some(found) => Some(found),
            None => self.grown.slot(index),
        }
    }

    /// The slot at `index`, mutably, and its occupancy bit.
    #[inline]
    pub(crate) fn slot_mut(&mut self, index: usize) -> Option<(&mut Slot<T>, Bit<'_>)> {
        if index < self.first.len() {
            self.first.slot_mut(index)
        } else {
            self.grown.slot_mut(index)
        }
    }

    /// Every chunk, the first first.
    #[inline]
    pub(crate) fn chunks(&self) -> Chunks<'_, T> {
        iter::once(&self.first).chain(self.grown.chunks())
    }

    /// Every chunk, mutably, the first first.
    #[inline]
    pub(crate) fn chunks_mut(&mut self) -> ChunksMut<'_, T> {
        iter::once(&mut self.first).chain(self.grown.chunks_mut())
    }

    /// Adds a chunk (see [`Grown::grow`]) and puts its slots at the head of `free`; false when
    /// the pool holds `limit` slots.
    #[cold]
    pub(crate) fn grow(&self, limit: usize, free: &FreeList, blank: impl FnMut() -> T) -> bool {
        let Some((first, last)) = self.grown.grow(limit, self.offset, blank) else {
            return false;
        };
        let last = self
            .slot(last as usize)
            .expect("a grown chunk is in the pool");
        free.push_run(first, last);
        true
    }

    /// Frees the grown chunks with no slot off `free` (see [`Grown::shrink`]).
    pub(crate) fn shrink(&mut self, free: &FreeList) -> usize {
        self.grown
            .shrink(&self.first, free, self.offset, self.retired_at())
    }

    #[cfg(test)]
    pub(crate) fn force_version(&self, index: usize, version: u32) {
        self.slot(index)
            .expect("a slot of this pool")
            .force_version(self.version_of(version));
    }

    /// A version counted from the pool's offset, as the slots keep it.
    #[cfg(test)]
    pub(crate) fn version_of(&self, relative: u32) -> u32 {
        self.offset.wrapping_add(relative)
    }
}

/// Every chunk of a pool, the first first.
pub(crate) type Chunks<'a, T> = Chain<Once<&'a Chunk<T>>, grown::Chunks<'a, T>>;

/// Every chunk of a pool, mutably, the first first.
pub(crate) type ChunksMut<'a, T> = Chain<Once<&'a mut Chunk<T>>, grown::ChunksMut<'a, T>>;
