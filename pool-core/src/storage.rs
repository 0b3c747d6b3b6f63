use crate::occupancy::Occupancy;
use crate::slot::{INDEX_END, NIL, Slot};
use alloc::boxed::Box;
use alloc::vec::Vec;
use core::cell::{Cell, OnceCell, UnsafeCell};
use core::num::NonZeroU32;
use core::slice;

/// A block of slots that never moves once built, with one occupancy bit per slot.
pub(crate) struct Chunk<T> {
    /// The pool-wide index of the chunk's first slot.
    pub(crate) base: usize,
    pub(crate) slots: Box<[Slot<T>]>,
    pub(crate) occupancy: Occupancy,
}

impl<T> Chunk<T> {
    /// `len` blank slots starting at `generation`, threaded into a free list that ends in `tail`.
    fn new(
        base: usize,
        len: usize,
        generation: NonZeroU32,
        tail: u32,
        mut blank: impl FnMut() -> T,
    ) -> Self {
        let mut slots = Vec::with_capacity(len);
        slots.extend((1..=len).map(|next| {
            let next_free = if next == len {
                tail
            } else {
                #[expect(clippy::cast_possible_truncation, reason = "indices end below NIL")]
                let next = (base + next) as u32;
                next
            };
            Slot::new(blank(), generation, next_free)
        }));
        Self {
            base,
            slots: slots.into_boxed_slice(),
            occupancy: Occupancy::new(len),
        }
    }

    /// Whether a slot of the chunk holds a live object.
    fn has_live(&self) -> bool {
        self.occupancy
            .indices()
            .any(|local| self.slots[local].is_live())
    }

    /// The generation a chunk rebuilt here must start from so that no handle into this one can
    /// match it; `None` if a slot is retired (no such generation exists).
    fn generation_floor(&self) -> Option<NonZeroU32> {
        self.slots
            .iter()
            .map(Slot::generation)
            .try_fold(NonZeroU32::MIN, |floor, g| Some(floor.max(g?)))
    }
}

/// A slot found by its pool-wide index, with what the bookkeeping needs beside it. `S` is
/// `&Slot` or `&mut Slot`.
pub(crate) struct Place<'a, S> {
    pub(crate) slot: S,
    pub(crate) occupancy: &'a Occupancy,
    /// The pool-wide index.
    pub(crate) index: usize,
    /// The index within the chunk: the slot's occupancy bit.
    pub(crate) local: usize,
}

impl<'a, T> Place<'a, &'a mut Slot<T>> {
    /// The same place, shared.
    #[inline]
    pub(crate) fn shared(&self) -> Place<'_, &Slot<T>> {
        Place {
            slot: &*self.slot,
            occupancy: self.occupancy,
            index: self.index,
            local: self.local,
        }
    }
}

impl<T> Chunk<T> {
    #[inline]
    pub(crate) fn place(&self, local: usize) -> Option<Place<'_, &Slot<T>>> {
        Some(Place {
            slot: self.slots.get(local)?,
            occupancy: &self.occupancy,
            index: self.base + local,
            local,
        })
    }

    #[inline]
    pub(crate) fn place_mut(&mut self, local: usize) -> Option<Place<'_, &mut Slot<T>>> {
        Self::split_place(self.base, &mut self.slots, &self.occupancy, local)
    }

    /// A place from a chunk's parts, so that its occupancy can stay borrowed meanwhile.
    #[inline]
    pub(crate) fn split_place<'a>(
        base: usize,
        slots: &'a mut [Slot<T>],
        occupancy: &'a Occupancy,
        local: usize,
    ) -> Option<Place<'a, &'a mut Slot<T>>> {
        Some(Place {
            slot: slots.get_mut(local)?,
            occupancy,
            index: base + local,
            local,
        })
    }
}

/// A place for a grown chunk: empty until the pool grows into it, and empty again after
/// `shrink` gives it back.
struct Entry<T> {
    // Written through `&Storage` only by `grow`, and only while `None`; otherwise only through
    // `&mut Storage`. `get` keeps no reference to a `None`, so no reference ever reaches a value
    // that is being written.
    chunk: UnsafeCell<Option<Chunk<T>>>,
    /// The generation a chunk built here starts from: past every handle into the chunks that
    /// were here before.
    floor: Cell<NonZeroU32>,
}

impl<T> Entry<T> {
    fn new() -> Self {
        Self {
            chunk: UnsafeCell::new(None),
            floor: Cell::new(NonZeroU32::MIN),
        }
    }

    #[inline]
    fn get(&self) -> Option<&Chunk<T>> {
        // SAFETY: see the field: while `&self` is borrowed, the chunk is written only if it is
        // `None`, and then no reference to it exists, this one included (`None` holds nothing to
        // refer to, and the `&Option` does not outlive this call).
        unsafe { (*self.chunk.get()).as_ref() }
    }

    /// Builds the chunk in an empty place.
    fn fill(&self, chunk: Chunk<T>) {
        debug_assert!(self.get().is_none());
        // SAFETY: the place is empty, so no reference into it exists (see `get`), and the pool
        // is not `Sync`, so no other thread is reading it.
        unsafe { *self.chunk.get() = Some(chunk) };
    }
}

/// The pool's slots: the first chunk, built up front, and the chunks a growing pool added.
///
/// Grown chunks double in size: the one at position `k` holds `1 << (chunk_bits + k)` slots
/// (the last may be shorter, to stop at the limit), and the positions' index ranges follow one
/// another past the first chunk. So at most 32 positions exist, an index past the first chunk
/// finds its position with a leading-zero count, and the table of positions is allocated once, at
/// the first growth, and never moves: the pool can grow through `&self` while objects and chunks
/// are borrowed.
pub(crate) struct Storage<T> {
    first: Chunk<T>,
    grown: OnceCell<Box<[Entry<T>]>>,
    chunk_bits: u32,
    /// The most slots the pool may hold; the first chunk's length when it does not grow.
    limit: usize,
    capacity: Cell<usize>,
}

impl<T> Storage<T> {
    /// The first chunk's slots, free-listed in order, and room to grow up to `limit`.
    pub(crate) fn new(capacity: usize, limit: usize, blank: impl FnMut() -> T) -> Self {
        Self {
            first: Chunk::new(0, capacity, NonZeroU32::MIN, NIL, blank),
            grown: OnceCell::new(),
            chunk_bits: capacity.max(1).next_power_of_two().trailing_zeros(),
            limit: limit.max(capacity),
            capacity: Cell::new(capacity),
        }
    }

    /// Slots built now, in every chunk.
    #[inline]
    pub(crate) fn capacity(&self) -> usize {
        self.capacity.get()
    }

    /// The chunks holding slots now, the first included.
    pub(crate) fn chunk_count(&self) -> usize {
        self.chunks().count()
    }

    #[inline]
    pub(crate) fn slot(&self, index: usize) -> Option<&Slot<T>> {
        match self.first.slots.get(index) {
            Some(slot) => Some(slot),
            None => self.place_grown(index).map(|place| place.slot),
        }
    }

    /// The slot at a pool-wide index, and its bookkeeping.
    #[inline]
    pub(crate) fn place(&self, index: usize) -> Option<Place<'_, &Slot<T>>> {
        match self.first.slots.get(index) {
            Some(slot) => Some(Place {
                slot,
                occupancy: &self.first.occupancy,
                index,
                local: index,
            }),
            None => self.place_grown(index),
        }
    }

    /// The slot at a pool-wide index, mutably, and its bookkeeping.
    #[inline]
    pub(crate) fn place_mut(&mut self, index: usize) -> Option<Place<'_, &mut Slot<T>>> {
        if index >= self.first.slots.len() {
            return self.place_grown_mut(index);
        }
        let Chunk {
            slots, occupancy, ..
        } = &mut self.first;
        Some(Place {
            slot: &mut slots[index],
            occupancy,
            index,
            local: index,
        })
    }

    fn place_grown(&self, index: usize) -> Option<Place<'_, &Slot<T>>> {
        let (k, local) = self.position(index);
        self.grown.get()?.get(k)?.get()?.place(local)
    }

    fn place_grown_mut(&mut self, index: usize) -> Option<Place<'_, &mut Slot<T>>> {
        let (k, local) = self.position(index);
        let entry = self.grown.get_mut()?.get_mut(k)?;
        entry.chunk.get_mut().as_mut()?.place_mut(local)
    }

    /// The position of the grown chunk whose range holds `index`, past the first chunk, and the
    /// index within it.
    #[inline]
    fn position(&self, index: usize) -> (usize, usize) {
        let past_first = index - self.first.slots.len();
        let k = (usize::BITS - 1 - ((past_first >> self.chunk_bits) + 1).leading_zeros()) as usize;
        (k, past_first - (((1 << k) - 1) << self.chunk_bits))
    }

    fn entries(&self) -> &[Entry<T>] {
        self.grown.get().map_or(&[], |entries| entries)
    }

    /// Every chunk holding slots, the first first.
    pub(crate) fn chunks(&self) -> Chunks<'_, T> {
        Chunks {
            first: Some(&self.first),
            grown: self.entries().iter(),
        }
    }

    /// Every chunk holding slots, mutably.
    pub(crate) fn chunks_mut(&mut self) -> ChunksMut<'_, T> {
        let grown: &mut [Entry<T>] = self.grown.get_mut().map_or(&mut [], |entries| entries);
        ChunksMut {
            first: Some(&mut self.first),
            grown: grown.iter_mut(),
        }
    }

    /// Adds a chunk of blank slots in the lowest empty place, free-listed in order and ending in
    /// `tail`, and returns its first index; `None` at the limit.
    pub(crate) fn grow(&self, tail: u32, blank: impl FnMut() -> T) -> Option<u32> {
        let room = self.limit - self.capacity();
        if room == 0 {
            return None;
        }
        let entries = self.grown.get_or_init(|| {
            let first = self.first.slots.len();
            let places = (0..usize::BITS)
                .take_while(|&k| first + (((1usize << k) - 1) << self.chunk_bits) < self.limit)
                .count();
            (0..places).map(|_| Entry::new()).collect()
        });
        let (k, entry) = entries
            .iter()
            .enumerate()
            .find(|(_, entry)| entry.get().is_none())?;
        let base = self.first.slots.len() + (((1 << k) - 1) << self.chunk_bits);
        let len = (1usize << (self.chunk_bits + u32::try_from(k).ok()?))
            .min(room)
            .min(INDEX_END.saturating_sub(base));
        if len == 0 {
            return None;
        }
        entry.fill(Chunk::new(base, len, entry.floor.get(), tail, blank));
        self.capacity.set(self.capacity() + len);
        #[expect(
            clippy::cast_possible_truncation,
            reason = "checked against INDEX_END above"
        )]
        Some(base as u32)
    }

    /// Frees the grown chunks with no live object and no retired slot, and returns how many
    /// slots they held. Their slots are still on the caller's free list.
    pub(crate) fn shrink(&mut self) -> usize {
        let mut freed = 0;
        for entry in self
            .grown
            .get_mut()
            .into_iter()
            .flat_map(|entries| entries.iter_mut())
        {
            let place = entry.chunk.get_mut();
            if let Some(chunk) = place
                && !chunk.has_live()
                && let Some(floor) = chunk.generation_floor()
            {
                freed += chunk.slots.len();
                entry.floor.set(floor);
                *place = None;
            }
        }
        self.capacity.set(self.capacity() - freed);
        freed
    }
}

/// The chunks holding slots, the first first; see [`Storage::chunks`].
pub(crate) struct Chunks<'a, T> {
    first: Option<&'a Chunk<T>>,
    grown: slice::Iter<'a, Entry<T>>,
}

impl<'a, T> Iterator for Chunks<'a, T> {
    type Item = &'a Chunk<T>;

    #[inline]
    fn next(&mut self) -> Option<Self::Item> {
        self.first
            .take()
            .or_else(|| self.grown.find_map(Entry::get))
    }
}

impl<T> DoubleEndedIterator for Chunks<'_, T> {
    fn next_back(&mut self) -> Option<Self::Item> {
        let grown = &mut self.grown;
        core::iter::from_fn(|| grown.next_back())
            .find_map(Entry::get)
            .or_else(|| self.first.take())
    }
}

/// The chunks holding slots, mutably; see [`Storage::chunks_mut`].
pub(crate) struct ChunksMut<'a, T> {
    first: Option<&'a mut Chunk<T>>,
    grown: slice::IterMut<'a, Entry<T>>,
}

impl<'a, T> Iterator for ChunksMut<'a, T> {
    type Item = &'a mut Chunk<T>;

    #[inline]
    fn next(&mut self) -> Option<Self::Item> {
        self.first
            .take()
            .or_else(|| self.grown.find_map(|entry| entry.chunk.get_mut().as_mut()))
    }
}
