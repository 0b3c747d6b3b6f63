use crate::slot::occupancy::Bit;
use crate::slot::shared::SharedU32;
use crate::slot::{NIL, Slot};

/// The free slots, threaded through their `next_free` fields from `head`: a stack, so that the
/// slot released last, warm in the cache, is reused first.
///
/// Every change to the list happens here. In a shared cell, so that leases can pop and push
/// through `&Pool`, under the pool's lock (see `Lock`); through `&mut` with plain loads and
/// stores (the `_mut` methods).
#[derive(Clone)]
pub(crate) struct FreeList {
    head: SharedU32,
}

impl FreeList {
    /// The list threaded in order through the `len` slots built up front (see `Chunk::build`).
    #[cfg(not(loom))]
    pub(crate) const fn new(len: usize) -> Self {
        Self {
            head: SharedU32::new(if len == 0 { NIL } else { 0 }),
        }
    }

    /// loom's atomics are not `const`.
    #[cfg(loom)]
    pub(crate) fn new(len: usize) -> Self {
        Self {
            head: SharedU32::new(if len == 0 { NIL } else { 0 }),
        }
    }

    /// The index of the slot at the head, `NIL` when the list is empty.
    #[inline]
    pub(crate) fn head(&self) -> u32 {
        self.head.get()
    }

    /// [`head`](FreeList::head), through `&mut`.
    #[inline]
    pub(crate) fn head_mut(&mut self) -> u32 {
        self.head.load_mut()
    }

    /// The slot at the head of the list, and its index and bit; `None` when no slot is free.
    /// It stays on the list.
    #[inline]
    pub(crate) fn head_slot<'a, T>(
        &self,
        slot_mut: impl FnOnce(usize) -> Option<(&'a mut Slot<T>, Bit<'a>)>,
    ) -> Option<(usize, &'a mut Slot<T>, Bit<'a>)> {
        let index = self.head.get();
        if index == NIL {
            return None;
        }
        let (slot, bit) = slot_mut(index as usize).expect("free-list indices are in the pool");
        Some((index as usize, slot, bit))
    }

    /// Takes the head slot, `slot`, off the list: for `create`, which fills the head slot in
    /// place and takes it only once the object is made.
    #[inline]
    pub(crate) fn pop_head<T>(&self, slot: &Slot<T>) {
        self.head.set(slot.next_free());
    }

    /// [`pop_head`](FreeList::pop_head), through `&mut`.
    #[inline]
    pub(crate) fn pop_head_mut<T>(&mut self, slot: &mut Slot<T>) {
        self.head.store_mut(slot.next_free_mut());
    }

    /// Puts the slot at `index`, which holds no live object, on the list.
    #[inline]
    pub(crate) fn push<T>(&self, index: usize, slot: &Slot<T>) {
        slot.set_next_free(self.head.get());
        #[expect(clippy::cast_possible_truncation, reason = "indices end below NIL")]
        self.head.set(index as u32);
    }

    /// [`push`](FreeList::push), through `&mut`.
    #[inline]
    pub(crate) fn push_mut<T>(&mut self, index: usize, slot: &mut Slot<T>) {
        slot.set_next_free_mut(self.head.load_mut());
        #[expect(clippy::cast_possible_truncation, reason = "indices end below NIL")]
        self.head.store_mut(index as u32);
    }

    /// Puts the slot at `index`, which holds no live object, on the list right after `before`,
    /// a slot on it: to thread slots in index order as they are built.
    #[expect(
        clippy::unused_self,
        reason = "every change to the list goes through it"
    )]
    pub(crate) fn insert_after<T>(&self, before: &Slot<T>, index: usize, slot: &Slot<T>) {
        slot.set_next_free(before.next_free());
        #[expect(clippy::cast_possible_truncation, reason = "indices end below NIL")]
        before.set_next_free(index as u32);
    }

    /// Puts a run of slots already threaded from `first` to `last` (whose `next_free` is
    /// overwritten) at the head of the list, in one step.
    #[cfg(feature = "alloc")]
    pub(crate) fn push_run<T>(&self, first: u32, last: &Slot<T>) {
        last.set_next_free(self.head.get());
        self.head.set(first);
    }

    /// The indices on the list, from the head.
    pub(crate) fn indices<'a, T: 'a>(
        &self,
        slot: impl Fn(usize) -> &'a Slot<T>,
    ) -> impl Iterator<Item = usize> {
        let mut index = self.head.get();
        core::iter::from_fn(move || {
            (index != NIL).then(|| {
                let here = index as usize;
                index = slot(here).next_free();
                here
            })
        })
    }

    /// Drops from the list the slots for which `keep` is false, keeping the others in order.
    #[cfg(feature = "alloc")]
    pub(crate) fn retain<'a, T: 'a>(
        &self,
        slot: impl Fn(usize) -> &'a Slot<T>,
        mut keep: impl FnMut(usize) -> bool,
    ) {
        let mut last: Option<&Slot<T>> = None;
        let mut index = self.head.get();
        while index != NIL {
            let here = slot(index as usize);
            let next = here.next_free();
            if keep(index as usize) {
                match last {
                    Some(last) => last.set_next_free(index),
                    None => self.head.set(index),
                }
                last = Some(here);
            }
            index = next;
        }
        match last {
            Some(last) => last.set_next_free(NIL),
            None => self.head.set(NIL),
        }
    }
}
