use crate::limits::FIRST_VERSION;
use crate::limits::INDEX_END;
use crate::slot::Slot;
use crate::slot::free_list::FreeList;
use crate::slot::occupancy::Bit;
use crate::slot::shared::{SharedU32, SharedUsize};
use crate::storage::heap::chunk::Chunk;
use crate::storage::heap::once_box::OnceBox;
use crate::storage::lock::{Builder, Claim, Lock};
use crate::storage::part::{Part, PartMut};
use alloc::boxed::Box;
use core::slice;

/// The most positions for grown chunks: indices are 32-bit and chunk lengths double.
const POSITIONS: usize = 32;

/// The chunks a growing pool adds past its first one.
///
/// They double in size: the chunk at position `k` holds `1 << (chunk_bits + k)` slots (the last
/// may be shorter, to stop at the limit), and the positions' index ranges follow one another past
/// the first chunk. So at most 32 positions exist, an index finds its position with a
/// leading-zero count, and the table of positions is allocated once, at the first growth, and
/// never moves: the pool grows through `&self` while objects and chunks are borrowed, from
/// several threads (see [`grow`](Grown::grow)).
pub(crate) struct Grown<T> {
    positions: OnceBox<Box<[Position<T>]>>,
    /// The length of the first chunk, where the first position starts.
    start: usize,
    chunk_bits: u32,
    /// Slots in grown chunks now.
    len: SharedUsize,
    /// The thread building a chunk, to let one thread grow at a time and to refuse growth from
    /// the blank objects' own code.
    builder: Builder,
}

/// Where a grown chunk goes: empty until the pool grows into it, and empty again after `shrink`
/// gives it back.
struct Position<T> {
    chunk: OnceBox<Chunk<T>>,
    /// The version (counted from the pool's offset) a chunk built here starts from: past every
    /// handle into the chunks that were here before.
    version_floor: SharedU32,
}

impl<T> Grown<T> {
    /// No chunks yet, past a first chunk of `start` slots.
    pub(crate) fn new(start: usize) -> Self {
        Self {
            positions: OnceBox::new(),
            start,
            chunk_bits: start.max(1).next_power_of_two().trailing_zeros(),
            len: SharedUsize::new(0),
            builder: Builder::new(),
        }
    }

    #[inline]
    pub(crate) fn len(&self) -> usize {
        self.len.get()
    }

    /// The same chunks in the same positions, each slot made by `slot` (see
    /// [`Chunk::map_slots`]).
    pub(crate) fn map_slots(&self, mut slot: impl FnMut(usize, &Slot<T>) -> Slot<T>) -> Self {
        let positions = OnceBox::new();
        // Counted from the chunks copied: `slot` runs user code that may grow this pool.
        let mut len = 0;
        if let Some(here) = self.positions.get() {
            let copied: Box<[Position<T>]> = (here.iter())
                .map(|position| Position {
                    chunk: match position.chunk.get() {
                        Some(chunk) => {
                            len += chunk.len();
                            OnceBox::from_value(chunk.map_slots(&mut slot))
                        }
                        None => OnceBox::new(),
                    },
                    version_floor: position.version_floor.clone(),
                })
                .collect();
            if positions.set(Box::new(copied)).is_err() {
                unreachable!("a new cell is empty");
            }
        }
        Self {
            positions,
            start: self.start,
            chunk_bits: self.chunk_bits,
            len: SharedUsize::new(len),
            builder: Builder::new(),
        }
    }

    /// How many positions start below `INDEX_END`: the length of the table of positions,
    /// whatever the pool's limit, so that a pool restored from its parts grows as it would have.
    pub(crate) fn position_count(&self) -> usize {
        (0..POSITIONS)
            .take_while(|&k| self.position_base(k).is_some_and(|base| base < INDEX_END))
            .count()
    }

    /// The index of the first slot of the position `k`, if it fits in a `usize`.
    pub(crate) fn position_base(&self, k: usize) -> Option<usize> {
        if k >= POSITIONS {
            return None;
        }
        let past_first = ((1u64 << k) - 1).checked_shl(self.chunk_bits)?;
        if past_first >> self.chunk_bits != (1u64 << k) - 1 {
            return None;
        }
        usize::try_from(past_first).ok()?.checked_add(self.start)
    }

    /// The most slots a chunk at the position `k` holds.
    pub(crate) fn position_len(&self, k: usize) -> usize {
        let bits = self.chunk_bits + u32::try_from(k).unwrap_or(u32::MAX);
        1usize.checked_shl(bits).unwrap_or(usize::MAX)
    }

    #[cfg(feature = "serde")]
    /// Grown chunks past a first chunk of `start` slots, each at its position, and the
    /// positions' version floors (see [`Position`]); empty floors when the pool never grew. An
    /// error saying what is wrong when the chunks are not where a pool would have grown them.
    pub(crate) fn restore(
        start: usize,
        chunks: impl IntoIterator<Item = (usize, Chunk<T>)>,
        floors: &[u32],
    ) -> Result<Self, &'static str> {
        let grown = Self::new(start);
        let mut chunks = chunks.into_iter().peekable();
        if floors.is_empty() {
            return match chunks.peek() {
                None => Ok(grown),
                Some(_) => Err("grown chunks without the positions they were grown in"),
            };
        }
        if floors.len() != grown.position_count() {
            return Err("a table of positions not of the length a pool of this size has");
        }
        let positions: Box<[Position<T>]> = (floors.iter())
            .map(|&floor| Position {
                chunk: OnceBox::new(),
                version_floor: SharedU32::new(floor),
            })
            .collect();
        let mut len = 0;
        for (k, chunk) in chunks {
            let position = positions
                .get(k)
                .ok_or("a grown chunk past the last position")?;
            if Some(chunk.base()) != grown.position_base(k)
                || chunk.len() == 0
                || chunk.len() > grown.position_len(k)
                || chunk.base() + chunk.len() > INDEX_END
            {
                return Err("a grown chunk not where its position puts it, or longer");
            }
            len += chunk.len();
            if position.chunk.set(Box::new(chunk)).is_err() {
                return Err("two grown chunks at one position");
            }
        }
        grown.len.set(len);
        if grown.positions.set(Box::new(positions)).is_err() {
            unreachable!("a new pool has no positions yet");
        }
        Ok(grown)
    }

    #[cfg(feature = "serde")]
    /// The grown chunks with their positions, and the positions' version floors; empty floors
    /// when the pool never grew. What [`restore`](Grown::restore) takes.
    pub(crate) fn parts(
        &self,
    ) -> (
        impl Iterator<Item = (usize, &Chunk<T>)>,
        impl Iterator<Item = u32>,
    ) {
        let positions = self.positions.get().map_or(&[][..], |p| &p[..]);
        (
            (positions.iter().enumerate())
                .filter_map(|(k, position)| Some((k, position.chunk.get()?))),
            positions
                .iter()
                .map(|position| position.version_floor.get()),
        )
    }

    /// Whether every chunk is where its position puts it and no longer, `len` counts their
    /// slots, and every floor is even, below retirement and at most the versions of the chunk
    /// built on it (counted from `offset`); what is wrong if not.
    pub(crate) fn check(&self, offset: u32) -> Result<(), &'static str> {
        let Some(positions) = self.positions.get() else {
            return if self.len() == 0 {
                Ok(())
            } else {
                Err("grown slots counted without positions")
            };
        };
        if positions.len() != self.position_count() {
            return Err("a table of positions not of the length a pool of this size has");
        }
        let mut len = 0;
        for (k, position) in positions.iter().enumerate() {
            let floor = position.version_floor.get();
            if floor % 2 == 1 || floor >= crate::limits::RETIRED_VERSION {
                return Err("a version floor odd, or not below retirement");
            }
            let Some(chunk) = position.chunk.get() else {
                continue;
            };
            if Some(chunk.base()) != self.position_base(k)
                || chunk.len() == 0
                || chunk.len() > self.position_len(k)
                || chunk.base() + chunk.len() > INDEX_END
            {
                return Err("a grown chunk not where its position puts it, or longer");
            }
            if (chunk.slots().iter()).any(|slot| slot.version().wrapping_sub(offset) < floor) {
                return Err("a grown slot below its position's version floor");
            }
            len += chunk.len();
        }
        if len != self.len() {
            return Err("a grown length that is not the grown chunks' slots");
        }
        Ok(())
    }

    /// The position whose range holds `index` (past the first chunk), and the index within it.
    #[inline]
    fn position(&self, index: usize) -> (usize, usize) {
        let past_first = index - self.start;
        let k = (usize::BITS - 1 - ((past_first >> self.chunk_bits) + 1).leading_zeros()) as usize;
        (k, past_first - (((1 << k) - 1) << self.chunk_bits))
    }

    #[cold]
    pub(crate) fn slot(&self, index: usize) -> Option<(&Slot<T>, Bit<'_>)> {
        if index < self.start {
            return None;
        }
        let (k, local) = self.position(index);
        self.positions.get()?.get(k)?.chunk.get()?.slot(local)
    }

    #[cold]
    pub(crate) fn slot_mut(&mut self, index: usize) -> Option<(&mut Slot<T>, Bit<'_>)> {
        if index < self.start {
            return None;
        }
        let (k, local) = self.position(index);
        self.positions
            .get_mut()?
            .get_mut(k)?
            .chunk
            .get_mut()?
            .slot_mut(local)
    }

    /// The grown chunks, in index order.
    pub(crate) fn chunks(&self) -> Chunks<'_, T> {
        Chunks(self.positions.get().map_or(&[][..], |p| &p[..]).iter())
    }

    /// The grown chunks, mutably, in index order.
    pub(crate) fn chunks_mut(&mut self) -> ChunksMut<'_, T> {
        let positions: &mut [Position<T>] =
            self.positions.get_mut().map_or(&mut [], |p| &mut p[..]);
        ChunksMut(positions.iter_mut())
    }

    /// Adds a chunk of blank slots in the lowest empty position, free-listed in order, and puts
    /// them at the head of `free`; false when the pool holds `limit` slots. Its versions start at
    /// `offset` plus the position's floor. True also when another thread was growing the pool:
    /// this one waited for it, and the caller looks for a free slot again.
    ///
    /// One thread grows at a time. The chunk is built, which runs the blank objects' code,
    /// without the pool's lock and before anything the pool shares changes; then it is added,
    /// under the lock, in one step: that code may lend and give back objects of this pool. It
    /// may not make the pool grow again.
    ///
    /// # Panics
    /// When the blank objects' code makes this pool grow.
    pub(crate) fn grow(
        &self,
        limit: usize,
        offset: u32,
        lock: &Lock,
        free: &FreeList,
        blank: impl FnMut() -> T,
    ) -> bool {
        if self.room(limit) == 0 {
            return false;
        }
        let _building = match self.builder.claim() {
            Claim::Claimed(building) => building,
            Claim::Waited => return true,
            Claim::Reentered => panic!(
                "a pool was asked to grow while it was building blank objects to grow: the \
                 `Default` or `reset_with` of a pooled field must not create or acquire objects \
                 of its own pool"
            ),
        };
        let room = self.room(limit);
        if room == 0 {
            return false;
        }
        if self.positions.get().is_none() {
            let positions: Box<[Position<T>]> = (0..self.position_count())
                .map(|_| Position {
                    chunk: OnceBox::new(),
                    version_floor: SharedU32::new(FIRST_VERSION),
                })
                .collect();
            if self.positions.set(Box::new(positions)).is_err() {
                unreachable!("only the thread building sets the positions");
            }
        }
        let positions = self.positions.get().expect("set above");
        let Some((k, position)) =
            (positions.iter().enumerate()).find(|(_, p)| p.chunk.get().is_none())
        else {
            return false;
        };
        let Some(base) = self.position_base(k) else {
            return false;
        };
        let len = (self.position_len(k))
            .min(room)
            .min(INDEX_END.saturating_sub(base));
        if len == 0 {
            return false;
        }
        let version = offset.wrapping_add(position.version_floor.get());
        let chunk = Chunk::build(base, len, version, blank);
        let _locked = lock.lock();
        if position.chunk.set(Box::new(chunk)).is_err() {
            unreachable!("the position was empty and only the thread building fills it");
        }
        let chunk = position.chunk.get().expect("just set");
        let last = chunk.slots().last().expect("a grown chunk is not empty");
        self.len.set(self.len.get() + len);
        #[expect(clippy::cast_possible_truncation, reason = "checked against INDEX_END")]
        free.push_run(base as u32, last);
        true
    }

    /// How many more slots the pool may grow by.
    fn room(&self, limit: usize) -> usize {
        limit.saturating_sub(self.start + self.len())
    }

    /// Frees the grown chunks whose every slot is on `free` (so none is live, lent or retired:
    /// a retired slot leaves the list), takes their slots off the list, and returns how many
    /// slots they held. `first` is the pool's first chunk; versions count from `offset`.
    ///
    /// The books are right before the first blank object is dropped, so a `Drop` that panics
    /// leaves a consistent pool; the other chunks still drop while it unwinds.
    pub(crate) fn shrink(&mut self, first: &Chunk<T>, free: &FreeList, offset: u32) -> usize {
        let Some(positions) = self.positions.get_mut() else {
            return 0;
        };
        let (start, chunk_bits) = (self.start, self.chunk_bits);
        let position_of = |index: usize| {
            let past_first = index - start;
            (usize::BITS - 1 - ((past_first >> chunk_bits) + 1).leading_zeros()) as usize
        };
        let slot = |index: usize| -> &Slot<T> {
            if index < start {
                return &first.slots()[index];
            }
            let k = position_of(index);
            let chunk = positions[k]
                .chunk
                .get()
                .expect("free-list indices are in the pool");
            &chunk.slots()[index - chunk.base()]
        };
        let mut free_slots = [0usize; POSITIONS];
        for index in free.indices(slot) {
            if index >= start {
                free_slots[position_of(index)] += 1;
            }
        }
        let mut freeable = [false; POSITIONS];
        for (k, position) in positions.iter().enumerate() {
            freeable[k] = (position.chunk.get()).is_some_and(|chunk| free_slots[k] == chunk.len());
        }
        if !freeable.contains(&true) {
            return 0;
        }
        free.retain(slot, |index| index < start || !freeable[position_of(index)]);
        let mut gone: [Option<Box<Chunk<T>>>; POSITIONS] = [const { None }; POSITIONS];
        let mut freed = 0;
        for (k, position) in positions.iter_mut().enumerate() {
            if freeable[k]
                && let Some(chunk) = position.chunk.take()
            {
                freed += chunk.len();
                position
                    .version_floor
                    .store_mut(chunk.version_floor(offset));
                gone[k] = Some(chunk);
            }
        }
        let len = self.len.load_mut() - freed;
        self.len.store_mut(len);
        drop(gone);
        freed
    }
}

/// The grown chunks, in index order; see [`Grown::chunks`].
pub(crate) struct Chunks<'a, T>(slice::Iter<'a, Position<T>>);

impl<T> Chunks<'_, T> {
    /// No chunks: the rest of a pool that never grows.
    pub(crate) fn empty() -> Self {
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
            .find_map(|position| Some(position.chunk.get()?.part()))
    }
}

/// Where to split `positions` so that the run from the returned one on holds about as many
/// slots as `before` slots ahead of them and the run before it; `None` when no chunk is there.
#[cfg(feature = "rayon")]
fn halfway<T>(positions: &[Position<T>], before: usize) -> Option<usize> {
    let chunks = || (positions.iter().enumerate()).filter_map(|(k, p)| Some((k, p.chunk.get()?)));
    let total = before + chunks().map(|(_, chunk)| chunk.len()).sum::<usize>();
    let mut ahead = before;
    let mut best: Option<(usize, usize)> = None;
    for (k, chunk) in chunks() {
        let off = (2 * ahead).abs_diff(total);
        if best.is_none_or(|(least, _)| off < least) {
            best = Some((off, k));
        }
        ahead += chunk.len();
    }
    best.map(|(_, k)| k)
}

#[cfg(feature = "rayon")]
impl<'a, T> Chunks<'a, T> {
    /// The chunks in two runs of about as many slots each, counting `before` slots ahead of the
    /// first: the first run, and the second's first chunk and rest. `Err(self)` when no chunk is
    /// left.
    pub(crate) fn halve(self, before: usize) -> Result<(Self, Part<'a, T>, Self), Self> {
        let positions = self.0.as_slice();
        let Some(at) = halfway(positions, before) else {
            return Err(self);
        };
        let (ahead, behind) = positions.split_at(at);
        let Some((first, rest)) = behind.split_first() else {
            unreachable!("`halfway` splits at a chunk");
        };
        let Some(chunk) = first.chunk.get() else {
            unreachable!("`halfway` splits at a chunk");
        };
        Ok((Self(ahead.iter()), chunk.part(), Self(rest.iter())))
    }
}

#[cfg(feature = "rayon")]
impl<'a, T> ChunksMut<'a, T> {
    /// [`Chunks::halve`], mutably.
    pub(crate) fn halve(self, before: usize) -> Result<(Self, PartMut<'a, T>, Self), Self> {
        let positions = self.0.into_slice();
        let Some(at) = halfway(positions, before) else {
            return Err(Self(positions.iter_mut()));
        };
        let (ahead, behind) = positions.split_at_mut(at);
        let Some((first, rest)) = behind.split_first_mut() else {
            unreachable!("`halfway` splits at a chunk");
        };
        let Some(chunk) = first.chunk.get_mut() else {
            unreachable!("`halfway` splits at a chunk");
        };
        Ok((
            Self(ahead.iter_mut()),
            chunk.part_mut(),
            Self(rest.iter_mut()),
        ))
    }
}

/// The grown chunks, mutably, in index order; see [`Grown::chunks_mut`].
pub(crate) struct ChunksMut<'a, T>(slice::IterMut<'a, Position<T>>);

impl<T> ChunksMut<'_, T> {
    /// No chunks: the rest of a pool that never grows.
    pub(crate) fn empty() -> Self {
        Self([].iter_mut())
    }
}

impl<'a, T> Iterator for ChunksMut<'a, T> {
    type Item = PartMut<'a, T>;

    #[inline]
    fn next(&mut self) -> Option<PartMut<'a, T>> {
        self.0
            .find_map(|position| Some(position.chunk.get_mut()?.part_mut()))
    }
}
