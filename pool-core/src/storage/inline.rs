use super::part::{Part, PartMut};
use super::slots::{Chunks, ChunksMut, Slots, no_rest, no_rest_mut};
use crate::limits::{self, FIRST_VERSION};
use crate::slot::free_list::FreeList;
use crate::slot::occupancy::Bit;
use crate::slot::offset;
use crate::slot::shared::{SharedU32, SharedU64, SharedUsize};
use crate::slot::state::Place;
use crate::slot::{NIL, Slot};
use crate::storage::lock::{Builder, Claim, Lock};
use core::cell::UnsafeCell;
use core::iter;
use core::mem::MaybeUninit;
use core::ptr;

/// Slots inside the pool itself: `N` of them, with `W` words of occupancy bits, where `W` must be
/// `N.div_ceil(64)` (stable Rust cannot compute an array length from a generic constant, so the
/// derive computes it). No allocation at all: an inline pool works in `#![no_std]` code without
/// an allocator, and its `const fn new()` lets it live in a `static` or on the stack.
/// `#[pool(size = N, storage = inline)]`.
///
/// `new()` builds nothing: a slot's blank object is built the first time the slot is needed (by
/// `create`, `acquire` or [`prefill`](crate::Pool::prefill)), at a watermark that only rises,
/// and reused from then on, as on the heap.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Inline<const N: usize, const W: usize>;

/// An inline pool's slots: the first `built` are built, the rest not yet.
#[doc(hidden)]
pub struct InlineSlots<T, const N: usize, const W: usize> {
    // Invariant: the first `built` elements are initialised, and only they; `built` only rises
    // (the slots are dropped with the storage). In a cell, for slots built through `&Pool` by a
    // lease, beyond every slot a reference reaches; a slot is written and `built` raised under
    // the pool's lock, by the one thread building.
    slots: UnsafeCell<[MaybeUninit<Slot<T>>; N]>,
    words: [SharedU64; W],
    built: SharedUsize,
    /// Where this pool's versions count from, drawn when the first slot is built (`new` is
    /// `const`, and so cannot draw it).
    offset: SharedU32,
    /// The thread building a blank object, to let one thread build at a time and to refuse
    /// building another from its code.
    builder: Builder,
}

/// What [`InlineSlots::build`] did.
enum Built {
    /// Built the slot at the watermark.
    Slot,
    /// Nothing: every slot is built.
    Full,
    /// Nothing: another thread was building; it is done now.
    Waited,
}

impl<T, const N: usize, const W: usize> InlineSlots<T, N, W> {
    /// `W` words of occupancy bits, one bit per slot: what `Inline<N, W>` asks, checked
    /// whenever the storage is made (by `Pool::new` or a load), since the hot paths trust it.
    const WORDS_COVER_SLOTS: () = assert!(
        W == N.div_ceil(64),
        "`Inline<N, W>`: `W` must be `N.div_ceil(64)`, the number of 64-bit words of \
         occupancy bits for `N` slots (the derive computes it)"
    );

    #[cfg(not(loom))]
    pub(crate) const fn new() -> Self {
        let () = Self::WORDS_COVER_SLOTS;
        Self {
            slots: UnsafeCell::new([const { MaybeUninit::uninit() }; N]),
            words: [const { SharedU64::new(0) }; W],
            built: SharedUsize::new(0),
            offset: SharedU32::new(0),
            builder: Builder::new(),
        }
    }

    /// loom's atomics are not `const`.
    #[cfg(loom)]
    pub(crate) fn new() -> Self {
        let () = Self::WORDS_COVER_SLOTS;
        Self {
            slots: UnsafeCell::new([const { MaybeUninit::uninit() }; N]),
            words: core::array::from_fn(|_| SharedU64::new(0)),
            built: SharedUsize::new(0),
            offset: SharedU32::new(0),
            builder: Builder::new(),
        }
    }

    #[cfg(all(feature = "serde", feature = "alloc"))]
    pub(crate) fn offset(&self) -> u32 {
        self.offset.get()
    }

    #[cfg(all(feature = "serde", feature = "alloc"))]
    pub(crate) fn built_len(&self) -> usize {
        self.built.get()
    }

    #[cfg(all(feature = "serde", feature = "alloc"))]
    /// Storage with `slots` built, in order, their versions counted from `offset`, and the bits
    /// of the live ones set; the first error `slots` yields. The caller gives at most `N`.
    pub(crate) fn from_slots<E>(
        offset: u32,
        slots: impl IntoIterator<Item = Result<Slot<T>, E>>,
    ) -> Result<Self, E> {
        let mut storage = Self::new();
        storage.offset.store_mut(offset);
        for (index, slot) in slots.into_iter().take(N).enumerate() {
            let slot = slot?;
            Place::new(&slot, Bit::new(&storage.words, index)).restore();
            storage.slots.get_mut()[index].write(slot);
            storage.built.store_mut(index + 1);
        }
        Ok(storage)
    }

    /// The slots built so far.
    /// The occupancy bit of the built slot at `index`.
    ///
    /// # Safety
    /// `index` must be below `N`, as a built slot's is.
    #[inline]
    unsafe fn bit(words: &[SharedU64; W], index: usize) -> Bit<'_> {
        debug_assert!(index < N);
        // SAFETY: `index < N` (the caller's promise), and `W` words have a bit for each of `N`
        // slots (`WORDS_COVER_SLOTS`, checked when the storage is made).
        unsafe { Bit::new_unchecked(words, index) }
    }

    #[inline]
    fn built(&self) -> &[Slot<T>] {
        let first = self.slots.get().cast::<Slot<T>>();
        // SAFETY: the first `built` elements are initialised (the invariant above), and the
        // array is never written below `built` through `&self`, nor moved while borrowed.
        unsafe { &*ptr::slice_from_raw_parts(first, self.built.get()) }
    }

    /// The slots built so far, mutably, beside the occupancy words.
    #[inline]
    fn built_mut(&mut self) -> (&mut [Slot<T>], &[SharedU64; W]) {
        let built = self.built.load_mut();
        let first = self.slots.get_mut().as_mut_ptr().cast::<Slot<T>>();
        // SAFETY: the first `built` elements are initialised (the invariant above), and
        // `&mut self` makes the borrow exclusive.
        let slots = unsafe { &mut *ptr::slice_from_raw_parts_mut(first, built) };
        (slots, &self.words)
    }

    /// Builds the slot at the watermark from `blank` and raises the watermark, then hands the
    /// slot and its index to `place`, under `lock`. Nothing changes before `blank` returns, so if
    /// it panics the storage is as it was. One thread builds at a time: while another builds,
    /// this one waits for it.
    ///
    /// # Panics
    /// When `blank` builds a slot of this storage itself (a `Default` that reaches the pool).
    #[cold]
    fn build(
        &self,
        lock: &Lock,
        blank: impl FnOnce() -> T,
        place: impl FnOnce(usize, &Slot<T>),
    ) -> Built {
        if self.built.get() >= N {
            return Built::Full;
        }
        let _building = match self.builder.claim() {
            Claim::Claimed(building) => building,
            Claim::Waited => return Built::Waited,
            Claim::Reentered => panic!(
                "an inline pool was asked for a slot while it was building a blank object: the \
                 `Default` or `reset_with` of a pooled field must not create or acquire objects \
                 of its own pool"
            ),
        };
        let index = self.built.get();
        if index >= N {
            return Built::Full;
        }
        let value = blank();
        let _locked = lock.lock();
        if index == 0 {
            self.offset.set(offset::next());
        }
        let slot = Slot::new(value, self.offset.get().wrapping_add(FIRST_VERSION), NIL);
        let at = self.slots.get().cast::<Slot<T>>().wrapping_add(index);
        // SAFETY: `index < N`, so `at` is in the array; it is past every built slot, so no
        // reference reaches it, and it is uninitialised, so nothing is overwritten unread. Only
        // the thread holding the claim to build writes here.
        unsafe { at.write(slot) };
        self.built.set(index + 1);
        place(index, &self.built()[index]);
        Built::Slot
    }

    /// Builds every slot not built yet, threading them into `free` in index order after the
    /// last one built, as a heap pool's are; for a pool that wants every blank object built
    /// before the first `create`.
    pub(crate) fn build_all(&self, free: &FreeList, lock: &Lock, mut blank: impl FnMut() -> T) {
        let mut last: Option<usize> = None;
        loop {
            let place = |index: usize, slot: &Slot<T>| {
                match last.and_then(|last| self.built().get(last)) {
                    Some(before) => free.insert_after(before, index, slot),
                    None => free.push(index, slot),
                }
                last = Some(index);
            };
            match self.build(lock, &mut blank, place) {
                Built::Slot | Built::Waited => {}
                Built::Full => return,
            }
        }
    }
}

impl<T, const N: usize, const W: usize> Slots<T> for InlineSlots<T, N, W> {
    #[inline]
    fn retired_at(&self) -> u32 {
        limits::retired_at(self.offset.get())
    }

    #[inline]
    fn capacity(&self) -> usize {
        N
    }

    fn chunk_count(&self) -> usize {
        1
    }

    #[inline]
    fn slot(&self, index: usize) -> Option<&Slot<T>> {
        self.built().get(index)
    }

    #[inline]
    fn slot_with_bit(&self, index: usize) -> Option<(&Slot<T>, Bit<'_>)> {
        let slot = self.built().get(index)?;
        // SAFETY: `index` is a built slot's, so below `N`.
        let bit = unsafe { Self::bit(&self.words, index) };
        Some((slot, bit))
    }

    #[inline]
    fn first_slot_mut(&mut self, index: usize) -> Option<(&mut Slot<T>, Bit<'_>)> {
        self.slot_mut(index)
    }

    #[inline]
    fn slot_mut(&mut self, index: usize) -> Option<(&mut Slot<T>, Bit<'_>)> {
        let (slots, words) = self.built_mut();
        let slot = slots.get_mut(index)?;
        // SAFETY: `index` is a built slot's, so below `N`.
        let bit = unsafe { Self::bit(words, index) };
        Some((slot, bit))
    }

    #[inline]
    fn chunks(&self) -> Chunks<'_, T> {
        let part = Part {
            base: 0,
            slots: self.built(),
            words: &self.words,
        };
        iter::once(part).chain(no_rest())
    }

    #[inline]
    fn chunks_mut(&mut self) -> ChunksMut<'_, T> {
        let (slots, words) = self.built_mut();
        let part = PartMut {
            base: 0,
            slots,
            words,
        };
        iter::once(part).chain(no_rest_mut())
    }

    #[cfg(feature = "rayon")]
    fn parts(&self) -> (Part<'_, T>, crate::storage::slots::Rest<'_, T>) {
        let part = Part {
            base: 0,
            slots: self.built(),
            words: &self.words,
        };
        (part, no_rest())
    }

    #[cfg(feature = "rayon")]
    fn parts_mut(&mut self) -> (PartMut<'_, T>, crate::storage::slots::RestMut<'_, T>) {
        let (slots, words) = self.built_mut();
        let part = PartMut {
            base: 0,
            slots,
            words,
        };
        (part, no_rest_mut())
    }

    #[cold]
    fn build_next(&self, free: &FreeList, lock: &Lock, blank: impl FnOnce() -> T) -> bool {
        match self.build(lock, blank, |index, slot| free.push(index, slot)) {
            Built::Slot | Built::Waited => true,
            Built::Full => false,
        }
    }

    fn map_slots(&self, mut slot: impl FnMut(usize, &Slot<T>) -> Slot<T>) -> Self {
        let mut copy = Self::new();
        copy.offset.store_mut(self.offset.get());
        for (index, here) in self.built().iter().enumerate() {
            // The bits from the new slots: `slot` runs user code (`Clone`), and other threads may
            // make slots here live meanwhile.
            let slot = slot(index, here);
            Place::new(&slot, Bit::new(&copy.words, index)).restore();
            copy.slots.get_mut()[index].write(slot);
            // One at a time, so that if `slot` panics the copy drops what it built.
            copy.built.store_mut(index + 1);
        }
        copy
    }

    fn check_layout(&self) -> Result<(), &'static str> {
        if self.built.get() > N {
            return Err("more slots built than an inline pool holds");
        }
        Ok(())
    }

    #[cfg(test)]
    fn version_of(&self, relative: u32) -> u32 {
        self.offset.get().wrapping_add(relative)
    }
}

impl<T, const N: usize, const W: usize> Drop for InlineSlots<T, N, W> {
    fn drop(&mut self) {
        let (built, _) = self.built_mut();
        // SAFETY: the built slots are initialised and dropped only here, once; the storage is
        // not used after.
        unsafe { ptr::drop_in_place(built) };
    }
}
