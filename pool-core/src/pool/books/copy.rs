use super::Books;
use crate::Pooled;
use crate::pooled::blank;
use crate::slot::NIL;
use crate::slot::free_list::free_indices;
use crate::slot::state;
use crate::storage::{Slots, Storage};

impl<T: Pooled + Clone, B: Storage> Books<T, B> {
    /// A copy: every live object cloned into the same slot at the same version, every other
    /// slot blank, the free list in the same order. Slots lent to leases (forgotten ones: a pool
    /// read through `&` has no lease out otherwise) are free in the copy, after the others.
    pub(crate) fn copy(&self) -> Self {
        let slots = (self.slots).clone_with(
            |live, object| {
                if live { object.clone() } else { blank::<T>() }
            },
        );
        let mut copy = Self {
            slots,
            free: self.free,
            counts: (self.counts).for_copy(self.counts.live(), self.counts.retired()),
        };
        if self.counts.leased() > 0 {
            copy.free_lent();
        }
        copy
    }

    /// Puts the lent slots at the end of the free list, in index order.
    fn free_lent(&mut self) {
        let word = |index| self.slots.word(index).expect("built");
        let mut tail = free_indices(self.free, word).last();
        for index in 0..self.slots.built() {
            if !state::is_lent(self.slots.word(index).expect("built")) {
                continue;
            }
            let place = self.slots.slot_mut(index).expect("built").place;
            place.link(NIL);
            #[expect(clippy::cast_possible_truncation, reason = "indices end below NIL")]
            match tail {
                Some(tail) => (self.slots.slot_mut(tail).expect("built").place).link(index as u32),
                None => self.free = index as u32,
            }
            tail = Some(index);
        }
    }
}
