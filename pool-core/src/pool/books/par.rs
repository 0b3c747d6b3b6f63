//! `par_retain`'s books (the `rayon` feature): the parts' chains of freed slots joined onto the
//! free list, and their releases counted.

use super::Books;
use crate::Pooled;
use crate::pool::par::retain::Chain;
use crate::pool::par::span::SpanMut;
use crate::pool::par::{Freed, Retain, Runs};
use crate::storage::part::PartMut;
use crate::storage::slots::RestMut;
use crate::storage::{Slots, Storage};
use rayon::iter::plumbing::bridge_unindexed;
use std::sync::{Mutex, PoisonError};

impl<T: Pooled, B: Storage> Books<T, B> {
    /// [`chunks_mut`](Books::chunks_mut) as the first chunk and the rest, for parallel walks:
    /// to change live objects, not the books.
    pub(crate) fn parts_mut(&mut self) -> (PartMut<'_, T>, RestMut<'_, T>) {
        self.slots.parts_mut()
    }

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
        let retain = Retain {
            keep,
            retired_at: self.slots.retired_at(),
            sink: &sink,
        };
        let (free, counts) = (&mut self.free, &mut self.counts);
        // Runs on unwinding too: what the parts freed before a panic joins the pool.
        let _give_back = scopeguard::guard(&sink, |sink| {
            let mut freed = sink.lock().unwrap_or_else(PoisonError::into_inner);
            core::mem::take(&mut *freed).give_back(free, counts);
        });
        let runs = Runs(SpanMut::new(self.slots.parts_mut()));
        // Dropped into the sink, where it is all there is but for a panic.
        drop(drive.drive(runs, retain));
    }
}

/// What runs `par_retain`'s parts: rayon, or in tests a walk of every split without threads.
pub(crate) trait Drive {
    fn drive<'k, 'a, T: Pooled + Send, K: Fn(&mut T) -> bool + Sync>(
        self,
        runs: Runs<'a, T>,
        retain: Retain<'k, 'a, K>,
    ) -> Chain<'k, 'a>;
}

/// Rayon's threads.
struct Rayon;

impl Drive for Rayon {
    fn drive<'k, 'a, T: Pooled + Send, K: Fn(&mut T) -> bool + Sync>(
        self,
        runs: Runs<'a, T>,
        retain: Retain<'k, 'a, K>,
    ) -> Chain<'k, 'a> {
        bridge_unindexed(runs, retain)
    }
}
