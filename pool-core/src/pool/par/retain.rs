use crate::Pooled;
use crate::pool::counts::Counts;
use crate::pool::iter::WalkMut;
use crate::slot::free_list::FreeList;
use crate::slot::state::PlaceMut;
use crate::slot::{NIL, Slot};
use crate::storage::part::PartMut;
use crate::storage::slots::no_rest_mut;
use core::iter;
use core::mem;
use rayon::iter::plumbing::{Consumer, Folder, Reducer, UnindexedConsumer};
use std::sync::{Mutex, PoisonError};

/// The slots a part of `par_retain` freed, threaded through their `next_free` fields as the
/// sequential `retain` would have pushed them onto the free list: the last freed first.
pub(crate) struct Freed<'a, T> {
    /// The slot freed last, `NIL` when none was.
    head: u32,
    /// The slot freed first, last on the chain: its link is set when the chain is joined.
    tail: Option<&'a mut Slot<T>>,
    /// Objects released, counting those whose slot retired.
    released: usize,
    retired: usize,
}

impl<T> Default for Freed<'_, T> {
    fn default() -> Self {
        Self {
            head: NIL,
            tail: None,
            released: 0,
            retired: 0,
        }
    }
}

impl<'a, T> Freed<'a, T> {
    fn is_empty(&self) -> bool {
        self.tail.is_none() && self.released == 0
    }

    fn push(&mut self, index: usize, slot: &'a mut Slot<T>) {
        slot.set_next_free_mut(self.head);
        #[expect(clippy::cast_possible_truncation, reason = "indices end below NIL")]
        let index = index as u32;
        self.head = index;
        if self.tail.is_none() {
            self.tail = Some(slot);
        }
    }

    /// Takes `later`'s slots, freed after this chain's: the sequential `retain` would have
    /// pushed them after, so they come first.
    fn join(&mut self, later: &mut Self) {
        if let Some(tail) = later.tail.take() {
            tail.set_next_free_mut(self.head);
            if self.tail.is_none() {
                self.tail = Some(tail);
            }
            self.head = mem::replace(&mut later.head, NIL);
        }
        self.released += mem::take(&mut later.released);
        self.retired += mem::take(&mut later.retired);
    }

    /// Puts the chain at the head of `free` and counts its releases.
    pub(crate) fn give_back(self, free: &mut FreeList, counts: &mut Counts) {
        if let Some(tail) = self.tail {
            free.push_run(self.head, tail);
        }
        for _ in 0..self.released {
            counts.release_mut();
        }
        for _ in 0..self.retired {
            counts.retire_mut();
        }
    }
}

/// Where chains go that no reduction took, because a closure panicked: joined in any order, so
/// that the pool gets every slot freed before the panic.
pub(crate) type Sink<'a, T> = Mutex<Freed<'a, T>>;

/// A part's [`Freed`] chain, joined into the sink if dropped before a reduction took it.
pub(crate) struct Chain<'s, 'a, T> {
    freed: Freed<'a, T>,
    sink: &'s Sink<'a, T>,
}

impl<T> Drop for Chain<'_, '_, T> {
    fn drop(&mut self) {
        if !self.freed.is_empty() {
            let mut sink = self.sink.lock().unwrap_or_else(PoisonError::into_inner);
            sink.join(&mut self.freed);
        }
    }
}

/// What `par_retain` asks of each part: a rayon consumer of chunk runs.
pub(crate) struct Retain<'s, 'a, T, K> {
    pub(crate) keep: &'s K,
    pub(crate) retired_at: u32,
    pub(crate) sink: &'s Sink<'a, T>,
}

impl<T, K> Clone for Retain<'_, '_, T, K> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<T, K> Copy for Retain<'_, '_, T, K> {}

/// A part of `par_retain` under way: the chain of what it freed so far.
pub(crate) struct RetainFolder<'s, 'a, T, K> {
    retain: Retain<'s, 'a, T, K>,
    chain: Chain<'s, 'a, T>,
}

/// Joins two parts' chains in part order.
pub(crate) struct JoinChains;

impl<'s, 'a, T, K> Consumer<PartMut<'a, T>> for Retain<'s, 'a, T, K>
where
    T: Pooled + Send,
    K: Fn(&mut T) -> bool + Sync,
{
    type Folder = RetainFolder<'s, 'a, T, K>;
    type Reducer = JoinChains;
    type Result = Chain<'s, 'a, T>;

    fn split_at(self, _: usize) -> (Self, Self, JoinChains) {
        (self, self, JoinChains)
    }

    fn into_folder(self) -> Self::Folder {
        RetainFolder {
            retain: self,
            chain: Chain {
                freed: Freed::default(),
                sink: self.sink,
            },
        }
    }

    fn full(&self) -> bool {
        false
    }
}

impl<'a, T, K> UnindexedConsumer<PartMut<'a, T>> for Retain<'_, 'a, T, K>
where
    T: Pooled + Send,
    K: Fn(&mut T) -> bool + Sync,
{
    fn split_off_left(&self) -> Self {
        *self
    }

    fn to_reducer(&self) -> JoinChains {
        JoinChains
    }
}

impl<'s, 'a, T, K> Folder<PartMut<'a, T>> for RetainFolder<'s, 'a, T, K>
where
    T: Pooled,
    K: Fn(&mut T) -> bool,
{
    type Result = Chain<'s, 'a, T>;

    /// The sequential `retain`'s work on one run, but for the free list and the counts: the
    /// freed slots go on this part's chain.
    fn consume(mut self, run: PartMut<'a, T>) -> Self {
        let freed = &mut self.chain.freed;
        let mut walk = WalkMut::new(iter::once(run).chain(no_rest_mut()));
        while let Some((index, slot, bit)) = walk.next_with_bit() {
            if (self.retain.keep)(slot.value_mut()) {
                continue;
            }
            // As `Pool::vacate`: if the reset panics, the object stays live.
            slot.value_mut().reset_at_release();
            let retired = PlaceMut::new(slot, &bit).vacate(self.retain.retired_at);
            freed.released += 1;
            if retired {
                freed.retired += 1;
            } else {
                freed.push(index, slot);
            }
        }
        self
    }

    fn complete(self) -> Chain<'s, 'a, T> {
        self.chain
    }

    fn full(&self) -> bool {
        false
    }
}

impl<'s, 'a, T> Reducer<Chain<'s, 'a, T>> for JoinChains {
    fn reduce(self, mut left: Chain<'s, 'a, T>, mut right: Chain<'s, 'a, T>) -> Chain<'s, 'a, T> {
        left.freed.join(&mut right.freed);
        left
    }
}
