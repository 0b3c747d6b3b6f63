use crate::Handle;
use crate::occupancy::{Indices, Occupancy};
use crate::slot::Slot;
use crate::storage::{Chunk, Chunks, ChunksMut};
use core::iter::FusedIterator;
use core::mem;
use core::ops::Deref;

/// The slots of a chunk, taken in ascending order.
trait Slots {
    type Slot: Deref;
    /// The slot at `local`, which is past every slot taken before.
    fn take(&mut self, local: usize) -> Option<Self::Slot>;
}

impl<'a, T> Slots for &'a [Slot<T>] {
    type Slot = &'a Slot<T>;

    #[inline]
    fn take(&mut self, local: usize) -> Option<&'a Slot<T>> {
        self.get(local)
    }
}

/// The slots not taken yet, mutably: each `&mut Slot` handed out is split off, so they never
/// overlap.
struct Rest<'a, T> {
    slots: &'a mut [Slot<T>],
    /// The index within the chunk of `slots[0]`.
    start: usize,
}

impl<'a, T> Slots for Rest<'a, T> {
    type Slot = &'a mut Slot<T>;

    #[inline]
    fn take(&mut self, local: usize) -> Option<&'a mut Slot<T>> {
        let slots = mem::take(&mut self.slots);
        let (slot, rest) = slots.get_mut(local - self.start..)?.split_first_mut()?;
        self.slots = rest;
        self.start = local + 1;
        Some(slot)
    }
}

/// The live slots of one chunk, with their pool-wide indices.
struct Walk<'a, S> {
    base: usize,
    slots: S,
    occupancy: &'a Occupancy,
    maybe_live: Indices<'a>,
}

impl<'a, S, T> Walk<'a, S>
where
    S: Slots,
    S::Slot: Deref<Target = Slot<T>>,
{
    fn new(base: usize, slots: S, occupancy: &'a Occupancy) -> Self {
        Self {
            base,
            slots,
            occupancy,
            maybe_live: occupancy.indices(),
        }
    }

    /// The next live slot, clearing the stale bits of released slots on the way.
    #[inline]
    fn next(&mut self) -> Option<(usize, S::Slot)> {
        loop {
            let local = self.maybe_live.next()?;
            let slot = self.slots.take(local)?;
            if !slot.is_live() {
                clear_stale(self.occupancy, local);
                continue;
            }
            return Some((self.base + local, slot));
        }
    }
}

/// Out of line, so that the live case, the common one, runs straight through.
#[cold]
#[inline(never)]
fn clear_stale(occupancy: &Occupancy, local: usize) {
    occupancy.remove(local);
}

/// The live objects of a pool with their handles; see [`Pool::iter`](crate::Pool::iter).
///
/// It borrows the pool shared, so leases may turn into handles while it runs
/// ([`Lease::into_handle`](crate::Lease::into_handle)); it yields every object live when it
/// started, and perhaps some made live since. Its length is therefore known only from below, and
/// it is not an `ExactSizeIterator`: [`Pool::len`](crate::Pool::len) is exact.
pub struct Iter<'a, T> {
    chunks: Chunks<'a, T>,
    walk: Walk<'a, &'a [Slot<T>]>,
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

    fn walk(chunk: &'a Chunk<T>) -> Walk<'a, &'a [Slot<T>]> {
        Walk::new(chunk.base, &chunk.slots, &chunk.occupancy)
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
    walk: Walk<'a, Rest<'a, T>>,
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

    fn walk(chunk: &'a mut Chunk<T>) -> Walk<'a, Rest<'a, T>> {
        let Chunk {
            base,
            slots,
            occupancy,
        } = chunk;
        Walk::new(*base, Rest { slots, start: 0 }, occupancy)
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

/// The live objects of a pool, without their handles; see [`Pool::values`](crate::Pool::values).
pub struct Values<'a, T>(Iter<'a, T>);

impl<'a, T> Values<'a, T> {
    pub(crate) fn new(iter: Iter<'a, T>) -> Self {
        Self(iter)
    }
}

impl<'a, T> Iterator for Values<'a, T> {
    type Item = &'a T;

    #[inline]
    fn next(&mut self) -> Option<&'a T> {
        self.0.next().map(|(_, value)| value)
    }

    #[inline]
    fn size_hint(&self) -> (usize, Option<usize>) {
        self.0.size_hint()
    }
}

impl<T> FusedIterator for Values<'_, T> {}

/// The live objects of a pool, mutably, without their handles; see
/// [`Pool::values_mut`](crate::Pool::values_mut).
pub struct ValuesMut<'a, T>(IterMut<'a, T>);

impl<'a, T> ValuesMut<'a, T> {
    pub(crate) fn new(iter: IterMut<'a, T>) -> Self {
        Self(iter)
    }
}

impl<'a, T> Iterator for ValuesMut<'a, T> {
    type Item = &'a mut T;

    #[inline]
    fn next(&mut self) -> Option<&'a mut T> {
        self.0.next().map(|(_, value)| value)
    }

    #[inline]
    fn size_hint(&self) -> (usize, Option<usize>) {
        self.0.size_hint()
    }
}

impl<T> ExactSizeIterator for ValuesMut<'_, T> {}
impl<T> FusedIterator for ValuesMut<'_, T> {}
