//! The free list of a [`Pool`](crate::Pool): a stack of the free slots' indices, kept apart
//! from the slots, so that the slot released last, warm in the cache, is reused first, and so
//! that taking a slot reads no slot: a burst of creates into slots scattered over a large pool
//! waits for no cache miss to learn where the next one is. Every change to the list happens
//! here.

use crate::slot::NIL;
use core::cell::Cell;

/// Where a storage keeps its free list: a heap pool's [`HeapStack`], an inline pool's
/// [`InlineStack`]. The list's logic is [`StackMut`]'s; a storage lends its parts.
///
/// Invariant, which the unchecked entries rely on: the list has room for an entry per built
/// slot of its pool, holds each free slot once, and counts no more entries than its room.
pub(crate) trait FreeStack {
    /// An empty list with room for an entry per slot of a pool of `capacity`: a loaded save's.
    #[cfg(all(feature = "serde", feature = "alloc"))]
    fn with_room(capacity: usize) -> Self;

    /// The room for entries, how many are on the list, and its
    /// [floor](FreeStack::set_floor).
    fn parts(&self) -> (&[u32], usize, usize);

    /// The list, to change.
    fn stack(&mut self) -> StackMut<'_>;

    /// The list as a lender sees it.
    fn view(&mut self) -> FreeCells<'_>;

    /// Makes room for `total` entries in all (a heap pool's list, as the pool grows).
    #[cfg_attr(
        not(feature = "alloc"),
        expect(
            dead_code,
            reason = "for growing, shrinking, checks and saves, which need alloc"
        )
    )]
    fn reserve(&mut self, total: usize);

    /// The slot `create` takes next, and the list's length, where the list is longer than its
    /// [floor](FreeStack::set_floor): a create that leaves the high water mark as it is. `None`
    /// where the list is empty or the mark may rise: one compare for both.
    #[inline]
    fn next_above_floor(&self) -> Option<(usize, usize)> {
        let (entries, len, floor) = self.parts();
        if len <= floor {
            return None;
        }
        debug_assert!(len <= entries.len());
        // SAFETY: `len` is above the floor, so at least 1, and the list counts no more entries
        // than its room (the invariant above): the top one, at `len - 1`, is in it.
        let top = unsafe { *entries.get_unchecked(len - 1) };
        Some((top as usize, len))
    }

    /// The slot `create` takes next, `NIL` when none is free.
    #[inline]
    fn top(&self) -> u32 {
        let (entries, len, _) = self.parts();
        // One bounds check for both ends: below the bottom wraps past the end.
        entries.get(len.wrapping_sub(1)).copied().unwrap_or(NIL)
    }

    /// The number of free slots.
    #[inline]
    fn len(&self) -> usize {
        self.parts().1
    }

    /// The free slots' indices, the one taken last first.
    #[cfg_attr(
        not(feature = "alloc"),
        expect(
            dead_code,
            reason = "for growing, shrinking, checks and saves, which need alloc"
        )
    )]
    #[inline]
    fn entries(&self) -> &[u32] {
        let (entries, len, _) = self.parts();
        entries.get(..len).unwrap_or_default()
    }

    /// Takes the slot at the top off the list.
    #[inline]
    fn pop(&mut self) {
        self.stack().pop();
    }

    /// Puts the slot at `index` on top of the list. There is room: the list holds at most as
    /// many entries as the pool has slots.
    #[inline]
    fn push(&mut self, index: usize) {
        self.stack().push(index);
    }

    /// Puts the slot at `index`, live until now, on top of the list: a live slot is not on the
    /// list, so there is room for it, unchecked.
    #[inline]
    fn push_freed(&mut self, index: usize) {
        self.stack().push_freed(index);
    }

    /// Takes the slot at the top off the list, whose length the caller read as `len`: from a
    /// register, not loaded again (a `release` just stored it, and a churn step waited on that
    /// store twice).
    #[inline]
    fn pop_from(&mut self, len: usize) {
        let stack = self.stack();
        debug_assert_eq!(*stack.len, len);
        *stack.len = len - 1;
    }

    /// Sets the length at or below which [`next_above_floor`](FreeStack::next_above_floor)
    /// says a create may raise the high water mark: for a pool whose built slots less its
    /// retired ones are `usable`, `usable - high_water`. Whatever may raise that figure
    /// (building slots, growing) or lower the mark resets the floor to unknown, which every
    /// list is at or below.
    #[inline]
    fn set_floor(&mut self, floor: usize) {
        *self.stack().floor = Floor(floor);
    }

    /// Makes the floor unknown: the next `next_above_floor` says to look.
    #[inline]
    fn forget_floor(&mut self) {
        *self.stack().floor = Floor::UNKNOWN;
    }

    /// Puts the slots from `first` to `first + count` on top, so that they are taken in index
    /// order, before the slots free already.
    #[cfg_attr(
        not(feature = "alloc"),
        expect(
            dead_code,
            reason = "for growing, shrinking, checks and saves, which need alloc"
        )
    )]
    #[inline]
    fn push_run(&mut self, first: usize, count: usize) {
        let mut stack = self.stack();
        for index in (first..first + count).rev() {
            stack.push(index);
        }
    }

    /// Keeps only the entries for which `keep` is true, in order.
    #[cfg_attr(
        not(feature = "alloc"),
        expect(
            dead_code,
            reason = "for growing, shrinking, checks and saves, which need alloc"
        )
    )]
    fn retain(&mut self, mut keep: impl FnMut(usize) -> bool) {
        self.stack().edit(|entries, len| {
            let mut kept = 0;
            for at in 0..*len {
                let index = entries[at];
                if keep(index as usize) {
                    entries[kept] = index;
                    kept += 1;
                }
            }
            *len = kept;
        });
    }
}

/// How many of the entries at the end of `rest` (a part of a list, taken last first) name
/// consecutive slots, each one past the one taken before it if `up` (a fresh pool's list, a
/// grown one's), else each one before it (slots released in index order).
#[inline]
pub(crate) fn consecutive(rest: &[u32], up: bool) -> usize {
    // `LANES` entries at a time, so that the comparisons vectorize, while `last` is far enough
    // from the ends of `u32` for the slots after it not to wrap.
    const LANES: u32 = 16;
    let after = |slot: u32, by: u32| {
        if up {
            slot.wrapping_add(by)
        } else {
            slot.wrapping_sub(by)
        }
    };
    let Some((&top, above)) = rest.split_last() else {
        return 0;
    };
    // `rest[end..]` are consecutive, `last` the slot of `rest[end]`.
    let (mut end, mut last) = (above.len(), top);
    for chunk in above.rchunks_exact(LANES as usize) {
        let room = if up { u32::MAX - last } else { last };
        let each = (chunk.iter().zip(0..LANES)).fold(room >= LANES, |each, (&entry, at)| {
            each & (entry == after(last, LANES - at))
        });
        if !each {
            break;
        }
        (end, last) = (end - LANES as usize, after(last, LANES));
    }
    while let Some(&entry) = end.checked_sub(1).and_then(|at| rest.get(at)) {
        if entry != after(last, 1) {
            break;
        }
        (end, last) = (end - 1, entry);
    }
    rest.len() - end
}

/// The floor of a free list (see [`FreeStack::set_floor`]): unknown when a list is made or
/// copied, so that its pool's first `create` sets it.
#[derive(Debug)]
pub(crate) struct Floor(usize);

impl Floor {
    const UNKNOWN: Self = Self(usize::MAX);
}

impl Default for Floor {
    fn default() -> Self {
        Self::UNKNOWN
    }
}

impl Clone for Floor {
    fn clone(&self) -> Self {
        Self::UNKNOWN
    }
}

/// A free list's parts, borrowed to change it.
pub(crate) struct StackMut<'a> {
    entries: &'a mut [u32],
    len: &'a mut usize,
    floor: &'a mut Floor,
}

impl StackMut<'_> {
    #[inline]
    fn pop(&mut self) {
        *self.len -= 1;
    }

    /// [`FreeStack::push_freed`].
    #[inline]
    fn push_freed(&mut self, index: usize) {
        #[expect(clippy::cast_possible_truncation, reason = "indices end below NIL")]
        let index = index as u32;
        debug_assert!(*self.len < self.entries.len());
        // SAFETY: the list has room for an entry per built slot and holds each free slot once
        // (`FreeStack`'s invariant); the slot at `index` was live, so it is not on the list, and
        // the list holds fewer entries than its room.
        let entry = unsafe { self.entries.get_unchecked_mut(*self.len) };
        *entry = index;
        *self.len += 1;
    }

    #[inline]
    fn push(&mut self, index: usize) {
        #[expect(clippy::cast_possible_truncation, reason = "indices end below NIL")]
        let index = index as u32;
        self.entries[*self.len] = index;
        *self.len += 1;
    }

    /// Changes the entries and their count in place: `edit` gets the room for entries and the
    /// count.
    pub(crate) fn edit<R>(&mut self, edit: impl FnOnce(&mut [u32], &mut usize) -> R) -> R {
        edit(self.entries, self.len)
    }
}

/// A heap pool's free list: room for an entry per slot, made when the pool grows.
#[cfg(feature = "alloc")]
#[derive(Default, Clone)]
#[allow(unreachable_pub, reason = "named by the sealed `Slots` trait")]
pub struct HeapStack {
    entries: alloc::boxed::Box<[u32]>,
    len: usize,
    floor: Floor,
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
            floor: Floor::UNKNOWN,
        }
    }

    /// Gives back the room past `total` entries, which must be at least the list's length.
    pub(crate) fn shrink_to(&mut self, total: usize) {
        debug_assert!(total >= self.len);
        if total < self.entries.len() {
            *self = Self::from_entries(self.entries(), total);
        }
    }

    /// A list of `entries`, the one taken last first, with room for `capacity` in all.
    pub(crate) fn from_entries(entries: &[u32], capacity: usize) -> Self {
        let mut room = alloc::vec![0; capacity.max(entries.len())];
        room[..entries.len()].copy_from_slice(entries);
        Self {
            entries: room.into_boxed_slice(),
            len: entries.len(),
            floor: Floor::UNKNOWN,
        }
    }
}

#[cfg(feature = "alloc")]
impl FreeStack for HeapStack {
    #[cfg(feature = "serde")]
    fn with_room(capacity: usize) -> Self {
        Self::from_entries(&[], capacity)
    }

    #[inline]
    fn parts(&self) -> (&[u32], usize, usize) {
        (&self.entries, self.len, self.floor.0)
    }

    #[inline]
    fn stack(&mut self) -> StackMut<'_> {
        StackMut {
            entries: &mut self.entries,
            len: &mut self.len,
            floor: &mut self.floor,
        }
    }

    /// A lender may build, grow and lend, which the floor does not follow: it is forgotten.
    fn view(&mut self) -> FreeCells<'_> {
        self.forget_floor();
        FreeCells::Heap(Cell::from_mut(self))
    }

    fn reserve(&mut self, total: usize) {
        if total > self.entries.len() {
            *self = Self::from_entries(self.entries(), total);
        }
    }
}

/// An inline pool's free list, inside the pool: an entry per slot.
#[derive(Clone)]
#[allow(unreachable_pub, reason = "named by the sealed `Slots` trait")]
pub struct InlineStack<const N: usize> {
    entries: [u32; N],
    len: usize,
    floor: Floor,
}

impl<const N: usize> InlineStack<N> {
    /// No slot free: an inline pool builds its slots on first use.
    #[cfg(all(feature = "serde", feature = "alloc"))]
    pub(crate) const fn new() -> Self {
        Self {
            entries: [0; N],
            len: 0,
            floor: Floor::UNKNOWN,
        }
    }

    /// Writes an empty stack at `this`, in place: the entries are zeroed where they lie, never built on the stack first (an inline pool may be larger than a thread's
    /// stack).
    ///
    /// # Safety
    /// `this` is valid for writes and aligned; what it held is overwritten, not dropped.
    pub(crate) const unsafe fn write_new(this: *mut Self) {
        // SAFETY: `this` is valid for writes (the caller's contract): the address of a field
        // makes no reference to it.
        let entries = unsafe { &raw mut (*this).entries };
        // SAFETY: the entries are valid for writes, and zero bytes are `N` zero entries.
        unsafe { entries.write_bytes(0, 1) };
        // SAFETY: as for the entries.
        let len = unsafe { &raw mut (*this).len };
        // SAFETY: as for the entries.
        let floor = unsafe { &raw mut (*this).floor };
        // SAFETY: valid for writes, and holds nothing to drop.
        unsafe { len.write(0) };
        // SAFETY: as for `len`.
        unsafe { floor.write(Floor::UNKNOWN) };
    }
}

impl<const N: usize> FreeStack for InlineStack<N> {
    #[cfg(all(feature = "serde", feature = "alloc"))]
    fn with_room(_: usize) -> Self {
        Self::new()
    }

    #[inline]
    fn parts(&self) -> (&[u32], usize, usize) {
        (&self.entries, self.len, self.floor.0)
    }

    #[inline]
    fn stack(&mut self) -> StackMut<'_> {
        StackMut {
            entries: &mut self.entries,
            len: &mut self.len,
            floor: &mut self.floor,
        }
    }

    /// As a heap pool's: the floor is forgotten.
    fn view(&mut self) -> FreeCells<'_> {
        self.forget_floor();
        FreeCells::Inline {
            entries: Cell::from_mut(&mut self.entries[..]).as_slice_of_cells(),
            len: Cell::from_mut(&mut self.len),
        }
    }

    fn reserve(&mut self, total: usize) {
        debug_assert!(total <= N);
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
    /// Changes a heap pool's list in place, where taking it out of its cell and putting it back
    /// took as long as the change (a lease and its give-back twice as long).
    ///
    /// # Safety
    /// `change` does not reach `cell`.
    #[cfg(feature = "alloc")]
    #[inline]
    unsafe fn heap<R>(cell: &Cell<HeapStack>, change: impl FnOnce(&mut HeapStack) -> R) -> R {
        // SAFETY: no other reference to the list lives while `change` runs: the list is reached
        // only through these cells, on one thread (a cell is not `Sync`), and `change` does not
        // reach it again (the caller's contract).
        change(unsafe { &mut *cell.as_ptr() })
    }

    /// The slot taken next, `NIL` when none is free.
    #[inline]
    pub(crate) fn top(&self) -> u32 {
        match self {
            #[cfg(feature = "alloc")]
            // SAFETY: `top` does not reach the cell.
            Self::Heap(cell) => unsafe { Self::heap(cell, |stack| stack.top()) },
            Self::Inline { entries, len } => {
                (entries.get(len.get().wrapping_sub(1))).map_or(NIL, Cell::get)
            }
        }
    }

    /// Takes the slot at the top off the list.
    #[inline]
    pub(crate) fn pop(&self) {
        match self {
            #[cfg(feature = "alloc")]
            // SAFETY: `pop` does not reach the cell.
            Self::Heap(cell) => unsafe { Self::heap(cell, FreeStack::pop) },
            Self::Inline { len, .. } => len.set(len.get() - 1),
        }
    }

    /// Puts the slot at `index` on top of the list.
    #[inline]
    pub(crate) fn push(&self, index: usize) {
        match self {
            #[cfg(feature = "alloc")]
            // SAFETY: `push` does not reach the cell.
            Self::Heap(cell) => unsafe { Self::heap(cell, |stack| stack.push(index)) },
            Self::Inline { entries, len } => {
                #[expect(clippy::cast_possible_truncation, reason = "indices end below NIL")]
                entries[len.get()].set(index as u32);
                len.set(len.get() + 1);
            }
        }
    }

    /// [`FreeStack::push_run`], after making room for `total` entries in all (a heap pool's
    /// list, as the pool grows).
    pub(crate) fn push_run(&self, first: usize, count: usize, total: usize) {
        #[cfg(not(feature = "alloc"))]
        let _ = total;
        match self {
            #[cfg(feature = "alloc")]
            // SAFETY: `reserve` and `push_run` do not reach the cell.
            Self::Heap(cell) => unsafe {
                Self::heap(cell, |stack| {
                    stack.reserve(total);
                    stack.push_run(first, count);
                });
            },
            Self::Inline { .. } => {
                for index in (first..first + count).rev() {
                    self.push(index);
                }
            }
        }
    }
}
