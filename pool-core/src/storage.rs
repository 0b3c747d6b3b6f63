use crate::occupancy::Occupancy;
use crate::offset;
use crate::slot::{INDEX_END, NIL, Slot};
use alloc::boxed::Box;
use alloc::vec::Vec;
use core::cell::{Cell, OnceCell, UnsafeCell};
use core::slice;

/// The most positions for grown chunks: indices are 32-bit and chunk lengths double.
const POSITIONS: usize = 32;

/// A block of slots that never moves once built, with one occupancy bit per slot.
pub(crate) struct Chunk<T> {
    /// The pool-wide index of the chunk's first slot.
    pub(crate) base: usize,
    pub(crate) slots: Box<[Slot<T>]>,
    pub(crate) occupancy: Occupancy,
}

impl<T> Chunk<T> {
    /// `len` blank slots at `version` (even: free), threaded in order into a free list that ends
    /// in `NIL`.
    fn new(base: usize, len: usize, version: u32, mut blank: impl FnMut() -> T) -> Self {
        let mut slots = Vec::with_capacity(len);
        slots.extend((1..=len).map(|next| {
            let next_free = if next == len {
                NIL
            } else {
                #[expect(clippy::cast_possible_truncation, reason = "indices end below NIL")]
                let next = (base + next) as u32;
                next
            };
            Slot::new(blank(), version, next_free)
        }));
        Self {
            base,
            slots: slots.into_boxed_slice(),
            occupancy: Occupancy::new(len),
        }
    }

    /// The version, counted from the pool's offset, that a chunk built in this one's place must
    /// start from so that no handle into this one can match it: past every version used here.
    fn version_floor(&self, offset: u32) -> u32 {
        self.slots
            .iter()
            .map(|slot| slot.version().wrapping_sub(offset))
            .max()
            .unwrap_or(0)
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
    /// The version (counted from the pool's offset) a chunk built here starts from: past every
    /// handle into the chunks that were here before.
    floor: Cell<u32>,
}

impl<T> Entry<T> {
    fn new() -> Self {
        Self {
            chunk: UnsafeCell::new(None),
            floor: Cell::new(0),
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
    /// Set while a chunk is being built, to refuse growth from the blank objects' own code.
    growing: Cell<bool>,
    /// Where the versions of this pool's slots start: apart from other pools' (see `offset`), so
    /// that a handle from another pool almost never matches a live object here. A slot that
    /// comes back to it is retired.
    offset: u32,
}

impl<T> Storage<T> {
    /// The first chunk's slots, free-listed in order, and room to grow up to `limit`.
    pub(crate) fn new(capacity: usize, limit: usize, blank: impl FnMut() -> T) -> Self {
        let offset = offset::next();
        Self {
            first: Chunk::new(0, capacity, offset, blank),
            grown: OnceCell::new(),
            chunk_bits: capacity.max(1).next_power_of_two().trailing_zeros(),
            limit: limit.max(capacity),
            capacity: Cell::new(capacity),
            growing: Cell::new(false),
            offset,
        }
    }

    /// The version at which a slot of this pool is retired: its first, come round again.
    #[inline]
    pub(crate) fn retired_at(&self) -> u32 {
        self.offset
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
        Self::position_of(self.first.slots.len(), self.chunk_bits, index)
    }

    #[inline]
    fn position_of(first_len: usize, chunk_bits: u32, index: usize) -> (usize, usize) {
        let past_first = index - first_len;
        let k = (usize::BITS - 1 - ((past_first >> chunk_bits) + 1).leading_zeros()) as usize;
        (k, past_first - (((1 << k) - 1) << chunk_bits))
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
    /// `NIL`, and returns the indices of its first and last slots; `None` at the limit.
    ///
    /// The chunk is built, which runs the blank objects' code, before anything the pool shares
    /// changes, and added in one step: that code may lend and give back objects of this pool.
    /// It may not make the pool grow again.
    ///
    /// # Panics
    /// When the blank objects' code makes this pool grow.
    pub(crate) fn grow(&self, blank: impl FnMut() -> T) -> Option<(u32, u32)> {
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
        assert!(
            !self.growing.replace(true),
            "a pool was asked to grow while it was building blank objects to grow: the `Default` \
             or `reset_with` of a pooled field must not create or acquire objects of its own pool"
        );
        let growing = Growing(&self.growing);
        let version = self.offset.wrapping_add(entry.floor.get());
        let chunk = Chunk::new(base, len, version, blank);
        drop(growing);
        entry.fill(chunk);
        self.capacity.set(self.capacity() + len);
        #[expect(
            clippy::cast_possible_truncation,
            reason = "checked against INDEX_END above"
        )]
        Some((base as u32, (base + len - 1) as u32))
    }

    /// Frees the grown chunks whose every slot is on the free list from `free_head` (so none is
    /// live, lent, or retired), takes their slots off the list, and returns how many slots were
    /// freed.
    ///
    /// The books are right before the first blank object is dropped, so a `Drop` that panics
    /// leaves a consistent pool; the other chunks are still freed while it unwinds.
    pub(crate) fn shrink(&mut self, free_head: &Cell<u32>) -> usize {
        let first_len = self.first.slots.len();
        let Some(entries) = self.grown.get_mut() else {
            return 0;
        };
        let mut free = [0usize; POSITIONS];
        let mut index = free_head.get();
        while index != NIL {
            let index_usize = index as usize;
            if index_usize >= first_len {
                free[Self::position_of(first_len, self.chunk_bits, index_usize).0] += 1;
            }
            index = Self::slot_in(
                &self.first,
                entries,
                first_len,
                self.chunk_bits,
                index_usize,
            )
            .next_free();
        }
        let mut freeable = [false; POSITIONS];
        for (k, entry) in entries.iter_mut().enumerate() {
            freeable[k] = entry
                .chunk
                .get_mut()
                .as_ref()
                .is_some_and(|chunk| free[k] == chunk.slots.len());
        }
        if !freeable.contains(&true) {
            return 0;
        }
        // Thread the list again without the freed chunks' slots, keeping its order.
        let mut head = NIL;
        let mut tail: Option<usize> = None;
        let mut index = free_head.get();
        while index != NIL {
            let index_usize = index as usize;
            let slot = Self::slot_in(
                &self.first,
                entries,
                first_len,
                self.chunk_bits,
                index_usize,
            );
            let next = slot.next_free();
            let kept = index_usize < first_len
                || !freeable[Self::position_of(first_len, self.chunk_bits, index_usize).0];
            if kept {
                match tail {
                    Some(tail) => {
                        Self::slot_in(&self.first, entries, first_len, self.chunk_bits, tail)
                            .set_next_free(index);
                    }
                    None => head = index,
                }
                slot.set_next_free(NIL);
                tail = Some(index_usize);
            }
            index = next;
        }
        let mut gone: [Option<Chunk<T>>; POSITIONS] = [const { None }; POSITIONS];
        let mut freed = 0;
        for (k, entry) in entries.iter_mut().enumerate() {
            if freeable[k]
                && let Some(chunk) = entry.chunk.get_mut().take()
            {
                freed += chunk.slots.len();
                entry.floor.set(chunk.version_floor(self.offset));
                gone[k] = Some(chunk);
            }
        }
        free_head.set(head);
        self.capacity.set(self.capacity() - freed);
        drop(gone);
        freed
    }

    /// The slot at a pool-wide index, from the storage's parts; the index is in the pool.
    fn slot_in<'a>(
        first: &'a Chunk<T>,
        entries: &'a [Entry<T>],
        first_len: usize,
        chunk_bits: u32,
        index: usize,
    ) -> &'a Slot<T> {
        if index < first_len {
            return &first.slots[index];
        }
        let (k, local) = Self::position_of(first_len, chunk_bits, index);
        let chunk = entries[k].get().expect("free-list indices are in the pool");
        &chunk.slots[local]
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

/// Clears `Storage::growing` when the chunk is built, or when building it unwinds.
struct Growing<'a>(&'a Cell<bool>);

impl Drop for Growing<'_> {
    fn drop(&mut self) {
        self.0.set(false);
    }
}
