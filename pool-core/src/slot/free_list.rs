//! The free list of a [`Pool`](crate::Pool), threaded through the slots' words.

use crate::slot::state::Place;
use crate::slot::word;
use core::cell::Cell;

/// The free slots, threaded through the low halves of their words from the head: a stack, so
/// that the slot released last, warm in the cache, is reused first. Every change to the list
/// happens here.
#[derive(Clone, Copy)]
pub(crate) struct FreeList<'a> {
    head: &'a Cell<u32>,
}

impl<'a> FreeList<'a> {
    #[inline]
    pub(crate) fn new(head: &'a Cell<u32>) -> Self {
        Self { head }
    }

    /// Takes the head slot, `place`, off the list.
    #[inline]
    pub(crate) fn pop(self, place: &Place<'_>) {
        self.head.set(place.next_free());
    }

    /// Puts the slot at `index`, `place`, which holds no live object, on the list.
    #[inline]
    pub(crate) fn push(self, index: usize, place: &Place<'_>) {
        place.link(self.head.get());
        #[expect(clippy::cast_possible_truncation, reason = "indices end below NIL")]
        self.head.set(index as u32);
    }

    /// Puts a run of slots already threaded from `first` to `last` (whose link is overwritten)
    /// at the head of the list, in one step.
    #[inline]
    pub(crate) fn push_run(self, first: usize, last: &Place<'_>) {
        last.link(self.head.get());
        #[expect(clippy::cast_possible_truncation, reason = "indices end below NIL")]
        self.head.set(first as u32);
    }
}

/// The indices on a free list from `head`, each slot's word read by `word`.
pub(crate) fn free_indices(head: u32, word: impl Fn(usize) -> u64) -> impl Iterator<Item = usize> {
    let mut index = head;
    core::iter::from_fn(move || {
        (index != crate::slot::NIL).then(|| {
            let here = index as usize;
            index = word::low(word(here));
            here
        })
    })
}
