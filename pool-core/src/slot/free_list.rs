//! The free list of a [`Pool`](crate::Pool): a stack of the free slots' indices, kept apart
//! from the slots, so that the slot released last, warm in the cache, is reused first, and so
//! that taking a slot reads no slot: a burst of creates into slots scattered over a large pool
//! waits for no cache miss to learn where the next one is. Every change to the list happens
//! here.

use crate::slot::NIL;
use core::cell::Cell;

/// Where a storage keeps its free list: a heap pool's [`HeapStack`], an inline pool's
/// [`InlineStack`].
pub(crate) trait FreeStack {
    /// An empty list with room for an entry per slot of a pool of `capacity`.
    fn with_room(capacity: usize) -> Self;

    /// The number of free slots.
    fn len(&self) -> usize;

    /// The room for entries, and how many are on the list.
    fn parts(&self) -> (&[u32], usize);

    /// The free slots' indices, the one taken last first.
    #[inline]
    fn entries(&self) -> &[u32] {
        let (entries, len) = self.parts();
        entries.get(..len).unwrap_or_default()
    }

    /// The entries, mutably, and how many there are: for a list rebuilt in place.
    fn entries_mut(&mut self) -> (&mut [u32], &mut usize);

    /// The list as a lender sees it.
    fn view(&mut self) -> FreeCells<'_>;

    /// Makes room for `total` entries in all (a heap pool's list, as the pool grows).
    fn reserve(&mut self, total: usize);

    /// The slot `create` takes next, `NIL` when none is free.
    #[inline]
    fn top(&self) -> u32 {
        let (entries, len) = self.parts();
        // One bounds check for both ends: below the bottom wraps past the end.
        entries.get(len.wrapping_sub(1)).copied().unwrap_or(NIL)
    }

    /// Takes the slot at the top off the list.
    #[inline]
    fn pop(&mut self) {
        let (_, len) = self.entries_mut();
        *len -= 1;
    }

    /// Puts the slot at `index` on top of the list. There is room: the list holds at most as
    /// many entries as the pool has slots.
    #[inline]
    fn push(&mut self, index: usize) {
        let (entries, len) = self.entries_mut();
        #[expect(clippy::cast_possible_truncation, reason = "indices end below NIL")]
        let index = index as u32;
        entries[*len] = index;
        *len += 1;
    }

    /// Puts the slots from `first` to `first + count` on top, so that they are taken in index
    /// order, before the slots free already.
    #[inline]
    fn push_run(&mut self, first: usize, count: usize) {
        for index in (first..first + count).rev() {
            self.push(index);
        }
    }

    /// Keeps only the entries for which `keep` is true, in order.
    fn retain(&mut self, mut keep: impl FnMut(usize) -> bool) {
        let (entries, len) = self.entries_mut();
        let mut kept = 0;
        for at in 0..*len {
            let index = entries[at];
            if keep(index as usize) {
                entries[kept] = index;
                kept += 1;
            }
        }
        *len = kept;
    }
}

/// A heap pool's free list: room for an entry per slot, made when the pool grows.
#[cfg(feature = "alloc")]
#[derive(Default, Clone)]
#[allow(unreachable_pub, reason = "named by the sealed `Slots` trait")]
pub struct HeapStack {
    entries: alloc::boxed::Box<[u32]>,
    len: usize,
}

#[cfg(feature = "alloc")]
impl HeapStack {
    /// The list of a pool of `capacity` free slots, taken in index order.
    pub(crate) fn full(capacity: usize) -> Self {
        #[expect(clippy::cast_possible_truncation, reason = "indices end below NIL")]
        let entries = (0..capacity).rev().map(|index| index as u32).collect();
        Self {
            entries,
            len: capacity,
        }
    }

    /// A list of `entries`, the one taken last first, with room for `capacity` in all.
    pub(crate) fn from_entries(entries: &[u32], capacity: usize) -> Self {
        let mut room = alloc::vec![0; capacity.max(entries.len())];
        room[..entries.len()].copy_from_slice(entries);
        Self {
            entries: room.into_boxed_slice(),
            len: entries.len(),
        }
    }

    /// Makes room for `total` entries in all, keeping those on the list.
    pub(crate) fn reserve(&mut self, total: usize) {
        if total > self.entries.len() {
            *self = Self::from_entries(&self.entries[..self.len], total);
        }
    }
}

#[cfg(feature = "alloc")]
impl FreeStack for HeapStack {
    fn with_room(capacity: usize) -> Self {
        Self::from_entries(&[], capacity)
    }

    #[inline]
    fn len(&self) -> usize {
        self.len
    }

    #[inline]
    fn parts(&self) -> (&[u32], usize) {
        (&self.entries, self.len)
    }

    #[inline]
    fn entries_mut(&mut self) -> (&mut [u32], &mut usize) {
        (&mut self.entries, &mut self.len)
    }

    fn view(&mut self) -> FreeCells<'_> {
        FreeCells::Heap(Cell::from_mut(self))
    }

    fn reserve(&mut self, total: usize) {
        HeapStack::reserve(self, total);
    }
}

/// An inline pool's free list, inside the pool: an entry per slot.
#[derive(Clone)]
#[allow(unreachable_pub, reason = "named by the sealed `Slots` trait")]
pub struct InlineStack<const N: usize> {
    entries: [u32; N],
    len: usize,
}

impl<const N: usize> InlineStack<N> {
    /// No slot free: an inline pool builds its slots on first use.
    pub(crate) const fn new() -> Self {
        Self {
            entries: [0; N],
            len: 0,
        }
    }
}

impl<const N: usize> FreeStack for InlineStack<N> {
    fn with_room(_: usize) -> Self {
        Self::new()
    }

    #[inline]
    fn len(&self) -> usize {
        self.len
    }

    #[inline]
    fn parts(&self) -> (&[u32], usize) {
        (&self.entries, self.len)
    }

    #[inline]
    fn entries_mut(&mut self) -> (&mut [u32], &mut usize) {
        (&mut self.entries, &mut self.len)
    }

    fn reserve(&mut self, total: usize) {
        debug_assert!(total <= N);
    }

    fn view(&mut self) -> FreeCells<'_> {
        FreeCells::Inline {
            entries: Cell::from_mut(&mut self.entries[..]).as_slice_of_cells(),
            len: Cell::from_mut(&mut self.len),
        }
    }
}

/// A free list seen through `&`, by a [`Lender`](crate::Lender): what its leases change as
/// they come and go.
pub(crate) enum FreeCells<'a> {
    /// A heap pool's list, taken out of its cell, changed and put back: no user code runs
    /// meanwhile, and growing may replace it.
    #[cfg(feature = "alloc")]
    Heap(&'a Cell<HeapStack>),
    /// An inline pool's list: its entries as cells, which never move.
    Inline {
        entries: &'a [Cell<u32>],
        len: &'a Cell<usize>,
    },
}

impl FreeCells<'_> {
    /// The slot taken next, `NIL` when none is free.
    pub(crate) fn top(&self) -> u32 {
        match self {
            #[cfg(feature = "alloc")]
            Self::Heap(cell) => {
                let stack = cell.take();
                let top = stack.top();
                cell.set(stack);
                top
            }
            Self::Inline { entries, len } => (len.get().checked_sub(1))
                .and_then(|at| entries.get(at))
                .map_or(NIL, Cell::get),
        }
    }

    /// Takes the slot at the top off the list.
    pub(crate) fn pop(&self) {
        match self {
            #[cfg(feature = "alloc")]
            Self::Heap(cell) => {
                let mut stack = cell.take();
                stack.pop();
                cell.set(stack);
            }
            Self::Inline { len, .. } => len.set(len.get() - 1),
        }
    }

    /// Puts the slot at `index` on top of the list.
    pub(crate) fn push(&self, index: usize) {
        self.push_run(index, 1, 0);
    }

    /// [`FreeStack::push_run`], after making room for `total` entries in all (a heap pool's
    /// list, as the pool grows).
    pub(crate) fn push_run(&self, first: usize, count: usize, total: usize) {
        match self {
            #[cfg(feature = "alloc")]
            Self::Heap(cell) => {
                let mut stack = cell.take();
                stack.reserve(total);
                stack.push_run(first, count);
                cell.set(stack);
            }
            Self::Inline { entries, len } => {
                for index in (first..first + count).rev() {
                    #[expect(clippy::cast_possible_truncation, reason = "indices end below NIL")]
                    entries[len.get()].set(index as u32);
                    len.set(len.get() + 1);
                }
            }
        }
    }
}
