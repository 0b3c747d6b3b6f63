//! What a [`Lender`](crate::Lender) sees of a pool's slots while it borrows the pool: each
//! chunk's words and bits as cells, which its leases change through `&Lender`, and its objects
//! through a pointer, as leases hold some mutably while lookups and iteration read others.
//!
//! The unsafe contract, which [`Lender`](crate::Lender) keeps: through a view, a live object is
//! only read (no lender path changes a live object: releasing and `get_mut` need `&mut Pool`,
//! which the lender holds), and an object that is not live is reached only by the one lease (or
//! `acquire` running `init`) that took its slot off the free list.

use crate::slot::state::Place;
use crate::storage::part::Places;
use core::cell::Cell;
use core::marker::PhantomData;
use core::ptr::NonNull;

/// A chunk of slots seen by a lender.
pub(crate) struct ChunkView<'a, T> {
    /// The pool-wide index of the first slot.
    base: usize,
    objects: NonNull<T>,
    places: Places<'a>,
    /// How many slots are built, for storage that builds them on first use (the rest of
    /// `places` is not in use); `None` when every slot is.
    built: Option<&'a Cell<usize>>,
    objects_borrowed: PhantomData<&'a mut [T]>,
}

impl<T> Clone for ChunkView<'_, T> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<T> Copy for ChunkView<'_, T> {}

impl<'a, T> ChunkView<'a, T> {
    /// The view of a chunk whose objects are `objects`, at most as many as `places` has slots
    /// (only the first `built` of them are initialised, when `built` is given).
    #[cfg(feature = "alloc")]
    pub(crate) fn new(
        base: usize,
        objects: &'a mut [T],
        places: Places<'a>,
        built: Option<&'a Cell<usize>>,
    ) -> Self {
        debug_assert!(built.is_some() || objects.len() == places.words().len());
        Self {
            base,
            objects: NonNull::from(objects).cast(),
            places,
            built,
            objects_borrowed: PhantomData,
        }
    }

    /// [`new`](ChunkView::new) for objects not all initialised: `objects` points to room for
    /// as many as `places` has slots, of which the first `built` are initialised.
    pub(crate) fn new_partly_built(
        base: usize,
        objects: &'a mut [core::mem::MaybeUninit<T>],
        places: Places<'a>,
        built: &'a Cell<usize>,
    ) -> Self {
        debug_assert!(objects.len() == places.words().len());
        Self {
            base,
            objects: NonNull::from(objects).cast(),
            places,
            built: Some(built),
            objects_borrowed: PhantomData,
        }
    }

    #[inline]
    pub(crate) fn base(&self) -> usize {
        self.base
    }

    /// Slots built now: those whose words are in use.
    #[inline]
    pub(crate) fn len(&self) -> usize {
        self.built.map_or(self.places.words().len(), Cell::get)
    }

    /// Raises the count of built slots to `built`, for storage that builds them on first use,
    /// once the object of each is written.
    #[inline]
    pub(crate) fn set_built(&self, built: usize) {
        let cell = self
            .built
            .expect("a view of storage that builds on first use");
        debug_assert!(built >= cell.get() && built <= self.places.words().len());
        cell.set(built);
    }

    #[inline]
    pub(crate) fn places(&self) -> Places<'a> {
        self.places
    }

    /// The place of the built slot at `local`.
    #[inline]
    pub(crate) fn place(&self, local: usize) -> Option<Place<'a>> {
        if local >= self.len() {
            return None;
        }
        self.places.get(local)
    }

    /// The live object at `local`, shared, with the slot's word; `None` unless the slot is built
    /// and live.
    #[inline]
    pub(crate) fn live(&self, local: usize) -> Option<(u64, &'a T)> {
        let word = self.place(local)?.word();
        if !crate::slot::state::is_live(word) {
            return None;
        }
        // SAFETY: the slot is built (`place` checked `local` against `len`): the pointer stays
        // in the chunk's objects.
        let object = unsafe { self.objects.add(local) };
        // SAFETY: the object is initialised, as its slot is built; it is live, and through a
        // view a live object is only read (the contract above): no `&mut` to it exists while
        // the lender does.
        let object = unsafe { object.as_ref() };
        Some((word, object))
    }

    /// The object of the built slot at `local`, for the one taker of its slot: a pointer, which
    /// [`Taken`] turns into references.
    #[inline]
    pub(crate) fn object(&self, local: usize) -> NonNull<T> {
        debug_assert!(local < self.len());
        // SAFETY: `local` is a built slot's index (the caller's `place` found it), so the
        // pointer stays in the chunk's objects.
        unsafe { self.objects.add(local) }
    }

    /// Where the object of the slot at `local`, not built yet, goes.
    #[inline]
    pub(crate) fn room(&self, local: usize) -> NonNull<T> {
        debug_assert!(local < self.places.words().len());
        // SAFETY: `local` is below the slots' count (`places` has a word for each slot the
        // storage holds, built or not), so the pointer stays in the chunk's objects.
        unsafe { self.objects.add(local) }
    }
}

/// Exclusive charge of the object of a slot taken off the free list through a lender: the object
/// of a lease, or of an `acquire` running its `init`.
pub(crate) struct Taken<'a, T> {
    object: NonNull<T>,
    borrowed: PhantomData<&'a mut T>,
}

impl<T> Taken<'_, T> {
    /// Charge of the object `object` points to.
    ///
    /// # Safety
    /// `object` is the object of a built slot of a view that was just taken off the free list
    /// (or built): nothing else reaches it until the `Taken` is gone (see the module's contract).
    #[inline]
    pub(crate) unsafe fn new(object: NonNull<T>) -> Self {
        Self {
            object,
            borrowed: PhantomData,
        }
    }

    #[inline]
    pub(crate) fn get(&self) -> &T {
        // SAFETY: the `Taken` is the only way to the object (`new`'s contract), and `&self`
        // rules out its own `&mut`.
        unsafe { self.object.as_ref() }
    }

    #[inline]
    pub(crate) fn get_mut(&mut self) -> &mut T {
        // SAFETY: the `Taken` is the only way to the object (`new`'s contract), and `&mut self`
        // makes this the only reference.
        unsafe { self.object.as_mut() }
    }
}

/// What a lender asks of the slots it views, whatever keeps them. Only this crate implements
/// it.
#[doc(hidden)]
#[allow(
    private_interfaces,
    private_bounds,
    unreachable_pub,
    reason = "the `SlotsView` trait is sealed"
)]
pub trait SlotsView<'a, T> {
    /// Every chunk the view holds, the first first: `None` where a growing pool has no chunk
    /// (yet, or any more).
    fn chunks(&self) -> &[Cell<Option<ChunkView<'a, T>>>];

    /// The chunk holding the built slot at `index`, and the index within it.
    fn find(&self, index: usize) -> Option<(ChunkView<'a, T>, usize)>;

    /// Slots the pool holds, built or to be built.
    fn capacity(&self) -> usize;

    /// The version of a retired slot.
    fn retired_at(&self) -> u32;

    /// [`Slots::build_next`](super::Slots::build_next), through the view: the chunk, and the
    /// local index and number of the slots built. The caller keeps `blank` from reaching the
    /// view again.
    fn build_next(&self, blank: impl FnOnce() -> T) -> Option<(ChunkView<'a, T>, usize, usize)>;

    /// [`Slots::grow`](super::Slots::grow), through the view, as `build_next` returns. The
    /// caller keeps `blank` from reaching the view again.
    fn grow(
        &self,
        limit: usize,
        blank: impl FnMut() -> T,
    ) -> Option<(ChunkView<'a, T>, usize, usize)>;
}

/// The chunks of a lender's view, each read when asked for, behind a lifetime the iterators can
/// shorten (a table of cells cannot be: `Cell` is invariant).
pub(crate) trait ChunkTable<'l, T> {
    /// How many places the table has.
    fn places(&self) -> usize;

    /// The chunk at `k`, if there is one (yet, or still).
    fn chunk(&self, k: usize) -> Option<ChunkView<'l, T>>;
}
