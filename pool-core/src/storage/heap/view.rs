use super::geometry::{Geometry, POSITIONS};
use super::grown::{Position, empty_positions};
use crate::storage::view::{ChunkView, SlotsView};
use alloc::vec::Vec;
use core::cell::Cell;
use scopeguard::ScopeGuard;

/// What a lender sees of a heap pool's slots: a view of each chunk, the first first, and each
/// empty position of the grown chunks borrowed apart, so that the lender can grow the pool into
/// one while its leases hold objects of the others.
pub struct HeapView<'a, T> {
    /// The first chunk, then the grown chunks at their positions.
    chunks: [Cell<Option<ChunkView<'a, T>>>; 1 + POSITIONS],
    empty: [Cell<Option<&'a mut Position<T>>>; POSITIONS],
    /// The table of positions while the pool has never grown: made, and taken apart, at the
    /// first growth.
    table: Cell<Option<&'a mut Vec<Position<T>>>>,
    geometry: Geometry,
    /// Slots in grown chunks now.
    grown: &'a Cell<usize>,
    offset: u32,
}

impl<'a, T> HeapView<'a, T> {
    pub(crate) fn new(
        first: ChunkView<'a, T>,
        (positions, grown, geometry): (&'a mut Vec<Position<T>>, &'a mut usize, Geometry),
        offset: u32,
    ) -> Self {
        let view = Self {
            chunks: [const { Cell::new(None) }; 1 + POSITIONS],
            empty: [const { Cell::new(None) }; POSITIONS],
            table: Cell::new(None),
            geometry,
            grown: Cell::from_mut(grown),
            offset,
        };
        view.chunks[0].set(Some(first));
        if positions.is_empty() {
            view.table.set(Some(positions));
        } else {
            view.take_apart(positions);
        }
        view
    }

    /// Takes each position of `positions` apart: a view of its chunk, or the empty position.
    fn take_apart(&self, positions: &'a mut [Position<T>]) {
        for (k, position) in positions.iter_mut().enumerate() {
            if position.chunk_mut().is_some() {
                let chunk = position.chunk_mut().expect("just checked");
                self.chunks[1 + k].set(Some(chunk.view()));
            } else {
                self.empty[k].set(Some(position));
            }
        }
    }

    /// The table of positions, made and taken apart if the pool has never grown.
    fn ready(&self) {
        if let Some(table) = self.table.take() {
            *table = empty_positions(self.geometry);
            self.take_apart(table);
        }
    }

    /// Where [`grow`](SlotsView::grow) would put the next chunk: its first index and length.
    pub(crate) fn next_chunk(&self, limit: usize) -> Option<(usize, usize)> {
        self.ready();
        let room = limit.saturating_sub(self.capacity());
        let (_, base, len) = (self.geometry).next_chunk(room, |k| self.is_empty(k))?;
        Some((base, len))
    }

    /// Whether position `k` is empty.
    fn is_empty(&self, k: usize) -> bool {
        let position = self.empty[k].take();
        let empty = position.is_some();
        self.empty[k].set(position);
        empty
    }
}

impl<'a, T> SlotsView<'a, T> for HeapView<'a, T> {
    #[inline]
    fn chunks(&self) -> &[Cell<Option<ChunkView<'a, T>>>] {
        &self.chunks
    }

    #[inline]
    fn find(&self, index: usize) -> Option<(ChunkView<'a, T>, usize)> {
        let first = self.chunks[0].get()?;
        if index < first.len() {
            return Some((first, index));
        }
        if index < self.geometry.start() {
            return None;
        }
        let (k, local) = self.geometry.position(index);
        Some((self.chunks.get(1 + k)?.get()?, local))
    }

    #[inline]
    fn capacity(&self) -> usize {
        self.geometry.start() + self.grown.get()
    }

    #[inline]
    fn retired_at(&self) -> u32 {
        crate::limits::retired_at(self.offset)
    }

    #[inline]
    fn build_next(&self, _: impl FnOnce() -> T) -> Option<(ChunkView<'a, T>, usize, usize)> {
        None
    }

    /// `Grown::grow`, through the view.
    fn grow(
        &self,
        limit: usize,
        blank: impl FnMut() -> T,
    ) -> Option<(ChunkView<'a, T>, usize, usize)> {
        self.ready();
        let room = limit.saturating_sub(self.capacity());
        let (k, base, len) = (self.geometry).next_chunk(room, |k| self.is_empty(k))?;
        // Back in its cell if `blank`, user code, unwinds.
        let position = scopeguard::guard(self.empty[k].take()?, |position| {
            self.empty[k].set(Some(position));
        });
        let chunk = position.build(base, len, self.offset, blank);
        let view = ScopeGuard::into_inner(position).install(chunk).view();
        self.chunks[1 + k].set(Some(view));
        self.grown.set(self.grown.get() + len);
        Some((view, 0, len))
    }
}
