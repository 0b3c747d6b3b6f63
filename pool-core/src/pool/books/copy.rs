use super::Books;
use crate::Pooled;
use crate::pooled::blank;
use crate::slot::free_list::FreeStack;
use crate::slot::state;
use crate::storage::part::Places;
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
            free: self.free.clone(),
            counts: (self.counts).for_copy(self.counts.live(), self.counts.retired()),
        };
        if self.counts.leased() > 0 {
            copy.free_lent();
        }
        copy
    }

    /// Puts the lent slots at the bottom of the free list, to be taken last, in index order.
    /// Walks the chunks with their first indices: after a `shrink`, indices have holes.
    fn free_lent(&mut self) {
        let count: usize = (self.slots.chunks())
            .map(|part| {
                part.words
                    .iter()
                    .filter(|&&word| state::is_lent(word))
                    .count()
            })
            .sum();
        let chunks = self.slots.chunks_mut();
        self.free.stack().edit(|entries, len| {
            entries.copy_within(0..*len, count);
            *len += count;
            let mut under = count;
            for part in chunks {
                let places = Places::new(part.words, part.bits);
                for (local, word) in places.words().iter().enumerate() {
                    if state::is_lent(word.get()) {
                        under -= 1;
                        #[expect(
                            clippy::cast_possible_truncation,
                            reason = "indices end below NIL"
                        )]
                        let entry = (part.base + local) as u32;
                        entries[under] = entry;
                        places
                            .get(local)
                            .expect("a slot of the chunk")
                            .unlend(entry as usize);
                    }
                }
            }
        });
    }
}
