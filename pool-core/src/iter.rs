use crate::Handle;
use crate::occupancy::{Indices, Occupancy};
use crate::slot::Slot;
use crate::storage::{Chunk, Chunks, ChunksMut};
use core::iter::FusedIterator;
use core::ops::Deref;
use core::slice;

/// The live slots of one chunk, with their pool-wide indices.
struct Walk<'a, S> {
    base: usize,
    slots: S,
    /// The index within the chunk of the slot `slots` yields next.
    position: usize,
    occupancy: &'a Occupancy,
    maybe_live: Indices<'a>,
}

impl<'a, S, T> Walk<'a, S>
where
    S: Iterator,
    S::Item: Deref<Target = Slot<T>>,
{
    fn new(base: usize, slots: S, occupancy: &'a Occupancy) -> Self {
        Self {
            base,
            slots,
            position: 0,
            occupancy,
            maybe_live: occupancy.indices(),
        }
    }

    /// The next live slot, clearing the stale bits of released slots on the way.
    #[inline]
    fn next(&mut self) -> Option<(usize, S::Item)> {
        loop {
            let local = self.maybe_live.next()?;
            let slot = self.slots.nth(local - self.position)?;
            self.position = local + 1;
            if slot.is_live() {
                return Some((self.base + local, slot));
            }
            self.occupancy.remove(local);
        }
    }
}

/// The live objects of a pool with their handles; see [`Pool::iter`](crate::Pool::iter).
///
/// It borrows the pool shared, so leases may turn into handles while it runs
/// ([`Lease::into_handle`](crate::Lease::into_handle)); it yields every object live when it
/// started, and perhaps some made live since. Its length is therefore known only from below, and
/// it is not an `ExactSizeIterator`: [`Pool::len`](crate::Pool::len) is exact.
pub struct Iter<'a, T> {
    chunks: Chunks<'a, T>,
    walk: Walk<'a, slice::Iter<'a, Slot<T>>>,
    /// Objects live at the start and not yet passed, at least: none can stop being live under
    /// `&Pool`.
    remaining: usize,
}

impl<'a, T> Iter<'a, T> {
    pub(crate) fn new(mut chunks: Chunks<'a, T>, len: usize) -> Self {
        let first = chunks.next().expect("a pool has a first chunk");
        Self {
            walk: Self::walk(first),
            chunks,
            remaining: len,
        }
    }

    fn walk(chunk: &'a Chunk<T>) -> Walk<'a, slice::Iter<'a, Slot<T>>> {
        Walk::new(chunk.base, chunk.slots.iter(), &chunk.occupancy)
    }
}

impl<'a, T> Iterator for Iter<'a, T> {
    type Item = (Handle<T>, &'a T);

    #[inline]
    fn next(&mut self) -> Option<Self::Item> {
        loop {
            if let Some((index, slot)) = self.walk.next() {
                self.remaining = self.remaining.saturating_sub(1);
                // SAFETY: `Walk` yields only slots marked live, and the iterator borrows the pool
                // shared: live objects are mutated only through `&mut Pool`.
                return Some((slot.handle(index), unsafe { slot.value() }));
            }
            self.walk = Self::walk(self.chunks.next()?);
        }
    }

    #[inline]
    fn size_hint(&self) -> (usize, Option<usize>) {
        (self.remaining, None)
    }
}

impl<T> FusedIterator for Iter<'_, T> {}

/// The live objects of a pool with their handles, mutably; see
/// [`Pool::iter_mut`](crate::Pool::iter_mut).
pub struct IterMut<'a, T> {
    chunks: ChunksMut<'a, T>,
    walk: Walk<'a, slice::IterMut<'a, Slot<T>>>,
    remaining: usize,
}

impl<'a, T> IterMut<'a, T> {
    pub(crate) fn new(mut chunks: ChunksMut<'a, T>, len: usize) -> Self {
        let first = chunks.next().expect("a pool has a first chunk");
        Self {
            walk: Self::walk(first),
            chunks,
            remaining: len,
        }
    }

    fn walk(chunk: &'a mut Chunk<T>) -> Walk<'a, slice::IterMut<'a, Slot<T>>> {
        let Chunk {
            base,
            slots,
            occupancy,
        } = chunk;
        Walk::new(*base, slots.iter_mut(), occupancy)
    }
}

impl<'a, T> Iterator for IterMut<'a, T> {
    type Item = (Handle<T>, &'a mut T);

    #[inline]
    fn next(&mut self) -> Option<Self::Item> {
        loop {
            if let Some((index, slot)) = self.walk.next() {
                self.remaining -= 1;
                return Some((slot.handle(index), slot.value_mut()));
            }
            self.walk = Self::walk(self.chunks.next()?);
        }
    }

    #[inline]
    fn size_hint(&self) -> (usize, Option<usize>) {
        (self.remaining, Some(self.remaining))
    }
}

impl<T> ExactSizeIterator for IterMut<'_, T> {}
impl<T> FusedIterator for IterMut<'_, T> {}
