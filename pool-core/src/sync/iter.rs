use super::guard::SyncGuard;
use super::pool::SyncPool;
use super::slots::SyncSlots;
use crate::{Handle, Pooled, Storage};

/// The live objects of a [`SyncPool`](crate::SyncPool), from
/// [`iter`](crate::SyncPool::iter): each with its handle, behind a guard.
pub struct SyncIter<'a, T: Pooled> {
    slots: SyncSlots<'a, T>,
    next: u32,
}

impl<'a, T: Pooled> SyncIter<'a, T> {
    pub(crate) fn new(slots: SyncSlots<'a, T>) -> Self {
        Self { slots, next: 0 }
    }
}

impl<'a, T: Pooled> Iterator for SyncIter<'a, T> {
    type Item = (Handle<T>, SyncGuard<'a, T>);

    fn next(&mut self) -> Option<Self::Item> {
        while (self.next as usize) < self.slots.capacity() {
            let index = self.next;
            self.next += 1;
            if let Some(found) = self.slots.guard_live(index) {
                return Some(found);
            }
        }
        None
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        (0, Some(self.slots.capacity() - self.next as usize))
    }
}

impl<'a, T: Pooled, S, B: Storage> IntoIterator for &'a SyncPool<T, S, B> {
    type Item = (Handle<T>, SyncGuard<'a, T>);
    type IntoIter = SyncIter<'a, T>;

    fn into_iter(self) -> SyncIter<'a, T> {
        self.iter()
    }
}
