//! Engine tests that need its internals (forcing a version) or must run under Miri without
//! the derive.

use crate::{
    Evict, Evictable, Fail, Grow, Handle, Importance, PlainFields, Pool, PoolFull, PoolToken,
    Pooled, StaleHandle, Storage,
};
use alloc::sync::Arc;
use alloc::vec::Vec;
use core::marker::PhantomData;

/// A hand-written `Pooled` type: `value` is plain data, `owned` holds a reference; in a pool of
/// `N` slots up front and strategy `S`. `Send` and `Sync`, for the parallel walks' tests too.
#[derive(Clone)]
pub(crate) struct Probe<const N: usize = 4, S = Fail> {
    pub(crate) value: u32,
    pub(crate) owned: Option<Arc<u32>>,
    strategy: PhantomData<S>,
}

impl<const N: usize, S> Pooled for Probe<N, S> {
    const SIZE: usize = N;
    type Strategy = S;

    fn blank(_: PoolToken<'_, Self>) -> Self {
        Probe {
            value: 0,
            owned: None,
            strategy: PhantomData,
        }
    }

    fn reset_at_release(&mut self) {
        self.owned = None;
    }

    fn reset_at_reuse(&mut self) {
        self.value = 0;
    }
}

fn filled<B: Storage>(pool: &mut Pool<Probe, Fail, B>, value: u32) -> Handle<Probe> {
    pool.create(|p| p.value = value).unwrap()
}

#[test]
fn a_slot_whose_version_would_wrap_is_retired() {
    wrap_and_retire(Pool::<Probe>::with_capacity(1));
    wrap_and_retire(InlineProbes::<1>::new());
}

/// Runs the only slot of `pool` up to its last version, then releases it: retired.
fn wrap_and_retire<B: Storage>(mut pool: Pool<Probe, Fail, B>) {
    let first = filled(&mut pool, 1);
    pool.force_version(first, u32::MAX - 4);
    let stale_first = first;

    let old = pool.iter().next().unwrap().0;
    assert_eq!(old.version().get(), pool.version_of(u32::MAX - 4));
    pool.release(old).unwrap();

    let last = filled(&mut pool, 2);
    assert_eq!(
        last.version().get(),
        pool.version_of(u32::MAX - 2),
        "the last version"
    );
    assert!(pool.get(old).is_none());
    assert!(pool.get(stale_first).is_none());

    pool.release(last).unwrap();
    assert!(pool.is_full(), "the retired slot is not reused");
    assert_eq!(
        pool.create(|_| {}),
        Err(PoolFull::new(1)),
        "a retired slot never comes back"
    );
    for handle in [old, last, stale_first] {
        assert!(!pool.contains(handle));
        assert_eq!(pool.release(handle), Err(StaleHandle::new(handle)));
    }
    assert!(pool.lender().try_acquire(|_| {}).is_err());
    let stats = pool.stats();
    assert_eq!((stats.live, stats.free, stats.retired), (0, 0, 1));
    assert_eq!(pool.iter().count(), 0, "a retired slot is never iterated");
}

#[test]
fn release_all_retires_slots_at_the_last_version() {
    let mut pool = Pool::<Probe>::with_capacity(2);
    let wrapping = filled(&mut pool, 1);
    let other = filled(&mut pool, 2);
    pool.force_version(wrapping, u32::MAX - 2);
    pool.release_all();

    assert_eq!(pool.stats().retired, 1);
    assert_eq!(pool.stats().free, 1);
    let again = filled(&mut pool, 3);
    assert_eq!(again.index(), other.index());
    assert!(pool.is_full());
}

#[test]
fn freed_slots_are_reused_last_in_first_out() {
    let mut pool = Pool::<Probe>::new();
    let handles: Vec<_> = (0..4).map(|v| filled(&mut pool, v)).collect();
    assert_eq!(
        handles.iter().map(|h| h.index()).collect::<Vec<_>>(),
        [0, 1, 2, 3]
    );
    pool.release(handles[1]).unwrap();
    pool.release(handles[3]).unwrap();
    assert_eq!(filled(&mut pool, 9).index(), 3);
    assert_eq!(filled(&mut pool, 9).index(), 1);
}

#[test]
fn iteration_crosses_occupancy_words() {
    let mut pool = Pool::<Probe>::with_capacity(200);
    let handles: Vec<_> = (0..200).map(|v| filled(&mut pool, v)).collect();
    for handle in &handles {
        if ![0, 63, 64, 127, 128, 199].contains(&handle.index()) {
            pool.release(*handle).unwrap();
        }
    }
    let seen: Vec<(usize, u32)> = pool.iter().map(|(h, p)| (h.index(), p.value)).collect();
    assert_eq!(
        seen,
        [
            (0, 0),
            (63, 63),
            (64, 64),
            (127, 127),
            (128, 128),
            (199, 199)
        ]
    );
    assert_eq!(pool.iter().size_hint(), (6, Some(6)));
    assert_eq!(pool.iter_mut().len(), 6);
    for (_, probe) in &mut pool {
        probe.value += 1000;
    }
    let values: Vec<u32> = pool.iter().map(|(_, p)| p.value).collect();
    assert_eq!(values, [1000, 1063, 1064, 1127, 1128, 1199]);
}

/// The soak's finding: the free list's room, which growing raises to the new capacity, goes
/// back down with the chunks `shrink` gives back, so that a pool that grew and shrank back
/// holds what it held before (but for its table of chunk positions).
#[test]
fn shrinking_gives_back_the_free_lists_room() {
    let mut pool = Pool::<Probe, Grow>::with_capacity(100);
    assert_eq!(pool.books().free_room(), 100);
    // Under Miri, fewer: 250 still grow two chunks past the first, which `shrink` gives back.
    let count = if cfg!(miri) { 250 } else { 500 };
    let handles: Vec<_> = (0..count)
        .map(|v| pool.create(|p| p.value = v).unwrap())
        .collect();
    assert!(pool.books().free_room() >= pool.capacity());
    let grown = pool.capacity();
    for &handle in &handles[100..] {
        pool.release(handle).unwrap();
    }
    assert_eq!(pool.shrink(), grown - 100);
    assert_eq!(pool.books().free_room(), 100);
    assert!(handles[..100].iter().all(|&h| pool.contains(h)));
    pool.check_consistency().unwrap();
    for &handle in &handles[..100] {
        pool.release(handle).unwrap();
    }
    assert_eq!(pool.create_many(100, |_, _| {}), 100);
}

/// `create` raises the high water mark only when the free list is shorter than the floor it
/// keeps; a lender, which may grow the pool and lend, makes the floor unknown. Here a lender
/// grows a full pool and a lease becomes live; after it, the fourth object in use must raise the
/// mark from 3 to 4 (a floor kept from before the growth, 0, would miss it).
#[test]
fn the_high_water_mark_follows_a_pool_grown_through_its_lender() {
    let mut pool = Pool::<Probe, Grow>::with_capacity(2);
    let a = pool.create(|p| p.value = 1).unwrap();
    let _b = pool.create(|p| p.value = 2).unwrap();
    {
        let lender = pool.lender();
        let lease = lender.acquire(|p| p.value = 3).unwrap();
        let _kept = lease.into_handle();
    }
    assert!(pool.capacity() >= 4, "grew by more than one slot");
    assert_eq!(pool.stats().high_water, 3);
    pool.release(a).unwrap();
    pool.create(|p| p.value = 4).unwrap();
    assert_eq!(pool.stats().high_water, 3);
    pool.create(|p| p.value = 5).unwrap();
    assert_eq!((pool.len(), pool.stats().high_water), (4, 4));
    let mut copy = pool.clone();
    copy.create(|p| p.value = 6).unwrap();
    assert_eq!(copy.stats().high_water, 5);
    pool.check_consistency().unwrap();
}

/// Full words are walked whole (`WalkMut`): the mutable walks, by `next` and by `fold`, started
/// fresh or part-way, yield what the shared walk does, on words full, partly full and empty,
/// the last word short, and chunks grown past the first.
#[test]
fn mutable_walks_take_full_words_whole_and_agree_with_the_shared_walk() {
    let mut pool = Pool::<Probe, Grow>::with_capacity(200);
    let mut handles: Vec<_> = (0..200)
        .map(|v| pool.create(|p| p.value = v).unwrap())
        .collect();
    // Grown chunks: 200 more slots, in chunks of their own.
    handles.extend((200..400).map(|v| pool.create(|p| p.value = v).unwrap()));
    assert!(pool.stats().chunks > 1);
    // Word 1 (64..128) partly live, word 4 (256..320) empty; the rest full.
    for handle in &handles {
        let index = handle.index();
        if (64..128).contains(&index) && index % 3 == 0 || (256..320).contains(&index) {
            pool.release(*handle).unwrap();
        }
    }
    let expected: Vec<(usize, u32)> = pool.iter().map(|(h, p)| (h.index(), p.value)).collect();
    assert_eq!(expected.len(), pool.len());
    assert_eq!(expected.len(), 400 - 21 - 64);

    let by_next: Vec<(usize, u32)> = pool.iter_mut().map(|(h, p)| (h.index(), p.value)).collect();
    assert_eq!(by_next, expected);
    let mut by_fold = Vec::new();
    pool.iter_mut()
        .for_each(|(h, p)| by_fold.push((h.index(), p.value)));
    assert_eq!(by_fold, expected);
    let values = pool.values_mut().fold(Vec::new(), |mut all, p| {
        all.push(p.value);
        all
    });
    assert_eq!(values, expected.iter().map(|&(_, v)| v).collect::<Vec<_>>());

    // Part-way: inside a full word, at its end, and inside a partly live one (under Miri, one
    // of each: the same branches of the walk).
    let takes: &[usize] = if cfg!(miri) {
        &[10, 63, 64, 100]
    } else {
        &[1, 10, 63, 64, 65, 100]
    };
    for taken in takes.iter().copied().chain([expected.len()]) {
        let mut iter = pool.iter_mut();
        let mut seen: Vec<(usize, u32)> = iter
            .by_ref()
            .take(taken)
            .map(|(h, p)| (h.index(), p.value))
            .collect();
        iter.for_each(|(h, p)| seen.push((h.index(), p.value)));
        assert_eq!(seen, expected, "after {taken} by `next`");
    }

    for p in pool.values_mut() {
        p.value += 1000;
    }
    pool.values_mut().for_each(|p| p.value += 1000);
    let doubled: Vec<u32> = pool.values().map(|p| p.value).collect();
    assert_eq!(
        doubled,
        expected.iter().map(|&(_, v)| v + 2000).collect::<Vec<_>>()
    );
}

#[test]
fn a_zero_capacity_pool_is_always_full() {
    let mut pool = Pool::<Probe>::with_capacity(0);
    assert!(pool.is_full() && pool.is_empty());
    assert_eq!(pool.create(|_| {}), Err(PoolFull::new(0)));
    assert_eq!(pool.iter().count(), 0);
}

#[test]
fn a_handle_past_the_capacity_is_stale() {
    let mut big = Pool::<Probe>::with_capacity(10);
    let far = (0..10).map(|v| filled(&mut big, v)).last().unwrap();
    let mut small = Pool::<Probe>::with_capacity(2);
    assert!(small.get(far).is_none());
    assert!(small.get_mut(far).is_none());
    assert_eq!(small.release(far), Err(StaleHandle::new(far)));
}

#[test]
fn references_are_let_go_at_release_and_plain_data_reset_at_reuse() {
    let shared = Arc::new(0);
    let mut pool = Pool::<Probe>::with_capacity(1);
    let handle = pool
        .create(|p| {
            p.value = 7;
            p.owned = Some(Arc::clone(&shared));
        })
        .unwrap();
    assert_eq!(Arc::strong_count(&shared), 2);
    pool.release(handle).unwrap();
    assert_eq!(Arc::strong_count(&shared), 1, "let go at release");

    let reused = pool.create(|_| {}).unwrap();
    assert_eq!(pool.get(reused).unwrap().value, 0, "reset before init");
}

#[test]
fn objects_held_through_shared_borrows_interleave_with_iteration() {
    let mut pool = Pool::<Probe>::new();
    let a = filled(&mut pool, 1);
    let b = filled(&mut pool, 2);
    let first = pool.get(a).unwrap();
    let mut iter = pool.iter();
    let (_, second) = iter.nth(1).unwrap();
    assert_eq!(first.value + second.value, 3);
    assert_eq!(pool.get(b).unwrap().value, 2);
    let total: u32 = pool.iter().map(|(_, p)| p.value).sum();
    assert_eq!(total, 3);
}

#[test]
fn a_panicking_init_returns_the_slot_reset() {
    extern crate std;
    let shared = Arc::new(0);
    let mut pool = Pool::<Probe>::with_capacity(1);
    let outcome = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        pool.create(|p| {
            p.owned = Some(Arc::clone(&shared));
            panic!("init failed");
        })
    }));
    assert!(outcome.is_err());
    assert_eq!(
        Arc::strong_count(&shared),
        1,
        "the half-built object let go"
    );
    let stats = pool.stats();
    assert_eq!((stats.live, stats.free, stats.high_water), (0, 1, 0));
    filled(&mut pool, 1);
    assert!(pool.is_full());
    // The mark raised before `init` was lowered, and the floor set with it forgotten: this
    // create raised the mark again.
    assert_eq!(pool.stats().high_water, 1);
}

/// A chunk's objects lie side by side, as in a slice, their words apart: a run of live objects
/// is a slice, and a slot costs its object, 8 bytes and a bit.
#[test]
fn objects_lie_side_by_side_and_their_words_apart() {
    let mut pool = Pool::<Probe>::with_capacity(200);
    let handles: Vec<_> = (0..200).map(|v| filled(&mut pool, v)).collect();
    let address = |h: Handle<Probe>| core::ptr::from_ref(pool.get(h).unwrap()).addr();
    for pair in handles.windows(2) {
        assert_eq!(address(pair[1]) - address(pair[0]), size_of::<Probe>());
    }
    let inline = {
        let mut inline = InlineProbes::<4>::new();
        let a = inline.create(|_| {}).unwrap();
        let b = inline.create(|_| {}).unwrap();
        core::ptr::from_ref(inline.get(b).unwrap()).addr()
            - core::ptr::from_ref(inline.get(a).unwrap()).addr()
    };
    assert_eq!(inline, size_of::<Probe>());
}

/// `Probe` that grows from 3 slots up to 10, in chunks of 4.
type Grower = Probe<3, Grow<10>>;

fn grown(pool: &mut Pool<Grower>, value: u32) -> Handle<Grower> {
    pool.create(|g| g.value = value).unwrap()
}

#[test]
fn growth_adds_chunks_that_iteration_and_lookups_cross() {
    let mut pool = Pool::<Grower>::new();
    let handles: Vec<_> = (0..10).map(|v| grown(&mut pool, v)).collect();
    assert_eq!(pool.capacity(), 10);
    assert_eq!(
        pool.stats().chunks,
        3,
        "3 up front, then 4, then the 3 left to 10"
    );
    assert!(pool.create(|_| {}).is_err());
    let indices: Vec<usize> = handles.iter().map(|h| h.index()).collect();
    assert_eq!(indices, (0..10).collect::<Vec<_>>());
    for (value, handle) in (0..).zip(&handles) {
        assert_eq!(pool.get(*handle).unwrap().value, value);
    }
    for (_, g) in &mut pool {
        g.value *= 2;
    }
    let values: Vec<u32> = pool.iter().map(|(_, g)| g.value).collect();
    assert_eq!(values, [0, 2, 4, 6, 8, 10, 12, 14, 16, 18]);
    pool.retain(|g| g.value % 4 == 0);
    assert_eq!(pool.len(), 5);
    pool.release_all();
    assert_eq!(pool.stats().free, 10);
}

#[test]
fn a_regrown_chunk_starts_past_the_versions_of_the_one_it_replaces() {
    let mut pool = Pool::<Grower>::new();
    let mut handles: Vec<_> = (0..7).map(|v| grown(&mut pool, v)).collect();
    // Churn slot 5 so that its version runs ahead of the rest of its chunk.
    for round in 0..5 {
        pool.release(handles[5]).unwrap();
        handles[5] = grown(&mut pool, 100 + round);
    }
    assert_eq!(
        handles[5].version().get(),
        pool.version_of(11),
        "the sixth life"
    );
    let old: Vec<_> = handles[3..7].to_vec();
    for handle in &old {
        pool.release(*handle).unwrap();
    }
    assert_eq!(pool.shrink(), 4);
    assert_eq!(pool.capacity(), 3);

    let regrown: Vec<_> = (0..4).map(|v| grown(&mut pool, v)).collect();
    for handle in &regrown {
        let version = handle.version().get().wrapping_sub(pool.version_of(0));
        assert!(version >= 13, "{handle:?}");
    }
    for handle in &old {
        assert!(!pool.contains(*handle));
    }
}

#[test]
fn a_chunk_with_a_retired_slot_is_never_given_back() {
    let mut pool = Pool::<Grower>::new();
    let handles: Vec<_> = (0..4).map(|v| grown(&mut pool, v)).collect();
    pool.force_version(handles[3], u32::MAX - 2);
    for handle in &handles[..3] {
        pool.release(*handle).unwrap();
    }
    let retiring = pool.iter().next().unwrap().0;
    pool.release(retiring).unwrap();
    assert_eq!(pool.stats().retired, 1);
    assert_eq!(pool.shrink(), 0);
    assert_eq!(pool.capacity(), 7);
}

/// `Probe` ranked by its value, for eviction.
type Voice = Probe<4, Evict>;

impl Evictable for Voice {
    fn importance(&self) -> impl Importance + use<> {
        self.value
    }
}

#[test]
fn evicting_takes_the_least_important_object() {
    let mut pool = Pool::<Voice>::new();
    let handles: Vec<_> = [5, 1, 7, 1]
        .into_iter()
        .map(|v| pool.create(|p| p.value = v))
        .collect();
    assert_eq!(pool.victim(), Some(handles[1]), "the lowest slot of equals");
    let new = pool.create(|p| p.value = 9);
    assert_eq!(new.index(), handles[1].index());
    assert!(!pool.contains(handles[1]) && pool.contains(handles[3]));
    assert_eq!(pool.stats().evicted, 1);
}

#[test]
fn leases_mutate_and_return_in_any_order_beside_shared_borrows() {
    let mut pool = Pool::<Probe>::with_capacity(6);
    let a = filled(&mut pool, 1);
    let b = filled(&mut pool, 2);
    let shared = Arc::new(0);
    let kept = {
        let lender = pool.lender();
        let read_a = lender.get(a).unwrap();
        let mut leases: Vec<_> = (10..14)
            .map(|v| lender.acquire(|p| p.value = v).unwrap())
            .collect();
        for lease in &mut leases {
            lease.value += 100;
            lease.owned = Some(Arc::clone(&shared));
        }
        let read_b = lender.get(b).unwrap();
        assert_eq!(read_a.value + read_b.value, 3);
        assert_eq!(
            leases.iter().map(|l| l.value).collect::<Vec<_>>(),
            [110, 111, 112, 113]
        );
        assert!(lender.acquire(|_| {}).is_err());
        assert_eq!(Arc::strong_count(&shared), 5);
        assert_eq!(lender.stats().leased, 4);

        // Back out of order: the last, the first, then the middle two.
        drop(leases.pop());
        drop(leases.remove(0));
        let kept = leases.pop().unwrap().into_handle();
        assert_eq!(lender.get(kept).unwrap().value, 112);
        let total: u32 = lender.iter().map(|(_, p)| p.value).sum();
        assert_eq!(total, 115);
        drop(leases);
        kept
    };
    assert_eq!(
        Arc::strong_count(&shared),
        2,
        "only the kept object holds it"
    );
    assert_eq!(pool.stats().leased, 0);
    pool.release(kept).unwrap();
    assert_eq!(Arc::strong_count(&shared), 1);
    assert_eq!(pool.stats().free, 4);
    pool.check_consistency().unwrap();
}

#[test]
fn a_lease_can_grow_the_pool_while_objects_and_chunks_are_borrowed() {
    let mut pool = Pool::<Grower>::new();
    let first = grown(&mut pool, 7);
    let kept: Vec<_> = {
        let lender = pool.lender();
        let read = lender.get(first).unwrap();
        let mut chunks_walk = lender.iter();
        let leases: Vec<_> = (0..9)
            .map(|v| lender.acquire(|g| g.value = v).unwrap())
            .collect();
        assert_eq!(lender.stats().chunks, 3);
        assert!(lender.acquire(|_| {}).is_err());
        assert_eq!(read.value, 7);
        assert_eq!(chunks_walk.next().map(|(h, _)| h), Some(first));
        assert!(chunks_walk.next().is_none());
        let sum: u32 = leases.iter().map(|l| l.value).sum();
        assert_eq!(sum, 36);
        let kept: Vec<_> = leases.into_iter().map(crate::Lease::into_handle).collect();
        assert_eq!(lender.iter().count(), 10);
        kept
    };
    for handle in kept {
        pool.release(handle).unwrap();
    }
    pool.release(first).unwrap();
    assert_eq!(pool.shrink(), 7);
    pool.check_consistency().unwrap();
}

#[test]
fn growing_fills_a_place_in_the_chunk_table_an_iterator_is_walking() {
    let mut pool = Pool::<Grower>::new();
    let handles: Vec<_> = (0..4).map(|v| grown(&mut pool, v)).collect();
    assert_eq!(
        pool.stats().chunks,
        2,
        "the table exists, its second place empty"
    );
    let lender = pool.lender();
    let mut walk = lender.iter();
    let (first, _) = walk.next().unwrap();
    let in_grown_chunk = lender.get(handles[3]).unwrap();
    let leases: Vec<_> = (0..6)
        .map(|v| lender.acquire(|g| g.value = v).unwrap())
        .collect();
    assert_eq!(lender.stats().chunks, 3, "the second place was filled");
    assert_eq!(first, handles[0]);
    let rest: Vec<_> = walk.map(|(h, g)| (h, g.value)).collect();
    assert_eq!(rest, [(handles[1], 1), (handles[2], 2), (handles[3], 3)]);
    assert_eq!(in_grown_chunk.value, 3);
    assert_eq!(leases.iter().map(|l| l.value).sum::<u32>(), 15);
}

/// Finding 1 of the thread-safety issue, single-threaded: iterating through a lender while its
/// leases build slots and turn into handles. The walk sees built slots only, and under Miri
/// every object it reaches is initialised and not borrowed mutably.
#[test]
fn iterating_a_lender_while_its_leases_build_slots_reads_only_built_ones() {
    let mut pool = Pool::<Probe, Fail, crate::Inline<128, 2>>::new();
    for v in 0..10 {
        pool.create(|p| p.value = v).unwrap();
    }
    let lender = pool.lender();
    let mut seen = Vec::new();
    for (i, (handle, probe)) in lender.iter().enumerate() {
        if i == 0 {
            for v in 0..60 {
                lender.acquire(|p| p.value = 100 + v).unwrap().into_handle();
            }
        }
        seen.push((handle.index(), probe.value));
    }
    // The first word's bits were read before the leases set theirs; those of slots 64 to 69
    // are in the next word, read after.
    assert_eq!(
        seen.len(),
        16,
        "the words ahead of the walk are read as it reaches them"
    );
    assert_eq!(
        &seen[10..],
        &(64..70u32)
            .map(|i| (i as usize, 90 + i))
            .collect::<Vec<_>>()[..]
    );
    assert_eq!(
        &seen[..10],
        &(0..10).map(|v| (v as usize, v)).collect::<Vec<_>>()[..]
    );
    assert_eq!(lender.len(), 70);
    pool.check_consistency().unwrap();
}

/// An object whose reset panics when it holds 13.
struct Brittle(u32);

impl Pooled for Brittle {
    const SIZE: usize = 2;
    type Strategy = Fail;

    fn blank(_: PoolToken<'_, Self>) -> Self {
        Brittle(0)
    }

    fn reset_at_release(&mut self) {
        assert_ne!(self.0, 13, "unlucky reset");
        self.0 = 0;
    }

    fn reset_at_reuse(&mut self) {}
}

#[test]
fn a_reset_that_panics_in_a_lease_drop_retires_the_slot() {
    extern crate std;
    let mut pool = Pool::<Brittle>::new();
    let outcome = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        let lender = pool.lender();
        let lease = lender.acquire(|b| b.0 = 13).unwrap();
        drop(lease);
    }));
    assert!(outcome.is_err());
    let stats = pool.stats();
    assert_eq!(
        (stats.live, stats.leased, stats.free, stats.retired),
        (0, 0, 1, 1),
        "the half-reset object is out of use, counted"
    );
    assert_eq!((stats.created, stats.released), (1, 1));
    assert_eq!(pool.iter().count(), 0, "and seen by no one");
    pool.check_consistency().unwrap();
    let other = pool.create(|b| b.0 = 1).unwrap();
    assert_eq!(other.index(), 1, "the other slot is used");
    assert!(pool.create(|_| {}).is_err());
}

/// Found by the fuzzer: an inline pool drew its versions' offset when its first slot was built,
/// inside a lender made before, which counted retirement from the offset of before; a lease
/// whose reset panicked then retired its slot at a version that meant nothing, and the slot was
/// lost (neither free nor retired).
#[test]
fn a_lease_that_retires_the_first_slot_of_an_inline_pool_retires_it_at_its_offset() {
    extern crate std;
    // Another pool draws an offset first, so that this one's is not the first, 0.
    drop(Pool::<Probe>::with_capacity(1));
    let mut pool = Pool::<Brittle, Fail, crate::Inline<2, 1>>::new();
    let outcome = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        drop(pool.lender().acquire(|b| b.0 = 13));
    }));
    assert!(outcome.is_err());
    pool.check_consistency().unwrap();
    assert_eq!((pool.stats().retired, pool.stats().free), (1, 1));
    assert_eq!(pool.create(|b| b.0 = 1).map(crate::Handle::index), Ok(1));
}

#[test]
fn a_released_slot_is_not_iterated_and_a_lease_in_it_only_once_kept() {
    let mut pool = Pool::<Probe>::with_capacity(2);
    let a = filled(&mut pool, 1);
    let b = filled(&mut pool, 2);
    pool.release(a).unwrap();
    let kept = {
        let lender = pool.lender();
        let lease = lender.acquire(|p| p.value = 3).unwrap();
        assert_eq!(
            lender.iter().map(|(h, _)| h).collect::<Vec<_>>(),
            [b],
            "neither the released object nor the lease now in its slot is iterated"
        );
        let kept = lease.into_handle();
        let values: Vec<u32> = lender.iter().map(|(_, p)| p.value).collect();
        assert_eq!(values, [3, 2]);
        kept
    };
    assert_eq!(kept.index(), a.index());
    pool.release(b).unwrap();
    assert_eq!(pool.iter_mut().count(), 1);
    pool.retain(|_| true);
    assert_eq!(pool.iter().count(), 1);
}

#[test]
fn no_handle_reaches_a_slot_without_a_live_object_whatever_its_version() {
    use core::num::NonZeroU32;
    let mut pool = Pool::<Probe>::with_capacity(4);
    let live = filled(&mut pool, 1);
    let released = filled(&mut pool, 2);
    pool.release(released).unwrap();
    let first = pool.version_of(0);
    let handles = || {
        (0..6).flat_map(move |index| {
            (1..32).step_by(2).map(move |step| {
                let version = NonZeroU32::new(first.wrapping_add(step)).unwrap_or(NonZeroU32::MIN);
                Handle::new(index, version)
            })
        })
    };
    {
        let lender = pool.lender();
        let mut lease = lender.acquire(|p| p.value = 3).unwrap();
        // The free list is last in, first out: the lease holds the released slot, 1.
        assert_eq!(released.index(), 1);
        assert_eq!(
            lender.acquire(|_| {}).map(|_| ()),
            Ok(()),
            "and slots 2 and 3 are free"
        );
        // Every handle carries an odd version (`Handle::new` insists): try each odd one near
        // the pool's start.
        let reached: Vec<_> = handles()
            .filter(|&h| lender.get(h).is_some() || lender.contains(h))
            .collect();
        lease.value += 1;
        assert_eq!(
            reached,
            [live],
            "only the live object's own handle reaches it"
        );
    }
    let reached: Vec<_> = handles()
        .filter(|&h| pool.get(h).is_some() || pool.contains(h))
        .collect();
    assert_eq!(reached, [live]);
    for handle in handles().filter(|h| h.index() == 1) {
        assert!(pool.release(handle).is_err(), "{handle:?}");
    }
    assert_eq!(pool.len(), 1);
    assert_eq!(pool.stats().free, 3);
}

#[test]
fn pools_start_their_versions_far_apart() {
    // A handle from another pool matches a live object only if one of the two slots was filled
    // at least half this many times more than the other.
    // Arithmetic only, no unsafe code: Miri, which sorts the thousand offsets in four seconds,
    // checks the hundred; `cargo test` checks both.
    if !cfg!(miri) {
        assert!(crate::slot::offset::smallest_gap(1_000) >= 3_000_000);
    }
    assert!(crate::slot::offset::smallest_gap(100) >= 13_000_000);
    let a = Pool::<Probe>::with_capacity(1);
    let b = Pool::<Probe>::with_capacity(1);
    assert_ne!(a.version_of(0), b.version_of(0));
    assert_eq!(a.version_of(0) % 2, 0, "a slot starts free: even");
}

type InlineProbes<const N: usize> = Pool<Probe, Fail, crate::Inline<N, 1>>;

#[test]
fn inline_slots_are_built_through_shared_borrows_of_the_others() {
    let shared = Arc::new(0);
    let mut pool = InlineProbes::<4>::new();
    let a = pool.create(|p| p.value = 1).unwrap();
    let kept = {
        let lender = pool.lender();
        let first = lender.get(a).unwrap();
        let mut iter = lender.iter();
        // Each lease builds a slot past every one borrowed.
        let mut b = lender.try_acquire(|p| p.value = 2).unwrap();
        let c = lender
            .try_acquire(|p| p.owned = Some(Arc::clone(&shared)))
            .unwrap();
        b.value += 10;
        assert_eq!(iter.next().map(|(_, p)| p.value), Some(1));
        assert_eq!(first.value + b.value + c.value, 13);
        let kept = b.into_handle();
        drop(c);
        assert_eq!(
            Arc::strong_count(&shared),
            1,
            "let go when the lease went back"
        );
        assert_eq!(lender.get(kept).map(|p| p.value), Some(12));
        kept
    };
    assert_eq!(pool.get(kept).map(|p| p.value), Some(12));
    assert_eq!(pool.stats().free, 2);
    pool.check_consistency().unwrap();
}

#[test]
fn an_inline_pool_drops_and_clones_only_its_built_slots() {
    let shared = Arc::new(0);
    let mut pool = InlineProbes::<4>::new();
    let a = pool
        .create(|p| p.owned = Some(Arc::clone(&shared)))
        .unwrap();
    let b = pool.create(|p| p.value = 2).unwrap();
    pool.release(b).unwrap();
    // A lease forgotten: its slot stays lent, and is free in a copy.
    core::mem::forget(pool.lender().try_acquire(|p| p.value = 3).unwrap());
    let copy = pool.clone();
    assert_eq!(Arc::strong_count(&shared), 3);
    assert_eq!((copy.stats().free, copy.stats().leased), (3, 0));
    assert_eq!((pool.stats().free, pool.stats().leased), (2, 1));
    assert!(copy.get(a).is_some_and(|p| p.owned.is_some()));
    copy.check_consistency().unwrap();
    pool.check_consistency().unwrap();
    drop(pool);
    drop(copy);
    assert_eq!(Arc::strong_count(&shared), 1);
}

/// Plain data only, which reuse resets: a kernel may write in its free slots.
struct Dust(u32);

impl Pooled for Dust {
    const SIZE: usize = 100;
    const RESETS_AT_RELEASE: bool = false;
    type Strategy = Grow<300>;

    fn blank(_: PoolToken<'_, Self>) -> Self {
        Dust(0)
    }

    fn reset_at_release(&mut self) {}

    fn reset_at_reuse(&mut self) {
        self.0 = 0;
    }
}

impl PlainFields for Dust {}

#[test]
fn groups_hand_out_each_stretch_of_words_with_live_slots_whole_and_reuse_resets_what_free_slots_got()
 {
    let mut pool = Pool::<Dust>::new();
    let handles: Vec<_> = (1..=250)
        .map(|v| pool.create(|d| d.0 = v).unwrap())
        .collect();
    for (at, &handle) in handles.iter().enumerate() {
        if at % 3 == 0 || (64..128).contains(&at) {
            pool.release(handle).unwrap();
        }
    }
    let (mut seen, mut lens) = (Vec::new(), Vec::new());
    for (live, group) in pool.groups_mut() {
        lens.push(group.len());
        for (i, dust) in group.iter_mut().enumerate() {
            if live[i / 64] >> (i % 64) & 1 == 1 {
                seen.push(dust.0);
            } else {
                dust.0 = u32::MAX;
            }
        }
    }
    let values: Vec<u32> = pool.values().map(|d| d.0).collect();
    assert_eq!(seen, values, "the masks' live slots are the live objects");
    // [0, 64), then each grown chunk's from its start ([100, 228), [228, 292)): a group ends
    // at a chunk's end; [64, 100) is all free and [292, 300) never used.
    assert_eq!(
        (lens.as_slice(), pool.capacity()),
        (&[64, 128, 64][..], 300)
    );
    while let Ok(handle) = pool.create(|_| {}) {
        assert_eq!(pool.get(handle).unwrap().0, 0, "a reused slot is blank");
    }
    assert_eq!(pool.len(), 300);
}
