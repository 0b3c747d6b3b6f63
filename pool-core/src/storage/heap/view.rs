use super::HeapSlots;
use super::chunk::Chunk;
use crate::storage::slots::Slots;
use crate::storage::view::{ChunkView, SlotsView};
use core::marker::PhantomData;
use core::ptr::NonNull;

/// What a lender sees of a heap pool's slots: a pointer to them, through which it finds a chunk
/// when it needs one (storage/view.rs says what it may make of it), and grows the pool while
/// its leases hold objects of the chunks there are.
pub struct HeapView<'a, T> {
    slots: NonNull<HeapSlots<T>>,
    borrowed: PhantomData<&'a mut HeapSlots<T>>,
}

impl<'a, T> HeapView<'a, T> {
    pub(crate) fn new(slots: &'a mut HeapSlots<T>) -> Self {
        Self {
            slots: NonNull::from(slots),
            borrowed: PhantomData,
        }
    }

    /// Where [`grow`](SlotsView::grow) would put the next chunk: its first index and length.
    pub(crate) fn next_chunk(&self, limit: usize) -> Option<(usize, usize)> {
        // SAFETY: for this statement alone.
        let (_, base, len, _) = unsafe { headers(self.slots) }.next_chunk(limit)?;
        Some((base, len))
    }
}

/// The headers of the slots `slots` points to (each chunk's vectors, the table of positions),
/// for one step of a view's call.
///
/// # Safety
/// `slots` is a view's, which borrows them mutably; no other reference to them lives, and no
/// user code runs, while the one returned does.
#[inline]
unsafe fn headers<'h, T>(slots: NonNull<HeapSlots<T>>) -> &'h mut HeapSlots<T> {
    // SAFETY: the view borrows the slots mutably, and the reference is the only one (the
    // caller's contract). It covers the headers alone, which no lease or walk holds: the
    // objects, words and bits are the vectors' allocations.
    unsafe { &mut *slots.as_ptr() }
}

/// A chunk's view for a lender.
fn view<'a, T>(chunk: &mut Chunk<T>) -> ChunkView<'a, T> {
    // SAFETY: a chunk's buffers stay put while a lender borrows the slots (chunks are only
    // added meanwhile, and a `Vec`'s buffer does not move with it), reached only through views.
    unsafe { chunk.view() }
}

impl<'a, T> SlotsView<'a, T> for HeapView<'a, T> {
    #[inline]
    fn places(&self) -> usize {
        // SAFETY: for this statement alone.
        unsafe { headers(self.slots) }.places()
    }

    #[inline]
    fn chunk(&self, k: usize) -> Option<ChunkView<'a, T>> {
        // SAFETY: for this statement alone.
        unsafe { headers(self.slots) }.chunk_mut(k).map(view)
    }

    #[inline]
    fn find(&self, index: usize) -> Option<(ChunkView<'a, T>, usize)> {
        // SAFETY: for this call alone, which runs no user code.
        let slots = unsafe { headers(self.slots) };
        let (k, local) = slots.place_of(index);
        Some((view(slots.chunk_mut(k)?), local))
    }

    #[inline]
    fn capacity(&self) -> usize {
        // SAFETY: for this statement alone.
        unsafe { headers(self.slots) }.capacity()
    }

    #[inline]
    fn retired_at(&self) -> u32 {
        // SAFETY: for this statement alone.
        unsafe { headers(self.slots) }.retired_at
    }

    #[inline]
    fn build_next(&self, _: impl FnOnce() -> T) -> Option<(ChunkView<'a, T>, usize, usize)> {
        None
    }

    #[inline]
    fn may_build(&self) -> bool {
        false
    }

    /// `HeapSlots::grow`, through the view: no reference to the headers lives while `blank`,
    /// user code, builds the chunk, which may reach the lender.
    fn grow(
        &self,
        limit: usize,
        blank: impl FnMut() -> T,
    ) -> Option<(ChunkView<'a, T>, usize, usize)> {
        // SAFETY: for this statement alone.
        let (k, base, len, version) = unsafe { headers(self.slots) }.next_chunk(limit)?;
        let chunk = Chunk::build(base, len, version, blank);
        // SAFETY: for the rest of the call, which runs no user code.
        let chunk = unsafe { headers(self.slots) }.grown.install(k, chunk);
        Some((view(chunk), 0, len))
    }
}
