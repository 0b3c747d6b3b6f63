//! `par_retain`'s books (the `rayon` feature): the parts' chains of freed slots joined onto the
//! free list, and their releases counted.

use super::Books;
use crate::Pooled;
use crate::pool::par::retain::Chain;
use crate::pool::par::{Freed, Pieces, Retain};
use crate::slot::free_list::FreeStack;
use crate::storage::part::PartMut;
use crate::storage::{Slots, Storage};
use rayon::iter::plumbing::bridge_unindexed;
use std::panic::{AssertUnwindSafe, catch_unwind, resume_unwind};
use std::sync::{Mutex, PoisonError};

impl<T: Pooled, B: Storage> Books<T, B> {
    /// [`retain`](Books::retain) in parallel: the pool ends as `retain` would leave it, down to
    /// the order of its free list.
    pub(crate) fn par_retain(&mut self, keep: &(impl Fn(&mut T) -> bool + Send + Sync))
    where
        T: Send,
    {
        self.par_retain_by(keep, Rayon);
    }

    /// [`par_retain`](Books::par_retain), its runs and consumer driven by `drive`: rayon's
    /// bridge, or in tests a walk of every split without threads.
    pub(crate) fn par_retain_by<K: Fn(&mut T) -> bool + Send + Sync>(
        &mut self,
        keep: &K,
        drive: impl Drive,
    ) where
        T: Send,
    {
        let sink = Mutex::new(Freed::default());
        let retired_at = self.slots.retired_at();
        let slots = &mut self.slots;
        let outcome = catch_unwind(AssertUnwindSafe(|| {
            let retain = Retain {
                keep,
                retired_at,
                sink: &sink,
            };
            let runs = Pieces(slots.chunks_mut().collect());
            // Dropped into the sink, where it is all there is but for a panic.
            drop(drive.drive(runs, retain));
        }));
        // What the parts freed joins the pool, on unwinding too.
        let freed = sink.into_inner().unwrap_or_else(PoisonError::into_inner);
        let (head, chained, released, retired) = freed.into_parts();
        self.push_chain(head, chained);
        self.counts.release_many(released, retired);
        if let Err(panic) = outcome {
            resume_unwind(panic);
        }
    }

    /// Puts the `chained` slots linked from `head` through their words on the free list, the
    /// one at `head` on top: as the sequential `retain` would have pushed them. Each word holds
    /// its slot's index again, as a free slot's does.
    fn push_chain(&mut self, head: u32, chained: usize) {
        let slots = &mut self.slots;
        self.free.stack().edit(|entries, len| {
            let bottom = *len;
            let mut index = head;
            for at in (bottom..bottom + chained).rev() {
                entries[at] = index;
                let slot = (slots.slot_mut(index as usize)).expect("freed slots are in the pool");
                index = slot.place.unchain(index as usize);
            }
            *len += chained;
        });
    }
}

/// What runs `par_retain`'s parts: rayon, or in tests a walk of every split without threads.
pub(crate) trait Drive {
    fn drive<'k, 'a, T: Pooled + Send, K: Fn(&mut T) -> bool + Sync>(
        self,
        runs: Pieces<PartMut<'a, T>>,
        retain: Retain<'k, 'a, K>,
    ) -> Chain<'k, 'a>;
}

/// Rayon's threads.
struct Rayon;

impl Drive for Rayon {
    fn drive<'k, 'a, T: Pooled + Send, K: Fn(&mut T) -> bool + Sync>(
        self,
        runs: Pieces<PartMut<'a, T>>,
        retain: Retain<'k, 'a, K>,
    ) -> Chain<'k, 'a> {
        bridge_unindexed(runs, retain)
    }
}
