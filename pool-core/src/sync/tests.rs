//! Sync pool tests that need its internals or must run under Miri without the derive; thread
//! counts and iterations shrink under Miri.

use super::{SyncLease, SyncPool};
use crate::{Fail, Handle, Panic, PoolToken, Pooled, StaleHandle};
use alloc::sync::Arc;
use alloc::vec::Vec;
use core::cell::Cell;
use core::sync::atomic::{AtomicUsize, Ordering};
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::thread;

/// `value` is plain data; `owned` holds a reference, let go on release; `resets` counts the
/// releases of the slot (kept across lives); `panic_on_reset` makes the next release panic.
struct Job {
    value: u64,
    owned: Option<Arc<()>>,
    resets: u32,
    panic_on_reset: bool,
}

impl Pooled for Job {
    const SIZE: usize = 4;
    type Strategy = Fail;

    fn blank(_: PoolToken<'_, Self>) -> Self {
        Job {
            value: 0,
            owned: None,
            resets: 0,
            panic_on_reset: false,
        }
    }

    fn reset_at_release(&mut self) {
        self.resets += 1;
        self.owned = None;
        assert!(!core::mem::take(&mut self.panic_on_reset), "reset panicked");
    }

    fn reset_at_reuse(&mut self) {
        self.value = 0;
    }
}

/// A `Pooled` type that is `Send` but not `Sync`.
pub(super) struct Unshared(pub(super) Cell<u32>);

impl Pooled for Unshared {
    const SIZE: usize = 2;
    type Strategy = Panic;

    fn blank(_: PoolToken<'_, Self>) -> Self {
        Unshared(Cell::new(0))
    }

    fn reset_at_release(&mut self) {}

    fn reset_at_reuse(&mut self) {
        self.0.set(0);
    }
}

const fn scaled(n: usize) -> usize {
    if cfg!(miri) { n / 50 + 1 } else { n }
}

fn assert_send<T: Send>() {}
fn assert_sync<T: Sync>() {}

#[test]
fn the_pool_is_sync_and_its_leases_and_guards_send() {
    assert_sync::<SyncPool<Job>>();
    assert_send::<SyncPool<Job>>();
    assert_send::<SyncLease<'static, Job>>();
    assert_send::<super::SyncGuard<'static, Job>>();
    // `Send` but not `Sync` objects: the pool is `Send`, and so is a lease.
    assert_send::<SyncPool<Unshared>>();
    assert_send::<SyncLease<'static, Unshared>>();
}

#[test]
fn create_get_release() {
    let pool = SyncPool::<Job>::new();
    let job = pool.create(|j| j.value = 7).unwrap();
    assert_eq!(job.version().get() % 2, 1, "live versions are odd");
    assert_eq!(pool.get(job).unwrap().value, 7);
    assert!(pool.contains(job));
    assert_eq!(pool.len(), 1);
    pool.release(job).unwrap();
    assert_eq!(pool.release(job), Err(StaleHandle::new(job)));
    assert!(pool.get(job).is_none());
    assert!(!pool.contains(job));

    let again = pool.create(|_| {}).unwrap();
    assert_eq!(again.index(), job.index(), "the slot is reused");
    let (second, third) = (pool.create(|_| {}).unwrap(), pool.create(|_| {}).unwrap());
    pool.release(second).unwrap();
    pool.release(third).unwrap();
    pool.create(|_| {}).unwrap();
    let stats = pool.stats();
    assert_eq!((stats.live, stats.free, stats.high_water), (2, 2, 3));
    assert_eq!((stats.created, stats.released), (5, 3));
    assert_eq!(pool.get(again).unwrap().value, 0, "reset before reuse");
    assert!(pool.get(job).is_none(), "the old handle stays stale");
}

#[test]
fn handles_from_another_pool_are_refused() {
    let ours = SyncPool::<Job>::new();
    let theirs = SyncPool::<Job>::new();
    let mine = ours.create(|j| j.value = 1).unwrap();
    let other = theirs.create(|j| j.value = 2).unwrap();
    assert_eq!(mine.index(), other.index());
    assert!(ours.get(other).is_none());
    assert!(ours.release(other).is_err());
    assert!(ours.contains(mine));
    let forged = Handle::<Job>::from_bits(1 << 32 | 0x63).unwrap();
    assert!(ours.get(forged).is_none(), "out of range");
}

#[test]
fn a_release_during_a_guard_resets_at_the_last_guard_drop() {
    let pool = SyncPool::<Job>::with_capacity(1);
    let owned = Arc::new(());
    let job = pool.create(|j| j.owned = Some(Arc::clone(&owned))).unwrap();
    let first = pool.get(job).unwrap();
    let second = pool.get(job).unwrap();
    pool.release(job).unwrap();
    assert!(pool.get(job).is_none(), "stale at once");
    assert!(pool.release(job).is_err(), "released once only");
    assert_eq!(pool.len(), 0);
    assert_eq!(pool.stats().free, 0, "not free while guards read it");
    assert!(pool.create(|_| {}).is_err());
    assert_eq!(Arc::strong_count(&owned), 2, "not reset yet");
    drop(first);
    assert_eq!(Arc::strong_count(&owned), 2, "one guard is still out");
    assert!(second.owned.is_some());
    drop(second);
    assert_eq!(Arc::strong_count(&owned), 1, "reset at the last drop");
    let next = pool.create(|_| {}).unwrap();
    assert_eq!(pool.get(next).unwrap().resets, 1, "reset exactly once");
}

#[test]
fn a_full_pool_fails_or_panics() {
    let pool = SyncPool::<Job>::with_capacity(1);
    pool.create(|_| {}).unwrap();
    let full = pool.create(|_| {}).unwrap_err();
    assert_eq!(full.capacity(), 1);
    assert!(pool.try_acquire(|_| {}).is_err());
    assert_eq!(pool.stats().failed, 2);

    let unshared = SyncPool::<Unshared>::new();
    unshared.create(|u| u.0.set(1));
    unshared.create(|u| u.0.set(2));
    let panic = catch_unwind(AssertUnwindSafe(|| unshared.create(|_| {}))).unwrap_err();
    let message = panic.downcast_ref::<alloc::string::String>().unwrap();
    assert!(
        message.starts_with("Pool is full: all 2 slots are in use"),
        "{message}"
    );
    assert_eq!(unshared.stats().failed, 1);
}

/// Slots freed on other threads' shards, by a thread still running or one that has exited, are
/// taken before the pool reports full: it refuses only with every slot in use.
#[test]
fn free_slots_on_other_threads_are_taken_before_refusing() {
    use std::sync::mpsc;

    let pool = SyncPool::<Job>::new();
    let (filled, wait_filled) = mpsc::channel();
    let (done, wait_done) = mpsc::channel::<()>();
    let own = super::shard::shard();
    let shared = &pool;
    thread::scope(|s| {
        s.spawn(move || {
            let pool = shared;
            let handles: Vec<_> = (0..4).map(|_| pool.create(|_| {}).unwrap()).collect();
            for handle in handles {
                pool.release(handle).unwrap();
            }
            filled.send(super::shard::shard()).unwrap();
            // Alive, holding its id, while the main thread takes its slots.
            wait_done.recv().unwrap();
        });
        // Dropped if this thread panics, so that the other one ends too.
        let done = done;
        let other = wait_filled.recv().unwrap();
        assert_ne!(own, other, "the threads work on different shards");
        let handles: Vec<_> = (0..4).map(|_| pool.create(|_| {}).unwrap()).collect();
        assert!(pool.create(|_| {}).is_err(), "full only with all 4 in use");
        for handle in handles {
            pool.release(handle).unwrap();
        }
        done.send(()).unwrap();
    });

    // The same with the slots on the shard of a thread that has exited.
    thread::scope(|s| {
        s.spawn(|| {
            let handles: Vec<_> = (0..4).map(|_| pool.create(|_| {}).unwrap()).collect();
            for handle in handles {
                pool.release(handle).unwrap();
            }
        });
    });
    let handles: Vec<_> = (0..4).map(|_| pool.create(|_| {}).unwrap()).collect();
    assert!(pool.try_create(|_| {}).is_err());
    assert_eq!(pool.stats().failed, 2);
    assert_eq!(pool.len(), 4);
    for handle in handles {
        pool.release(handle).unwrap();
    }
    assert_eq!(pool.stats().free, 4);
}

#[test]
fn a_lease_goes_back_from_another_thread() {
    let pool = SyncPool::<Job>::with_capacity(2);
    let owned = Arc::new(());
    let mut lease = pool.acquire(|j| j.value = 3).unwrap();
    lease.owned = Some(Arc::clone(&owned));
    assert_eq!(pool.stats().leased, 1);
    assert_eq!(pool.len(), 0);
    thread::scope(|s| {
        s.spawn(move || assert_eq!(lease.value, 3));
    });
    assert_eq!(Arc::strong_count(&owned), 1, "reset as it dropped");
    let stats = pool.stats();
    assert_eq!((stats.leased, stats.free, stats.released), (0, 2, 1));

    let kept = pool.acquire(|j| j.value = 4).unwrap().into_handle();
    assert_eq!(pool.get(kept).unwrap().value, 4);
    assert_eq!((pool.len(), pool.stats().leased), (1, 0));
    pool.release(kept).unwrap();
    assert_eq!(pool.stats().free, 2);
}

#[test]
fn get_mut_through_an_exclusive_borrow() {
    let mut pool = SyncPool::<Job>::new();
    let job = pool.create(|_| {}).unwrap();
    pool.get_mut(job).unwrap().value = 5;
    assert_eq!(pool.get(job).unwrap().value, 5);
    pool.release(job).unwrap();
    assert!(pool.get_mut(job).is_none());
}

#[test]
fn an_init_that_panics_leaves_the_slot_reset_and_free() {
    let pool = SyncPool::<Job>::with_capacity(1);
    let owned = Arc::new(());
    let result = catch_unwind(AssertUnwindSafe(|| {
        pool.create(|j| {
            j.owned = Some(Arc::clone(&owned));
            panic!("init");
        })
    }));
    assert!(result.is_err());
    assert_eq!(Arc::strong_count(&owned), 1, "reset");
    let stats = pool.stats();
    assert_eq!((stats.live, stats.free, stats.created), (0, 1, 0));
    let result = catch_unwind(AssertUnwindSafe(|| {
        pool.acquire(|_| panic!("init")).map(drop)
    }));
    assert!(result.is_err());
    assert_eq!((pool.stats().free, pool.stats().leased), (1, 0));
    assert!(pool.create(|_| {}).is_ok(), "the slot is usable");
}

#[test]
fn a_reset_that_panics_retires_the_slot() {
    let pool = SyncPool::<Job>::with_capacity(2);
    let job = pool.create(|j| j.panic_on_reset = true).unwrap();
    let result = catch_unwind(AssertUnwindSafe(|| pool.release(job)));
    assert!(result.is_err());
    assert!(pool.get(job).is_none(), "stale all the same");
    let stats = pool.stats();
    assert_eq!(
        (stats.live, stats.free, stats.retired, stats.released),
        (0, 1, 1, 1)
    );

    let lease = pool.acquire(|j| j.panic_on_reset = true).unwrap();
    assert!(catch_unwind(AssertUnwindSafe(|| drop(lease))).is_err());
    let stats = pool.stats();
    assert_eq!((stats.leased, stats.free, stats.retired), (0, 0, 2));
    assert!(
        pool.create(|_| {}).is_err(),
        "no half-reset object is reused"
    );
}

#[test]
fn a_slot_whose_versions_run_out_is_retired() {
    let pool = SyncPool::<Job>::with_capacity(1);
    pool.force_version(0, 0u32.wrapping_sub(4));
    let last = pool.create(|_| {}).unwrap();
    pool.release(last).unwrap();
    assert_eq!(pool.stats().retired, 1);
    assert!(pool.create(|_| {}).is_err());
    assert!(pool.get(last).is_none());
}

#[test]
fn threads_create_get_and_release_and_every_count_adds_up() {
    let threads = if cfg!(miri) { 3 } else { 8 };
    let rounds = scaled(2_000);
    // Each thread holds at most three: one kept, one just made, one leased.
    let pool = SyncPool::<Job>::with_capacity(threads * 3);
    let owned = Arc::new(());
    let kept = AtomicUsize::new(0);
    thread::scope(|s| {
        for thread in 0..threads {
            let (pool, owned, kept) = (&pool, &owned, &kept);
            s.spawn(move || {
                let mut mine = Vec::new();
                for round in 0..rounds {
                    let value = (thread * rounds + round) as u64;
                    let job = pool
                        .create(|j| {
                            j.value = value;
                            j.owned = Some(Arc::clone(owned));
                        })
                        .unwrap();
                    assert_eq!(pool.get(job).unwrap().value, value);
                    if round % 3 == 0 {
                        let lease = pool.acquire(|j| j.value = value).unwrap();
                        assert_eq!(lease.value, value);
                    }
                    if round % 7 == 0 && mine.is_empty() {
                        mine.push(job);
                    } else {
                        pool.release(job).unwrap();
                        assert!(pool.get(job).is_none());
                    }
                }
                kept.fetch_add(mine.len(), Ordering::Relaxed);
                for job in &mine {
                    assert!(pool.get(*job).unwrap().owned.is_some());
                }
            });
        }
    });
    let live = kept.load(Ordering::Relaxed);
    let stats = pool.stats();
    assert_eq!(stats.live, live);
    assert_eq!(stats.free, pool.capacity() - live);
    assert_eq!(Arc::strong_count(&owned), 1 + live);
    let creates = (threads * rounds) as u64;
    let leases = (threads * rounds.div_ceil(3)) as u64;
    assert_eq!(stats.created, creates + leases);
    assert_eq!(stats.released, creates + leases - live as u64);
    assert!(stats.high_water <= pool.capacity());
}

#[test]
fn debug_shows_the_stats() {
    let pool = SyncPool::<Job>::with_capacity(2);
    pool.create(|_| {}).unwrap();
    let text = alloc::format!("{pool:?}");
    assert!(text.starts_with("Pool { capacity: 2, live: 1,"), "{text}");
}

/// Built blank until the `PANIC_AT`th, which panics; each drop counted.
struct Fragile;

static FRAGILE_BUILT: AtomicUsize = AtomicUsize::new(0);
static FRAGILE_DROPPED: AtomicUsize = AtomicUsize::new(0);

impl Pooled for Fragile {
    const SIZE: usize = 5;
    type Strategy = Fail;

    fn blank(_: PoolToken<'_, Self>) -> Self {
        assert!(
            FRAGILE_BUILT.fetch_add(1, Ordering::Relaxed) != 3,
            "blank panicked"
        );
        Fragile
    }

    fn reset_at_release(&mut self) {}

    fn reset_at_reuse(&mut self) {}
}

impl Drop for Fragile {
    fn drop(&mut self) {
        FRAGILE_DROPPED.fetch_add(1, Ordering::Relaxed);
    }
}

#[test]
fn a_blank_object_that_panics_while_a_heap_pool_builds_drops_those_built_before_it() {
    let built = catch_unwind(SyncPool::<Fragile, Fail>::new);
    assert!(built.is_err());
    assert_eq!(FRAGILE_BUILT.load(Ordering::Relaxed), 4);
    assert_eq!(FRAGILE_DROPPED.load(Ordering::Relaxed), 3);
}
