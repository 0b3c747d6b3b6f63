//! The parallel walks driven without threads: every span split down to its groups, in order,
//! so that Miri sees each piece of unsafe code and the joins are checked against `retain`.

use super::retain::{Chain, Retain};
use super::{Handles, Pieces};
use crate::pool::books::par::Drive;
use crate::slot::occupancy::BITS;
use crate::storage::Storage;
use crate::storage::part::PartMut;
use crate::tests::Probe;
use crate::{Fail, Grow, Handle, Inline, Pool, Pooled};
use alloc::sync::Arc;
use alloc::vec::Vec;
use rayon::iter::plumbing::{Consumer, Folder, Reducer, UnindexedConsumer, UnindexedProducer};
use std::panic::{AssertUnwindSafe, catch_unwind};

/// A pooled type that owns something, so that resets have work to do.
type Mote = Probe<200>;

/// `rayon`'s `bridge_unindexed` with every split taken and no threads: the parts run in order.
pub(crate) fn drive<P, C>(producer: P, consumer: C) -> C::Result
where
    P: UnindexedProducer,
    C: UnindexedConsumer<P::Item>,
{
    match producer.split() {
        (whole, None) => whole.fold_with(consumer.into_folder()).complete(),
        (first, Some(second)) => {
            let reducer = consumer.to_reducer();
            let first = drive(first, consumer.split_off_left());
            let second = drive(second, consumer);
            reducer.reduce(first, second)
        }
    }
}

/// Collects items in order.
pub(crate) struct Collect;

pub(crate) struct Collected<I>(Vec<I>);

impl<I: Send> Consumer<I> for Collect {
    type Folder = Collected<I>;
    type Reducer = Collect;
    type Result = Vec<I>;

    fn split_at(self, _: usize) -> (Self, Self, Collect) {
        (Collect, Collect, Collect)
    }

    fn into_folder(self) -> Collected<I> {
        Collected(Vec::new())
    }

    fn full(&self) -> bool {
        false
    }
}

impl<I: Send> UnindexedConsumer<I> for Collect {
    fn split_off_left(&self) -> Self {
        Collect
    }

    fn to_reducer(&self) -> Collect {
        Collect
    }
}

impl<I> Folder<I> for Collected<I> {
    type Result = Vec<I>;

    fn consume(mut self, item: I) -> Self {
        self.0.push(item);
        self
    }

    fn complete(self) -> Vec<I> {
        self.0
    }

    fn full(&self) -> bool {
        false
    }
}

impl<I> Reducer<Vec<I>> for Collect {
    fn reduce(self, mut first: Vec<I>, second: Vec<I>) -> Vec<I> {
        first.extend(second);
        first
    }
}

/// Every leaf of `pieces` split all the way down, each as its chunks (index, slots, words).
fn leaves(pieces: Pieces<PartMut<'_, Mote>>) -> Vec<Vec<(usize, usize, usize)>> {
    match UnindexedProducer::split(pieces) {
        (whole, None) => {
            let parts = whole.0.iter();
            alloc::vec![
                parts
                    .map(|p| (p.base, p.objects.len(), p.bits.len()))
                    .collect()
            ]
        }
        (first, Some(second)) => {
            let mut all = leaves(first);
            all.extend(leaves(second));
            all
        }
    }
}

/// The three storages and strategies: a heap pool, a grown one (chunks of 40, 64 and 128
/// slots), and an inline one; each with every third object released.
fn pools() -> (
    Pool<Mote>,
    Pool<Mote, Grow<232>>,
    Pool<Mote, Fail, Inline<130, 3>>,
) {
    let mut heap = Pool::<Mote>::new();
    let mut grown = Pool::<Mote, Grow<232>>::with_capacity(40);
    let mut inline = Pool::<Mote, Fail, Inline<130, 3>>::new();
    for value in 0..232 {
        let owned = || Some(Arc::new(value));
        let make = |m: &mut Mote| {
            m.value = value;
            m.owned = owned();
        };
        let h = heap.try_create(make).ok();
        let g = grown.create(make).ok();
        let i = inline.try_create(make).ok();
        if value % 3 == 1 {
            h.map(|h| heap.release(h));
            g.map(|g| grown.release(g));
            i.map(|i| inline.release(i));
        }
    }
    assert_eq!(grown.stats().chunks, 3);
    (heap, grown, inline)
}

/// Checks that the leaves of `pool`'s pieces cover its chunks in order, each piece starting at
/// its chunk's first slot or at a group of 64.
fn check_leaves<S, B: Storage>(pool: &mut Pool<Mote, S, B>, chunks: &[(usize, usize)]) {
    let leaves = leaves(Pieces(pool.books_mut().chunks_mut().collect()));
    let runs: Vec<_> = leaves.iter().flatten().copied().collect();
    assert!(leaves.len() > chunks.len(), "split past the chunks");
    let mut at = 0;
    for (base, len, words) in runs {
        assert_eq!(base, at, "runs follow one another");
        let (start, end) = chunks
            .iter()
            .map(|&(start, len)| (start, start + len))
            .find(|&(start, end)| (start..end).contains(&base))
            .unwrap();
        assert_eq!((base - start) % BITS, 0, "a run starts at a group");
        assert!(base + len <= end, "a run stays in its chunk");
        assert!(words * BITS >= len, "a run has the words of its slots");
        at = base + len;
    }
    assert_eq!(at, chunks.last().map_or(0, |&(start, len)| start + len));
    // Split to the groups: no leaf of one run holds two groups.
    for leaf in &leaves {
        if let [(_, len, _)] = leaf[..] {
            assert!(len <= BITS || leaves.len() == 1);
        }
    }
}

#[test]
fn pieces_halve_at_chunks_then_at_groups_on_every_storage() {
    let (mut heap, mut grown, mut inline) = pools();
    check_leaves(&mut heap, &[(0, 200)]);
    check_leaves(&mut grown, &[(0, 40), (40, 64), (104, 128)]);
    check_leaves(&mut inline, &[(0, 130)]);
}

/// The handles and values a split walk yields, against the sequential `iter_mut`.
fn check_walk<S, B: Storage>(pool: &mut Pool<Mote, S, B>) {
    let expected: Vec<(Handle<Mote>, u32)> = pool.iter_mut().map(|(h, m)| (h, m.value)).collect();
    let walked: Vec<(Handle<Mote>, &mut Mote)> = drive(pool.pieces_mut::<Handles>(), Collect);
    let walked: Vec<_> = (walked.into_iter())
        .map(|(h, m)| {
            m.value += 1;
            (h, m.value - 1)
        })
        .collect();
    assert_eq!(walked, expected);
    let stepped: Vec<_> = pool.iter().map(|(h, m)| (h, m.value - 1)).collect();
    assert_eq!(stepped, expected, "each object was stepped once");

    let shared: &Pool<Mote, S, B> = pool;
    let read: Vec<(Handle<Mote>, &Mote)> = drive(shared.pieces::<Handles>(), Collect);
    let read: Vec<_> = read.into_iter().map(|(h, m)| (h, m.value - 1)).collect();
    assert_eq!(read, expected);
}

#[test]
fn a_split_walk_yields_every_live_object_once_in_slot_order() {
    let (mut heap, mut grown, mut inline) = pools();
    check_walk(&mut heap);
    check_walk(&mut grown);
    check_walk(&mut inline);
}

/// `par_retain`'s parts, split to the groups and run in order.
fn split_retain<S, B: Storage>(
    pool: &mut Pool<Mote, S, B>,
    keep: impl Fn(&mut Mote) -> bool + Send + Sync,
) {
    pool.books_mut().par_retain_by(&keep, Split);
}

/// `par_retain`'s parts split to the groups, run in order.
struct Split;

impl Drive for Split {
    fn drive<'k, 'a, T: Pooled + Send, K: Fn(&mut T) -> bool + Sync>(
        self,
        runs: Pieces<PartMut<'a, T>>,
        retain: Retain<'k, 'a, K>,
    ) -> Chain<'k, 'a> {
        drive(runs, retain)
    }
}

/// Fills every free slot, returning the handles in the order the pool hands them out.
fn takes<S, B: Storage>(pool: &mut Pool<Mote, S, B>) -> Vec<Handle<Mote>> {
    core::iter::from_fn(|| pool.try_create(|_| {}).ok()).collect()
}

fn dies(mote: &mut Mote) -> bool {
    mote.value = mote.value * 7 + 1;
    !mote.value.is_multiple_of(5)
}

fn check_retain<S, B: Storage>(pool: &mut Pool<Mote, S, B>)
where
    Pool<Mote, S, B>: Clone,
{
    // A slot that retires when released.
    let last = pool.iter().map(|(h, _)| h).last().unwrap();
    pool.force_version(last, u32::MAX - 2);
    pool.get_mut(pool.iter().map(|(h, _)| h).last().unwrap())
        .unwrap()
        .value = 2;

    let mut sequential = pool.clone();
    sequential.retain(dies);
    split_retain(pool, dies);
    assert_eq!(pool.stats(), sequential.stats());
    assert_eq!(pool.stats().retired, 1);
    let values = |pool: &Pool<Mote, S, B>| -> Vec<_> {
        pool.iter()
            .map(|(h, m)| (h, m.value, m.owned.clone()))
            .collect()
    };
    assert_eq!(values(pool), values(&sequential));
    assert!(pool.iter().all(|(_, m)| m.owned.is_some()));
    assert_eq!(takes(pool), takes(&mut sequential));
}

#[test]
fn par_retain_split_to_the_groups_leaves_the_pool_as_retain_does() {
    let (mut heap, mut grown, mut inline) = pools();
    check_retain(&mut heap);
    check_retain(&mut grown);
    check_retain(&mut inline);
}

fn check_panic<S, B: Storage>(pool: &mut Pool<Mote, S, B>)
where
    Pool<Mote, S, B>: Clone,
{
    // Halfway through the live objects.
    let (_, middle) = pool.iter().nth(pool.len() / 2).unwrap();
    let panics_at = middle.value;
    let keep = |m: &mut Mote| {
        assert!(m.value != panics_at, "a closure panics");
        m.value.is_multiple_of(2)
    };
    let mut sequential = pool.clone();
    assert!(catch_unwind(AssertUnwindSafe(|| sequential.retain(keep))).is_err());
    assert!(catch_unwind(AssertUnwindSafe(|| split_retain(pool, keep))).is_err());
    assert!(
        pool.stats().released > sequential.stats().released / 2,
        "the first half ran"
    );
    assert_eq!(pool.stats(), sequential.stats());
    assert_eq!(pool.len(), pool.iter().count());
    let live =
        |pool: &Pool<Mote, S, B>| -> Vec<_> { pool.iter().map(|(h, m)| (h, m.value)).collect() };
    assert_eq!(live(pool), live(&sequential));
    let free = pool.stats().free;
    let mut taken: Vec<_> = takes(pool).into_iter().map(Handle::index).collect();
    let mut taken_too: Vec<_> = takes(&mut sequential)
        .into_iter()
        .map(Handle::index)
        .collect();
    assert_eq!(taken.len(), free, "every free slot can be taken");
    taken.sort_unstable();
    taken_too.sort_unstable();
    assert_eq!(taken, taken_too);
    assert!(pool.is_full());
}

#[test]
fn a_panic_in_par_retain_leaves_the_pool_whole() {
    let (mut heap, mut grown, mut inline) = pools();
    check_panic(&mut heap);
    check_panic(&mut grown);
    check_panic(&mut inline);
}
