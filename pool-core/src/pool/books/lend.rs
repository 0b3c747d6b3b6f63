//! The books seen through a [`Lender`](crate::Lender): the slots' views, and the free list and
//! counts as cells, which leases change through `&`.

use super::Books;
use super::counts::Counts;
use crate::pool::lease::Lease;
use crate::pooled::blank;
use crate::slot::NIL;
use crate::slot::free_list::{FreeCells, FreeStack};
use crate::slot::state::Place;
use crate::storage::view::{ChunkTable, ChunkView, SlotsView, Taken};
use crate::storage::{Slots, Storage};
use crate::{Handle, Pooled, Stats};
use core::cell::Cell;
use scopeguard::ScopeGuard;

/// What a lease changes as it goes: the free list and the counts.
pub(crate) struct Ledger<'a> {
    free: FreeCells<'a>,
    counts: &'a Cell<Counts>,
    /// The version at which a slot retires.
    retired_at: u32,
}

impl Ledger<'_> {
    /// Gives a lent slot, at `index`, its object reset, back to the free list.
    #[inline]
    pub(crate) fn give_back(&self, index: usize, place: &Place<'_>) {
        // The lease's end and the release apart, the word's store between: made one change,
        // the two counts side by side were read in one 16-byte load, which waited for the
        // lend's 8-byte store of one of them to land (a store that cannot be forwarded), and
        // a lease through a fresh lender took 3.4 x a create and release, not 1.2 x.
        Counts::update(self.counts, Counts::keep_lease);
        place.unlend(index);
        Counts::update(self.counts, Counts::release);
        self.free.push(index);
    }

    /// Takes a lent slot whose object's reset panicked out of use: no one is to see the object
    /// half reset, and no handle names it. Counted as given back, and retired.
    pub(crate) fn retire(&self, place: &Place<'_>) {
        Counts::update(self.counts, |counts| {
            counts.return_lease();
            counts.retire();
        });
        place.retire(self.retired_at);
    }

    /// Makes the lent slot at `index` live, and returns its handle.
    pub(crate) fn keep<T>(&self, index: usize, place: &Place<'_>) -> Handle<T> {
        let handle = place.next_handle_lent(index);
        place.fill(handle);
        Counts::update(self.counts, Counts::keep_lease);
        handle
    }
}

/// A pool's books, seen by a lender for as long as it borrows them.
pub(crate) struct BooksView<'a, T: 'a, B: Storage + 'a> {
    slots: <B::Slots<T> as Slots<T>>::View<'a>,
    ledger: Ledger<'a>,
    /// Set while blank objects are built through this view, whose code (a field's `Default`)
    /// may reach the lender again: it may lend and give back, but not build again.
    building: Cell<bool>,
}

impl<T: Pooled, B: Storage> Books<T, B> {
    /// The books as a lender sees them.
    pub(crate) fn view(&mut self) -> BooksView<'_, T, B> {
        // From the view: storage that builds on first use draws its offset as the view is made.
        let slots = self.slots.view();
        let retired_at = slots.retired_at();
        BooksView {
            slots,
            ledger: Ledger {
                free: self.free.view(),
                counts: Cell::from_mut(&mut self.counts),
                retired_at,
            },
            building: Cell::new(false),
        }
    }
}

impl<'a, T: Pooled, B: Storage> BooksView<'a, T, B> {
    #[inline]
    pub(crate) fn capacity(&self) -> usize {
        self.slots.capacity()
    }

    #[inline]
    pub(crate) fn counts(&self) -> Counts {
        self.ledger.counts.get()
    }

    pub(crate) fn stats(&self) -> Stats {
        let places = 0..self.slots.places();
        let chunks = places.filter(|&k| self.slots.chunk(k).is_some()).count();
        super::stats(&self.counts(), self.capacity(), chunks)
    }

    /// Whether no slot is free, built or to be built.
    #[inline]
    pub(crate) fn is_full(&self) -> bool {
        let counts = self.counts();
        counts.in_use() + counts.retired() >= self.capacity()
    }

    /// The live object `handle` names.
    #[inline]
    pub(crate) fn get(&self, handle: Handle<T>) -> Option<&T> {
        let (chunk, local) = self.slots.find(handle.index())?;
        let (word, object) = chunk.live(local)?;
        (word == handle.to_bits()).then_some(object)
    }

    /// Counts a refusal.
    #[cold]
    pub(crate) fn fail(&self) {
        Counts::update(self.ledger.counts, Counts::fail);
    }

    /// Lends the object of a free slot, set up by `init`; `None` when no slot is free. Where the
    /// free list is empty, it builds a slot (storage that builds on first use) or grows the pool
    /// while it holds fewer than `grow_to` slots.
    pub(crate) fn lend(
        &self,
        grow_to: Option<usize>,
        init: impl FnOnce(&mut T),
    ) -> Option<Lease<'_, T>> {
        self.lend_at(grow_to, |_, object| init(object))
    }

    /// [`lend`](BooksView::lend), with `init` seeing the index of the slot it fills.
    #[inline]
    pub(crate) fn lend_at(
        &self,
        grow_to: Option<usize>,
        init: impl FnOnce(usize, &mut T),
    ) -> Option<Lease<'_, T>> {
        loop {
            let head = self.ledger.free.top();
            if head != NIL {
                let index = head as usize;
                let (chunk, local) =
                    (self.slots.find(index)).expect("free-list indices are in the pool");
                let place = chunk.place(local).expect("free-list indices are built");
                self.ledger.free.pop();
                place.lend();
                let high_water = Counts::update(self.ledger.counts, Counts::lend);
                // SAFETY: the slot was just taken off the free list, so no lease or `acquire`
                // holds its object, and it is not live, so no lookup or iteration reaches it:
                // this `Taken` is the only way to it until it is given back or made live.
                let taken = unsafe { Taken::new(chunk.object(local)) };
                return Some(self.lend_slot(index, place, taken, high_water, init));
            }
            // Not even called where nothing can be added (a heap pool that does not grow): a
            // call out of line takes the view's address, which keeps it in memory, not in
            // registers, for the whole lend (a lease through a fresh lender: 94 instructions,
            // not 55, whenever the compiler did not inline the call).
            if !(grow_to.is_some() || self.slots.may_build()) || !self.add_free_slots(grow_to) {
                return None;
            }
        }
    }

    /// Lends the object of the slot just taken, set up by `init`. `init` may acquire again (the
    /// slot in hand is counted, so a growing pool grows). If the reset or `init` unwinds, the
    /// slot goes back on the free list and the count is undone: after `init`, reset; after the
    /// reset, as it is, as its plain data is reset again when the slot is next taken.
    #[inline]
    fn lend_slot(
        &self,
        index: usize,
        place: Place<'a>,
        mut taken: Taken<'a, T>,
        high_water: usize,
        init: impl FnOnce(usize, &mut T),
    ) -> Lease<'_, T> {
        let ledger = &self.ledger;
        let give_back = scopeguard::guard((), |()| {
            Counts::update(ledger.counts, |counts| counts.unlend(high_water));
            place.unlend(index);
            ledger.free.push(index);
        });
        taken.get_mut().reset_at_reuse();
        let mut object = scopeguard::guard(taken.get_mut(), T::reset_at_release);
        init(index, &mut object);
        ScopeGuard::into_inner(object);
        ScopeGuard::into_inner(give_back);
        Lease::new(taken, index, place, &self.ledger)
    }

    /// Puts more free slots on the list: builds one (storage that builds on first use), or grows
    /// the pool while it holds fewer than `grow_to`. False when it cannot.
    ///
    /// # Panics
    /// When the blank objects' code (a field's `Default`) asks this lender for slots while it
    /// builds them.
    #[cold]
    fn add_free_slots(&self, grow_to: Option<usize>) -> bool {
        let _building = self.build();
        let built = match self.slots.build_next(blank::<T>) {
            Some(built) => Some(built),
            None => grow_to.and_then(|limit| self.slots.grow(limit, blank::<T>)),
        };
        self.free_built(built)
    }

    /// Marks the view as building blank objects until the guard drops.
    ///
    /// # Panics
    /// When it already is: see [`add_free_slots`](BooksView::add_free_slots).
    fn build(&self) -> ScopeGuard<&Cell<bool>, fn(&Cell<bool>)> {
        assert!(
            !self.building.replace(true),
            "a pool was asked for a slot while it was building blank objects: the `Default` or \
             `reset_with` of a pooled field must not create or acquire objects of its own pool"
        );
        let done: fn(&Cell<bool>) = |building| building.set(false);
        scopeguard::guard(&self.building, done)
    }

    /// Puts the slots just built, if any, on the free list.
    fn free_built(&self, built: Option<(ChunkView<'a, T>, usize, usize)>) -> bool {
        let Some((chunk, local, len)) = built else {
            return false;
        };
        (self.ledger.free).push_run(chunk.base() + local, len, self.slots.capacity());
        true
    }

    /// Whether a slot is on the free list.
    #[inline]
    pub(crate) fn has_free(&self) -> bool {
        self.ledger.free.top() != NIL
    }
}

#[cfg(feature = "alloc")]
impl<T: Pooled> BooksView<'_, T, crate::Heap> {
    /// Grows the pool by a chunk of slots while it holds fewer than `limit`, after `build` has
    /// been given the chunk's first index and length: so that what the caller keeps beside
    /// each slot is built before any slot of the chunk can be taken, and if `build` panics,
    /// the pool has not grown. False when it cannot grow.
    ///
    /// # Panics
    /// As [`add_free_slots`](BooksView::add_free_slots).
    #[cold]
    pub(crate) fn grow_with(&self, limit: usize, build: impl FnOnce(usize, usize)) -> bool {
        let _building = self.build();
        let Some((base, len)) = self.slots.next_chunk(limit) else {
            return false;
        };
        build(base, len);
        let grown = self.slots.grow(limit, blank::<T>);
        debug_assert!(
            grown.is_some_and(|(chunk, local, n)| (chunk.base() + local, n) == (base, len))
        );
        self.free_built(grown)
    }
}

impl<'l, 'a: 'l, T: Pooled, B: Storage> ChunkTable<'l, T> for BooksView<'a, T, B> {
    #[inline]
    fn places(&self) -> usize {
        self.slots.places()
    }

    #[inline]
    fn chunk(&self, k: usize) -> Option<ChunkView<'l, T>> {
        let chunk: ChunkView<'a, T> = self.slots.chunk(k)?;
        Some(chunk)
    }
}
