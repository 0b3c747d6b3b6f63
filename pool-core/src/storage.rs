use crate::occupancy::Occupancy;
use crate::slot::{NIL, Slot};
use alloc::boxed::Box;
use alloc::vec::Vec;
use core::num::NonZeroU32;

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

    /// The generation a chunk rebuilt here must start from so that no handle into this one can
    /// match it; `None` if a slot is retired (no such generation exists).
    fn generation_floor(&self) -> Option<NonZeroU32> {
        self.slots
            .iter()
            .map(Slot::generation)
            .try_fold(NonZeroU32::MIN, |floor, g| Some(floor.max(g?)))
    }
}

/// A grown chunk, or the memory of one given back by `shrink`.
enum Grown<T> {
    Live(Chunk<T>),
    /// Where a chunk was: a chunk grown here again starts at this generation.
    Returned(NonZeroU32),
}

/// The pool's slots: the first chunk, built up front, and the chunks a growing pool added.
///
/// Grown chunks are all `1 << chunk_bits` slots (the last may be shorter, to stop at the
/// limit), so a pool-wide index past the first chunk finds its chunk with a shift.
pub(crate) struct Storage<T> {
    first: Chunk<T>,
    grown: Vec<Grown<T>>,
    chunk_bits: u32,
    /// The most slots the pool may hold; the first chunk's length when it does not grow.
    limit: usize,
    capacity: usize,
}

impl<T> Storage<T> {
    /// The first chunk's slots, free-listed in order, and room to grow up to `limit`.
    pub(crate) fn new(capacity: usize, limit: usize, blank: impl FnMut() -> T) -> Self {
        Self {
            first: Chunk::new(0, capacity, NonZeroU32::MIN, NIL, blank),
            grown: Vec::new(),
            chunk_bits: capacity.max(1).next_power_of_two().trailing_zeros(),
            limit: limit.max(capacity),
            capacity,
        }
    }

    /// Slots built now, in every chunk.
    #[inline]
    pub(crate) fn capacity(&self) -> usize {
        self.capacity
    }

    /// The chunks holding slots now, the first included.
    pub(crate) fn chunk_count(&self) -> usize {
        self.chunks().count()
    }

    #[inline]
    pub(crate) fn slot(&self, index: usize) -> Option<&Slot<T>> {
        match self.first.slots.get(index) {
            Some(slot) => Some(slot),
            None => self.locate_grown(index).and_then(|(c, i)| c.slots.get(i)),
        }
    }

    /// The chunk holding `index`, mutably, and the index within it.
    #[inline]
    pub(crate) fn locate_mut(&mut self, index: usize) -> Option<(&mut Chunk<T>, usize)> {
        if index < self.first.slots.len() {
            return Some((&mut self.first, index));
        }
        let (k, local) = self.split(index);
        match self.grown.get_mut(k)? {
            Grown::Live(chunk) if local < chunk.slots.len() => Some((chunk, local)),
            _ => None,
        }
    }

    fn locate_grown(&self, index: usize) -> Option<(&Chunk<T>, usize)> {
        let (k, local) = self.split(index);
        match self.grown.get(k)? {
            Grown::Live(chunk) if local < chunk.slots.len() => Some((chunk, local)),
            _ => None,
        }
    }

    /// The grown chunk number and the index within it, for an index past the first chunk.
    #[inline]
    fn split(&self, index: usize) -> (usize, usize) {
        let past_first = index - self.first.slots.len();
        (
            past_first >> self.chunk_bits,
            past_first & ((1 << self.chunk_bits) - 1),
        )
    }

    /// Every chunk holding slots, the first first.
    pub(crate) fn chunks(&self) -> Chunks<'_, T> {
        Chunks {
            first: Some(&self.first),
            grown: self.grown.iter(),
        }
    }

    /// Every chunk holding slots, mutably.
    pub(crate) fn chunks_mut(&mut self) -> ChunksMut<'_, T> {
        ChunksMut {
            first: Some(&mut self.first),
            grown: self.grown.iter_mut(),
        }
    }

    /// Adds a chunk of blank slots, free-listed in order and ending in `tail`, and returns its
    /// first index; `None` at the limit.
    pub(crate) fn grow(&mut self, tail: u32, blank: impl FnMut() -> T) -> Option<u32> {
        let chunk_len = 1usize << self.chunk_bits;
        let k = self
            .grown
            .iter()
            .position(|grown| matches!(grown, Grown::Returned(_)))
            .unwrap_or(self.grown.len());
        let base = self.first.slots.len() + (k << self.chunk_bits);
        let len = chunk_len
            .min(self.limit - self.capacity)
            .min((NIL as usize).saturating_sub(base));
        if len == 0 {
            return None;
        }
        let generation = match self.grown.get(k) {
            Some(Grown::Returned(generation)) => *generation,
            _ => NonZeroU32::MIN,
        };
        let chunk = Grown::Live(Chunk::new(base, len, generation, tail, blank));
        if k == self.grown.len() {
            self.grown.push(chunk);
        } else {
            self.grown[k] = chunk;
        }
        self.capacity += len;
        #[expect(clippy::cast_possible_truncation, reason = "checked against NIL above")]
        Some(base as u32)
    }

    /// Frees the grown chunks with no live object and no retired slot, and returns how many
    /// slots they held. Their slots are still on the caller's free list.
    pub(crate) fn shrink(&mut self) -> usize {
        let mut freed = 0;
        for grown in &mut self.grown {
            if let Grown::Live(chunk) = grown
                && chunk.occupancy.is_empty()
                && let Some(floor) = chunk.generation_floor()
            {
                freed += chunk.slots.len();
                *grown = Grown::Returned(floor);
            }
        }
        self.capacity -= freed;
        freed
    }
}

macro_rules! chunk_iterator {
    ($name:ident, $iter:ident, $($mut:ident)?) => {
        /// The chunks holding slots, the first first; see [`Storage::chunks`].
        pub(crate) struct $name<'a, T> {
            first: Option<&'a $($mut)? Chunk<T>>,
            grown: core::slice::$iter<'a, Grown<T>>,
        }

        impl<'a, T> Iterator for $name<'a, T> {
            type Item = &'a $($mut)? Chunk<T>;

            #[inline]
            fn next(&mut self) -> Option<Self::Item> {
                if let Some(first) = self.first.take() {
                    return Some(first);
                }
                self.grown.find_map(|grown| match grown {
                    Grown::Live(chunk) => Some(chunk),
                    Grown::Returned(_) => None,
                })
            }
        }

        impl<T> DoubleEndedIterator for $name<'_, T> {
            fn next_back(&mut self) -> Option<Self::Item> {
                let grown = self.grown.rfind(|grown| matches!(grown, Grown::Live(_)));
                match grown {
                    Some(Grown::Live(chunk)) => Some(chunk),
                    _ => self.first.take(),
                }
            }
        }
    };
}

chunk_iterator!(Chunks, Iter,);
chunk_iterator!(ChunksMut, IterMut, mut);
