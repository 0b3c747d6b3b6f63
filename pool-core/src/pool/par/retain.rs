use crate::Pooled;
use crate::slot::NIL;
use crate::slot::state::{self, Place};
use crate::slot::walk::{self, ObjectsMut};
use crate::storage::part::{PartMut, Places};
use core::cell::Cell;
use core::mem;
use rayon::iter::plumbing::{Consumer, Folder, Reducer, UnindexedConsumer};
use std::sync::{Mutex, PoisonError};

/// The slots a part of `par_retain` freed, threaded through their words as the sequential
/// `retain` would have pushed them onto the free list: the last freed first.
pub(crate) struct Freed<'a> {
    /// The slot freed last, `NIL` when none was.
    head: u32,
    /// The word of the slot freed first, last on the chain: its link is set when the chain is
    /// joined.
    tail: Option<&'a mut u64>,
    /// Objects released, counting those whose slot retired.
    released: usize,
    retired: usize,
}

impl Default for Freed<'_> {
    fn default() -> Self {
        Self {
            head: NIL,
            tail: None,
            released: 0,
            retired: 0,
        }
    }
}

impl<'a> Freed<'a> {
    fn is_empty(&self) -> bool {
        self.tail.is_none() && self.released == 0
    }

    /// Takes `later`'s slots, freed after this chain's: the sequential `retain` would have
    /// pushed them after, so they come first.
    fn join(&mut self, later: &mut Self) {
        if let Some(tail) = later.tail.take() {
            state::link_word(tail, self.head);
            if self.tail.is_none() {
                self.tail = Some(tail);
            }
            self.head = mem::replace(&mut later.head, NIL);
        }
        self.released += mem::take(&mut later.released);
        self.retired += mem::take(&mut later.retired);
    }

    /// The chain without its borrows: the slot freed last (`NIL` when none was), how many are
    /// chained from it, objects released (counting those whose slot retired), and slots
    /// retired.
    pub(crate) fn into_parts(self) -> (u32, usize, usize, usize) {
        let chained = self.released - self.retired;
        (self.head, chained, self.released, self.retired)
    }

    /// Frees the slots of `run` for which `keep` is false onto the chain, as `Books::retain`
    /// releases them: if a reset panics, its object stays live. If `keep` or a reset panics,
    /// the slots freed before are on the chain.
    fn retain<T: Pooled>(
        &mut self,
        run: PartMut<'a, T>,
        keep: &impl Fn(&mut T) -> bool,
        retired_at: u32,
    ) {
        let PartMut {
            base,
            objects,
            words,
            bits,
        } = run;
        let head = Cell::new(self.head);
        let (released, retired) = (Cell::new(0), Cell::new(0));
        // The index in the run of the slot freed first, when it starts the chain.
        let first = Cell::new(None);
        let starts_chain = self.tail.is_none();
        // Also while unwinding.
        let mut joined = scopeguard::guard((&mut *self, words), |(freed, words)| {
            freed.head = head.get();
            freed.released += released.get();
            freed.retired += retired.get();
            if let Some(first) = first.get() {
                freed.tail = Some(&mut words[first]);
            }
        });
        let places = Places::new(&mut *joined.1, bits);
        let cells = (places.words(), places.bits());
        let batch = !T::RESETS_AT_RELEASE;
        let objects = ObjectsMut::new(objects);
        walk::retain(
            objects,
            cells,
            batch,
            |_, object| keep(object),
            |at, place: Place<'_>, object| {
                object.reset_at_release();
                released.set(released.get() + 1);
                if place.vacate(retired_at) {
                    retired.set(retired.get() + 1);
                    return;
                }
                place.chain(head.get());
                #[expect(clippy::cast_possible_truncation, reason = "indices end below NIL")]
                head.set((base + at) as u32);
                if starts_chain && first.get().is_none() {
                    first.set(Some(at));
                }
            },
        );
    }
}

/// Where chains go that no reduction took, because a closure panicked: joined in any order, so
/// that the pool gets every slot freed before the panic.
pub(crate) type Sink<'a> = Mutex<Freed<'a>>;

/// A part's [`Freed`] chain, joined into the sink if dropped before a reduction took it.
pub(crate) struct Chain<'s, 'a> {
    freed: Freed<'a>,
    sink: &'s Sink<'a>,
}

impl Drop for Chain<'_, '_> {
    fn drop(&mut self) {
        if !self.freed.is_empty() {
            let mut sink = self.sink.lock().unwrap_or_else(PoisonError::into_inner);
            sink.join(&mut self.freed);
        }
    }
}

/// What `par_retain` asks of each part: a rayon consumer of chunk runs.
pub(crate) struct Retain<'s, 'a, K> {
    pub(crate) keep: &'s K,
    pub(crate) retired_at: u32,
    pub(crate) sink: &'s Sink<'a>,
}

impl<K> Clone for Retain<'_, '_, K> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<K> Copy for Retain<'_, '_, K> {}

/// A part of `par_retain` under way: the chain of what it freed so far.
pub(crate) struct RetainFolder<'s, 'a, K> {
    retain: Retain<'s, 'a, K>,
    chain: Chain<'s, 'a>,
}

/// Joins two parts' chains in part order.
pub(crate) struct JoinChains;

impl<'s, 'a, T, K> Consumer<PartMut<'a, T>> for Retain<'s, 'a, K>
where
    T: Pooled + Send,
    K: Fn(&mut T) -> bool + Sync,
{
    type Folder = RetainFolder<'s, 'a, K>;
    type Reducer = JoinChains;
    type Result = Chain<'s, 'a>;

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

impl<'a, T, K> UnindexedConsumer<PartMut<'a, T>> for Retain<'_, 'a, K>
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

impl<'s, 'a, T, K> Folder<PartMut<'a, T>> for RetainFolder<'s, 'a, K>
where
    T: Pooled,
    K: Fn(&mut T) -> bool,
{
    type Result = Chain<'s, 'a>;

    /// The sequential `retain`'s work on one run, but for the free list and the counts: the
    /// freed slots go on this part's chain.
    fn consume(mut self, run: PartMut<'a, T>) -> Self {
        (self.chain.freed).retain(run, self.retain.keep, self.retain.retired_at);
        self
    }

    fn complete(self) -> Chain<'s, 'a> {
        self.chain
    }

    fn full(&self) -> bool {
        false
    }
}

impl<'s, 'a> Reducer<Chain<'s, 'a>> for JoinChains {
    fn reduce(self, mut left: Chain<'s, 'a>, mut right: Chain<'s, 'a>) -> Chain<'s, 'a> {
        left.freed.join(&mut right.freed);
        left
    }
}
