use crate::Handle;
use crate::occupancy::Indices;
use crate::slot::Slot;
use core::iter::FusedIterator;
use core::slice;

/// The live objects of a pool with their handles; see [`Pool::iter`](crate::Pool::iter).
pub struct Iter<'a, T> {
    slots: slice::Iter<'a, Slot<T>>,
    /// The index of the slot `slots` yields next.
    position: usize,
    live: Indices<'a>,
    remaining: usize,
}

impl<'a, T> Iter<'a, T> {
    pub(crate) fn new(slots: &'a [Slot<T>], live: Indices<'a>, len: usize) -> Self {
        Self {
            slots: slots.iter(),
            position: 0,
            live,
            remaining: len,
        }
    }
}

impl<'a, T> Iterator for Iter<'a, T> {
    type Item = (Handle<T>, &'a T);

    #[inline]
    fn next(&mut self) -> Option<Self::Item> {
        let index = self.live.next()?;
        let slot = self.slots.nth(index - self.position)?;
        self.position = index + 1;
        self.remaining -= 1;
        // SAFETY: the slot's occupancy bit is set, so it is live, and the iterator borrows the
        // pool shared: live objects are mutated only through `&mut Pool`.
        Some((slot.handle(index), unsafe { slot.value() }))
    }

    #[inline]
    fn size_hint(&self) -> (usize, Option<usize>) {
        (self.remaining, Some(self.remaining))
    }
}

impl<T> ExactSizeIterator for Iter<'_, T> {}
impl<T> FusedIterator for Iter<'_, T> {}

/// The live objects of a pool with their handles, mutably; see
/// [`Pool::iter_mut`](crate::Pool::iter_mut).
pub struct IterMut<'a, T> {
    slots: slice::IterMut<'a, Slot<T>>,
    /// The index of the slot `slots` yields next.
    position: usize,
    live: Indices<'a>,
    remaining: usize,
}

impl<'a, T> IterMut<'a, T> {
    pub(crate) fn new(slots: &'a mut [Slot<T>], live: Indices<'a>, len: usize) -> Self {
        Self {
            slots: slots.iter_mut(),
            position: 0,
            live,
            remaining: len,
        }
    }
}

impl<'a, T> Iterator for IterMut<'a, T> {
    type Item = (Handle<T>, &'a mut T);

    #[inline]
    fn next(&mut self) -> Option<Self::Item> {
        let index = self.live.next()?;
        let slot = self.slots.nth(index - self.position)?;
        self.position = index + 1;
        self.remaining -= 1;
        Some((slot.handle(index), slot.value_mut()))
    }

    #[inline]
    fn size_hint(&self) -> (usize, Option<usize>) {
        (self.remaining, Some(self.remaining))
    }
}

impl<T> ExactSizeIterator for IterMut<'_, T> {}
impl<T> FusedIterator for IterMut<'_, T> {}
