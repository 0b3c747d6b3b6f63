//! What a [`Lender`](crate::Lender) sees of a pool's slots while it borrows the pool: each
//! chunk's words and bits as cells, which its leases change through `&Lender`, and its objects
//! through a pointer, as leases hold some mutably while lookups and iteration read others.
//!
//! The unsafe contract, which [`Lender`](crate::Lender) keeps: through a view, a live object is
//! only read (no lender path changes a live object: releasing and `get_mut` need `&mut Pool`,
//! which the lender holds), and an object that is not live is reached only by the one lease (or
//! `acquire` running `init`) that took its slot off the free list.
//!
//! A lender keeps a pointer to the slots and finds a chunk when it needs it, so that it costs
//! nothing to make. What it finds a chunk with never covers an object, a word or a bit that a
//! lease may hold: a reference to the storage's headers (a chunk's vectors, the table of
//! positions) lives within one call, with no user code in it, and a chunk's buffers are
//! reached only through pointers (`Vec::as_mut_ptr`, a field's address) and the cells and
//! references made from them here, each of one slot's object or of the words and bits as
//! cells. Chunks are only added while a lender lives, and never move.

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
    objects_borrowed: PhantomData<&'a mut [T]>,
}

impl<T> Clone for ChunkView<'_, T> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<T> Copy for ChunkView<'_, T> {}

impl<'a, T> ChunkView<'a, T> {
    /// The view of a chunk of `len` slots: room for `len` objects at `objects`, `len` words at
    /// `words`, a bit for each at `bits`. A slot whose word says it is not live may have no
    /// object yet (storage that builds on first use); a live one has one.
    ///
    /// # Safety
    /// For `'a` the three live and stay put, and are reached only through views, by the
    /// contract above.
    #[inline]
    pub(crate) unsafe fn new(
        base: usize,
        objects: *mut T,
        words: *mut u64,
        bits: *mut u64,
        len: usize,
    ) -> Self {
        let words = core::ptr::slice_from_raw_parts(words.cast::<Cell<u64>>(), len);
        let bits = core::ptr::slice_from_raw_parts(
            bits.cast::<Cell<u64>>(),
            crate::slot::occupancy::words_for(len),
        );
        // SAFETY: `len` words live and stay for `'a` (the caller's contract); a `Cell<u64>` has
        // the layout of a `u64`, and the words are changed only through cells meanwhile.
        let words = unsafe { &*words };
        // SAFETY: as for the words.
        let bits = unsafe { &*bits };
        // SAFETY: the objects' room lives (the caller's contract), so its address is not null.
        let objects = unsafe { NonNull::new_unchecked(objects) };
        Self {
            base,
            objects,
            places: Places::of_cells(words, bits),
            objects_borrowed: PhantomData,
        }
    }

    #[inline]
    pub(crate) fn base(&self) -> usize {
        self.base
    }

    #[inline]
    pub(crate) fn places(&self) -> Places<'a> {
        self.places
    }

    /// The place of the slot at `local`.
    #[inline]
    pub(crate) fn place(&self, local: usize) -> Option<Place<'a>> {
        self.places.get(local)
    }

    /// The live object at `local`, shared, with the slot's word; `None` unless the slot is
    /// live.
    #[inline]
    pub(crate) fn live(&self, local: usize) -> Option<(u64, &'a T)> {
        let word = self.places.words().get(local)?.get();
        if !crate::slot::state::is_live(word) {
            return None;
        }
        // SAFETY: `local` has a word, so it is a slot of the chunk: the pointer stays in the
        // chunk's objects.
        let object = unsafe { self.objects.add(local) };
        // SAFETY: the slot is live, so its object is built; through a view a live object is
        // only read (the contract above): no `&mut` to it exists while the lender does.
        let object = unsafe { object.as_ref() };
        Some((word, object))
    }

    /// Where the object of the slot at `local` is (or goes, if it is not built yet), for the
    /// one taker of its slot: a pointer, which [`Taken`] turns into references.
    ///
    /// # Panics
    /// If `local` is not a slot of the chunk.
    #[inline]
    pub(crate) fn object(&self, local: usize) -> NonNull<T> {
        assert!(local < self.places.words().len(), "a slot of the chunk");
        // SAFETY: `local` is a slot of the chunk, so the pointer stays in its objects.
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
    /// How many places for chunks the view has: the first chunk's, then a growing pool's
    /// positions (more once it has first grown).
    fn places(&self) -> usize;

    /// The chunk at place `k`, if there is one (yet, or still).
    fn chunk(&self, k: usize) -> Option<ChunkView<'a, T>>;

    /// The chunk holding the slot at `index`, and the index within it.
    fn find(&self, index: usize) -> Option<(ChunkView<'a, T>, usize)>;

    /// Slots the pool holds, built or to be built.
    fn capacity(&self) -> usize;

    /// The version of a retired slot.
    fn retired_at(&self) -> u32;

    /// [`Slots::build_next`](super::Slots::build_next), through the view: the chunk, and the
    /// local index and number of the slots built. The caller keeps `blank` from reaching the
    /// view again.
    fn build_next(&self, blank: impl FnOnce() -> T) -> Option<(ChunkView<'a, T>, usize, usize)>;

    /// Whether [`build_next`](SlotsView::build_next) may build a slot: false for storage that
    /// builds every slot up front.
    #[inline]
    fn may_build(&self) -> bool {
        true
    }

    /// [`Slots::grow`](super::Slots::grow), through the view, as `build_next` returns. The
    /// caller keeps `blank` from reaching the view again.
    fn grow(
        &self,
        limit: usize,
        blank: impl FnMut() -> T,
    ) -> Option<(ChunkView<'a, T>, usize, usize)>;
}

/// The chunks of a lender's view, each found when asked for, behind a lifetime the iterators
/// can shorten, and with the storage out of the type (a lender's walks are of `T` alone).
pub(crate) trait ChunkTable<'l, T> {
    /// How many places the table has.
    fn places(&self) -> usize;

    /// The chunk at `k`, if there is one (yet, or still).
    fn chunk(&self, k: usize) -> Option<ChunkView<'l, T>>;
}
