use super::chunk::Chunk;
use super::geometry::{Geometry, POSITIONS};
use crate::limits::{FIRST_VERSION, RETIRED_VERSION};
use crate::slot::state;
use crate::storage::part::{Part, PartMut};
use alloc::vec::Vec;
use core::slice;

/// The chunks a growing pool adds past its first one, at the positions [`Geometry`] gives.
///
/// The table of positions is made at the first growth and never shrinks: a position's version
/// floor outlives the chunk it held. Chunks never move once built, so objects and handles stay
/// good as the pool grows.
pub(crate) struct Grown<T> {
    /// Empty until the pool first grows, then `geometry.position_count()` long.
    positions: Vec<Position<T>>,
    geometry: Geometry,
    /// Slots in grown chunks now.
    len: usize,
}

/// Where a grown chunk goes: empty until the pool grows into it, and empty again after `shrink`
/// gives it back.
pub(crate) struct Position<T> {
    chunk: Option<Chunk<T>>,
    /// The version (counted from the pool's offset) a chunk built here starts from: past every
    /// handle into the chunks that were here before.
    floor: u32,
}

impl<T> Position<T> {
    fn empty(floor: u32) -> Self {
        Self { chunk: None, floor }
    }
}

impl<T> Grown<T> {
    /// No chunks yet, past a first chunk of `start` slots.
    pub(crate) fn new(start: usize) -> Self {
        Self {
            positions: Vec::new(),
            geometry: Geometry::new(start),
            len: 0,
        }
    }

    #[inline]
    pub(crate) fn len(&self) -> usize {
        self.len
    }

    #[inline]
    pub(crate) fn geometry(&self) -> Geometry {
        self.geometry
    }

    pub(crate) fn chunk_count(&self) -> usize {
        self.chunks().count()
    }

    /// Positions in the table: none until the pool first grows.
    #[inline]
    pub(crate) fn positions(&self) -> usize {
        self.positions.len()
    }

    /// The chunk at position `k`, if there is one.
    #[inline]
    pub(crate) fn chunk_mut(&mut self, k: usize) -> Option<&mut Chunk<T>> {
        self.positions.get_mut(k)?.chunk.as_mut()
    }

    /// The chunk holding `index` (past the first chunk), and the index within it.
    #[inline]
    fn find(&self, index: usize) -> Option<(&Chunk<T>, usize)> {
        if index < self.geometry.start() {
            return None;
        }
        let (k, local) = self.geometry.position(index);
        Some((self.positions.get(k)?.chunk.as_ref()?, local))
    }

    #[cold]
    pub(crate) fn get(&self, index: usize, word: u64) -> Option<&T> {
        let (chunk, local) = self.find(index)?;
        chunk.get(local, word)
    }

    #[cold]
    pub(crate) fn word(&self, index: usize) -> Option<u64> {
        let (chunk, local) = self.find(index)?;
        chunk.word(local)
    }

    /// The chunk holding `index` (past the first chunk), mutably, and the index within it.
    #[cold]
    pub(crate) fn part_mut(&mut self, index: usize) -> Option<(PartMut<'_, T>, usize)> {
        if index < self.geometry.start() {
            return None;
        }
        let (k, local) = self.geometry.position(index);
        Some((self.positions.get_mut(k)?.chunk.as_mut()?.part_mut(), local))
    }

    /// The same chunks in the same positions, each object made by `object` (see
    /// [`Chunk::clone_with`]).
    pub(crate) fn clone_with(&self, mut object: impl FnMut(bool, &T) -> T) -> Self {
        Self {
            positions: (self.positions.iter())
                .map(|position| Position {
                    chunk: (position.chunk.as_ref()).map(|chunk| chunk.clone_with(&mut object)),
                    floor: position.floor,
                })
                .collect(),
            geometry: self.geometry,
            len: self.len,
        }
    }

    /// Where a chunk of blank slots goes next, when the pool may grow by `room` slots: the
    /// lowest empty position, the chunk's first index and length, and the version its slots
    /// start at (`offset` plus the position's floor); `None` when it cannot grow. Makes the
    /// table of positions at the first growth. The chunk is built apart and
    /// [`install`](Grown::install)ed, so that if building it panics the pool is as it was
    /// (but for the table).
    pub(crate) fn next(&mut self, room: usize, offset: u32) -> Option<(usize, usize, usize, u32)> {
        if self.positions.is_empty() {
            self.positions = empty_positions(self.geometry);
        }
        let positions = &self.positions;
        let (k, base, len) = (self.geometry).next_chunk(room, |k| positions[k].chunk.is_none())?;
        Some((k, base, len, offset.wrapping_add(positions[k].floor)))
    }

    /// Puts `chunk`, built for the empty position `k` ([`next`](Grown::next)), there.
    pub(crate) fn install(&mut self, k: usize, chunk: Chunk<T>) -> &mut Chunk<T> {
        self.len += chunk.len();
        let position = &mut self.positions[k];
        debug_assert!(position.chunk.is_none());
        position.chunk.insert(chunk)
    }

    /// Grown chunks past a first chunk of `start` slots, each at its position, and the
    /// positions' version floors (see [`Position`]); empty floors when the pool never grew. An
    /// error saying what is wrong when the chunks are not where a pool would have grown them.
    #[cfg(feature = "serde")]
    pub(crate) fn restore(
        start: usize,
        chunks: impl IntoIterator<Item = (usize, Chunk<T>)>,
        floors: &[u32],
    ) -> Result<Self, &'static str> {
        let mut grown = Self::new(start);
        let mut chunks = chunks.into_iter().peekable();
        if floors.is_empty() {
            return match chunks.peek() {
                None => Ok(grown),
                Some(_) => Err("grown chunks without the positions they were grown in"),
            };
        }
        if floors.len() != grown.geometry.position_count() {
            return Err("a table of positions not of the length a pool of this size has");
        }
        grown.positions = floors.iter().map(|&floor| Position::empty(floor)).collect();
        for (k, chunk) in chunks {
            let position = (grown.positions)
                .get_mut(k)
                .ok_or("a grown chunk past the last position")?;
            if !grown.geometry.fits(k, chunk.base(), chunk.len()) {
                return Err("a grown chunk not where its position puts it, or longer");
            }
            if position.chunk.is_some() {
                return Err("two grown chunks at one position");
            }
            grown.len += chunk.len();
            position.chunk = Some(chunk);
        }
        Ok(grown)
    }

    /// The grown chunks with their positions, and the positions' version floors; empty floors
    /// when the pool never grew. What [`restore`](Grown::restore) takes.
    #[cfg(feature = "serde")]
    pub(crate) fn parts(
        &self,
    ) -> (
        impl Iterator<Item = (usize, &Chunk<T>)>,
        impl Iterator<Item = u32>,
    ) {
        (
            (self.positions.iter().enumerate())
                .filter_map(|(k, position)| Some((k, position.chunk.as_ref()?))),
            self.positions.iter().map(|position| position.floor),
        )
    }

    /// Whether every chunk is where its position puts it and no longer, `len` counts their
    /// slots, and every floor is even, below retirement and at most the versions of the chunk
    /// built on it (counted from `offset`); what is wrong if not.
    pub(crate) fn check(&self, offset: u32) -> Result<(), &'static str> {
        if self.positions.is_empty() {
            return if self.len == 0 {
                Ok(())
            } else {
                Err("grown slots counted without positions")
            };
        }
        if self.positions.len() != self.geometry.position_count() {
            return Err("a table of positions not of the length a pool of this size has");
        }
        let mut len = 0;
        for (k, position) in self.positions.iter().enumerate() {
            let floor = position.floor;
            if floor % 2 == 1 || floor >= RETIRED_VERSION {
                return Err("a version floor odd, or not below retirement");
            }
            let Some(chunk) = &position.chunk else {
                continue;
            };
            if !self.geometry.fits(k, chunk.base(), chunk.len()) {
                return Err("a grown chunk not where its position puts it, or longer");
            }
            if (chunk.words().iter()).any(|&word| state::version(word).wrapping_sub(offset) < floor)
            {
                return Err("a grown slot below its position's version floor");
            }
            chunk.check_bits()?;
            len += chunk.len();
        }
        if len != self.len {
            return Err("a grown length that is not the grown chunks' slots");
        }
        Ok(())
    }

    /// The grown chunks, in index order.
    pub(crate) fn chunks(&self) -> Chunks<'_, T> {
        Chunks(self.positions.iter())
    }

    /// The grown chunks, mutably, in index order.
    pub(crate) fn chunks_mut(&mut self) -> ChunksMut<'_, T> {
        ChunksMut(self.positions.iter_mut())
    }

    /// Frees the grown chunks for which `freeable` is true (given each chunk's position and the
    /// chunk), recording in each position the version a chunk built there later starts from,
    /// and returns how many slots they held. The caller has taken their slots off the free list.
    ///
    /// The books are right before the first blank object is dropped, so a `Drop` that panics
    /// leaves a consistent pool; the other chunks still drop while it unwinds.
    pub(crate) fn free_chunks(&mut self, offset: u32, freeable: impl Fn(usize) -> bool) -> usize {
        let mut gone: [Option<Chunk<T>>; POSITIONS] = [const { None }; POSITIONS];
        let mut freed = 0;
        for (k, position) in self.positions.iter_mut().enumerate() {
            if freeable(k)
                && let Some(chunk) = position.chunk.take()
            {
                freed += chunk.len();
                position.floor = chunk.version_floor(offset);
                gone[k] = Some(chunk);
            }
        }
        self.len -= freed;
        drop(gone);
        freed
    }
}

/// A table of `geometry`'s positions, all empty, from the first version.
fn empty_positions<T>(geometry: Geometry) -> Vec<Position<T>> {
    (0..geometry.position_count())
        .map(|_| Position::empty(FIRST_VERSION))
        .collect()
}

/// The grown chunks, in index order; see [`Grown::chunks`].
pub(crate) struct Chunks<'a, T>(slice::Iter<'a, Position<T>>);

/// No chunks: the rest of a pool that never grows.
impl<T> Default for Chunks<'_, T> {
    fn default() -> Self {
        Self([].iter())
    }
}

impl<T> Clone for Chunks<'_, T> {
    fn clone(&self) -> Self {
        Self(self.0.clone())
    }
}

impl<'a, T> Iterator for Chunks<'a, T> {
    type Item = Part<'a, T>;

    #[inline]
    fn next(&mut self) -> Option<Part<'a, T>> {
        self.0
            .find_map(|position| Some(position.chunk.as_ref()?.part()))
    }
}

/// The grown chunks, mutably, in index order; see [`Grown::chunks_mut`].
pub(crate) struct ChunksMut<'a, T>(slice::IterMut<'a, Position<T>>);

/// No chunks: the rest of a pool that never grows.
impl<T> Default for ChunksMut<'_, T> {
    fn default() -> Self {
        Self([].iter_mut())
    }
}

impl<'a, T> Iterator for ChunksMut<'a, T> {
    type Item = PartMut<'a, T>;

    #[inline]
    fn next(&mut self) -> Option<PartMut<'a, T>> {
        self.0
            .find_map(|position| Some(position.chunk.as_mut()?.part_mut()))
    }
}
