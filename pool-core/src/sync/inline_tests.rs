//! Sync pools with inline storage: a `const`-built pool whose objects are built on first use,
//! shared from a `static`, with no allocation in the pool itself.

use super::{SyncLease, SyncPool};
use crate::{Fail, Handle, Inline, PoolToken, Pooled};
use core::sync::atomic::{AtomicUsize, Ordering};
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::thread;

/// Counts the blank objects built and the objects dropped, per test (each test its own type
/// of counters through `K`), and can make the next build panic.
struct Frame<const K: usize> {
    marker: u64,
    bytes: std::vec::Vec<u8>,
}

static BUILT: [AtomicUsize; 4] = [const { AtomicUsize::new(0) }; 4];
static DROPPED: [AtomicUsize; 4] = [const { AtomicUsize::new(0) }; 4];
static PANIC_AT_BUILD: [AtomicUsize; 4] = [const { AtomicUsize::new(usize::MAX) }; 4];

impl<const K: usize> Pooled for Frame<K> {
    const SIZE: usize = 4;
    type Strategy = Fail;

    fn blank(_: PoolToken<'_, Self>) -> Self {
        let built = BUILT[K].fetch_add(1, Ordering::Relaxed);
        assert_ne!(
            built,
            PANIC_AT_BUILD[K].load(Ordering::Relaxed),
            "blank panicked"
        );
        Frame {
            marker: 0,
            bytes: std::vec::Vec::new(),
        }
    }

    fn reset_at_release(&mut self) {
        self.bytes.clear();
    }

    fn reset_at_reuse(&mut self) {
        self.marker = 0;
    }
}

impl<const K: usize> Drop for Frame<K> {
    fn drop(&mut self) {
        DROPPED[K].fetch_add(1, Ordering::Relaxed);
    }
}

type Frames<const K: usize> = SyncPool<Frame<K>, Fail, Inline<4, 1>>;

static SHARED: Frames<0> = Frames::new();

#[test]
fn a_static_pool_builds_each_object_on_first_use_and_lends_static_leases() {
    assert_eq!(BUILT[0].load(Ordering::Relaxed), 0, "`new` built nothing");
    let first = SHARED.create(|f| f.marker = 1).unwrap();
    assert_eq!(BUILT[0].load(Ordering::Relaxed), 1);
    SHARED.release(first).unwrap();
    let again = SHARED.create(|f| f.marker = 2).unwrap();
    assert_eq!(again.index(), first.index(), "the slot is reused");
    assert_eq!(BUILT[0].load(Ordering::Relaxed), 1, "and its object");
    assert!(SHARED.get(first).is_none());

    // A lease of a `static` pool is `'static` and `Send`: it goes to a thread and back there.
    let mut lease: SyncLease<'static, Frame<0>> = SHARED.acquire(|f| f.marker = 3).unwrap();
    lease.bytes.push(9);
    thread::spawn(move || assert_eq!((lease.marker, lease.bytes.len()), (3, 1)))
        .join()
        .unwrap();
    let workers: std::vec::Vec<_> = (0..2u64)
        .map(|worker| {
            thread::spawn(move || {
                for n in 0..crate::sync::tests_scale(200) {
                    let h = SHARED.create(|f| f.marker = worker << 32 | n).unwrap();
                    assert_eq!(SHARED.get(h).unwrap().marker, worker << 32 | n);
                    SHARED.release(h).unwrap();
                }
            })
        })
        .collect();
    for worker in workers {
        worker.join().unwrap();
    }
    let stats = SHARED.stats();
    assert_eq!((stats.live, stats.leased, stats.free), (1, 0, 3));
    assert_eq!(stats.created, stats.released + 1);
    assert!(BUILT[0].load(Ordering::Relaxed) <= 4);
    SHARED.check_consistency().unwrap();
}

#[test]
fn dropping_the_pool_drops_the_objects_built_and_no_other() {
    let pool = Frames::<1>::new();
    let kept = pool.create(|f| f.bytes.push(1)).unwrap();
    let lease = pool.acquire(|_| {}).unwrap();
    core::mem::forget(lease); // its object stays in the pool, lent
    assert_eq!(pool.get(kept).unwrap().bytes, [1]);
    assert_eq!(BUILT[1].load(Ordering::Relaxed), 2, "two of four built");
    drop(pool);
    assert_eq!(
        DROPPED[1].load(Ordering::Relaxed),
        2,
        "each built object dropped once"
    );
}

#[test]
fn a_blank_object_that_panics_voids_its_slot_and_the_rest_work() {
    PANIC_AT_BUILD[2].store(1, Ordering::Relaxed);
    let pool = Frames::<2>::new();
    let first = pool.create(|_| {}).unwrap();
    let panicked = catch_unwind(AssertUnwindSafe(|| pool.create(|_| {})));
    assert!(panicked.is_err(), "the second build panicked");
    let third = pool.create(|_| {}).unwrap();
    let fourth = pool.create(|_| {}).unwrap();
    assert_ne!(third.index(), fourth.index());
    assert!(
        pool.create(|_| {}).is_err(),
        "three slots left in use, one void"
    );
    let stats = pool.stats();
    assert_eq!((stats.live, stats.retired, stats.free), (3, 1, 0));
    pool.check_consistency().unwrap();
    for handle in [first, third, fourth] {
        pool.release(handle).unwrap();
    }
    drop(pool);
    assert_eq!(
        (
            BUILT[2].load(Ordering::Relaxed),
            DROPPED[2].load(Ordering::Relaxed)
        ),
        (4, 3),
        "the panicked build left nothing to drop"
    );
}

#[test]
fn a_handle_whose_version_matches_only_in_its_low_bits_is_refused() {
    let pool = Frames::<3>::new();
    let live = pool.create(|f| f.marker = 5).unwrap();
    // Another object's version, equal in the bits a 32-bit state word keeps (its stamp).
    let version = live.version().get().wrapping_add(1 << 21);
    let forged =
        Handle::<Frame<3>>::from_bits(u64::from(version) << 32 | live.index() as u64).unwrap();
    assert!(pool.get(forged).is_none());
    assert!(!pool.contains(forged));
    assert!(pool.release(forged).is_err());
    assert_eq!(
        pool.get(live).unwrap().marker,
        5,
        "the live object is untouched"
    );
    let other = Frames::<3>::new();
    let theirs = other.create(|_| {}).unwrap();
    assert_eq!(theirs.index(), live.index());
    assert!(
        pool.get(theirs).is_none(),
        "another inline pool's versions start elsewhere"
    );
    pool.check_consistency().unwrap();
}

#[test]
fn a_slot_whose_versions_run_out_is_retired() {
    let pool = SyncPool::<Frame<3>, Fail, Inline<1, 1>>::new();
    let first = pool.create(|_| {}).unwrap();
    pool.release(first).unwrap();
    pool.force_version(0, crate::limits::RETIRED_VERSION - 2);
    let last = pool.create(|_| {}).unwrap();
    pool.release(last).unwrap();
    assert!(pool.create(|_| {}).is_err(), "the slot is retired");
    assert_eq!(pool.stats().retired, 1);
    pool.check_consistency().unwrap();
}
