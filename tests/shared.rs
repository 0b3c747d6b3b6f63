//! A `Pool` shared between threads: `Sync` when its objects are `Send + Sync`, so that it fits an
//! `Arc<RwLock<_>>`, a `static`, or any `&Pool` handed to scoped threads, which lease objects
//! through `&self` at once. No slot is ever lent twice, and the stats add up after the threads
//! join. Fewer rounds under Miri.

use pooling::{Grow, Heap, Inline, Iter, IterMut, Pool, Pooled, Values, ValuesMut};
use serde::{Deserialize, Serialize};
use std::cell::Cell;
use std::collections::HashSet;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Barrier, LazyLock, RwLock};
use std::thread;

const THREADS: u64 = 4;
const ROUNDS: u64 = if cfg!(miri) { 30 } else { 3_000 };

#[derive(Pooled, Debug)]
#[pool(size = 16)]
struct Job {
    tag: u64,
    log: Vec<u64>,
}

#[derive(Pooled)]
#[pool(size = 2, on_full = grow, max = 64)]
struct Chunked {
    tag: u64,
    log: Vec<u64>,
}

#[derive(Pooled)]
#[pool(size = 8, storage = inline)]
struct Packet {
    tag: u64,
}

fn send_sync<T: Send + Sync>() {}
fn send<T: Send>() {}

/// Compiles only if the bounds below are all the impls need.
#[test]
fn pools_and_shared_iterators_are_send_and_sync() {
    fn pool<T: Pooled + Send + Sync>() {
        send_sync::<Pool<T>>();
        send_sync::<Pool<T, Grow<64>, Heap>>();
        send_sync::<Pool<T, pooling::Fail, Inline<8, 1>>>();
    }
    fn shared<'a, T: Sync + 'a>() {
        send_sync::<Iter<'a, T>>();
        send_sync::<Values<'a, T>>();
    }
    fn exclusive<'a, T: Send + 'a>() {
        send::<IterMut<'a, T>>();
        send::<ValuesMut<'a, T>>();
    }
    pool::<Job>();
    shared::<Job>();
    exclusive::<Job>();
    send_sync::<JobPool>();
    send_sync::<ChunkedPool>();
    send_sync::<PacketPool>();
}

#[test]
fn an_arc_rwlock_pool_is_read_from_another_thread() {
    let pool = Arc::new(RwLock::new(JobPool::new()));
    let handle = pool.write().unwrap().create(|j| j.tag = 7).unwrap();
    let reader = {
        let pool = Arc::clone(&pool);
        thread::spawn(move || {
            let pool = pool.read().unwrap();
            (
                pool.get(handle).map(|j| j.tag),
                pool.len(),
                pool.iter().count(),
            )
        })
    };
    assert_eq!(reader.join().unwrap(), (Some(7), 1, 1));
}

static JOBS: LazyLock<RwLock<JobPool>> = LazyLock::new(|| RwLock::new(JobPool::new()));

#[test]
fn a_static_pool_behind_a_rwlock_is_shared() {
    let handles: Vec<_> = thread::scope(|s| {
        let workers: Vec<_> = (0..THREADS)
            .map(|t| s.spawn(move || JOBS.write().unwrap().create(|j| j.tag = t).unwrap()))
            .collect();
        workers.into_iter().map(|w| w.join().unwrap()).collect()
    });
    let pool = JOBS.read().unwrap();
    let mut tags: Vec<u64> = handles.iter().map(|&h| pool[h].tag).collect();
    tags.sort_unstable();
    assert_eq!(tags, (0..THREADS).collect::<Vec<_>>());
    assert_eq!(pool.len(), handles.len());
}

/// What one thread did, to check the pool's stats against.
#[derive(Default)]
struct Tally {
    lent: u64,
    given_back: u64,
    refused: u64,
    kept: Vec<(pooling::Handle<Job>, u64)>,
}

/// Leases from `pool` for `ROUNDS` rounds, up to three at a time, checking that each object
/// comes blank and that no other thread writes it while it is lent; keeps one object in 64.
fn lease_rounds(pool: &JobPool, thread: u64) -> Tally {
    let mut tally = Tally::default();
    let mut held = Vec::new();
    for round in 0..ROUNDS {
        let tag = (thread << 32) | (round + 1);
        match pool.try_acquire(|j| {
            assert_eq!((j.tag, j.log.len()), (0, 0), "a lent object comes blank");
            j.tag = tag;
        }) {
            Ok(mut lease) => {
                tally.lent += 1;
                lease.log.push(tag);
                held.push((lease, tag));
            }
            Err(_) => tally.refused += 1,
        }
        if held.len() == 3 || round % 5 == 0 {
            thread::yield_now();
            for (lease, tag) in held.drain(..) {
                assert_eq!(
                    (lease.tag, &lease.log[..]),
                    (tag, &[tag][..]),
                    "no one else wrote it"
                );
                if tag % 64 == 0 && tally.kept.len() < 2 {
                    tally.kept.push((lease.into_handle(), tag));
                } else {
                    tally.given_back += 1;
                }
            }
        }
    }
    tally.given_back += held.len() as u64;
    tally
}

#[test]
fn threads_leasing_from_one_pool_never_share_a_slot_and_the_stats_add_up() {
    let pool = JobPool::new();
    let tallies: Vec<Tally> = thread::scope(|s| {
        let pool = &pool;
        let workers: Vec<_> = (0..THREADS)
            .map(|t| s.spawn(move || lease_rounds(pool, t)))
            .collect();
        workers.into_iter().map(|w| w.join().unwrap()).collect()
    });
    let sum = |f: fn(&Tally) -> u64| tallies.iter().map(f).sum::<u64>();
    let kept: Vec<_> = tallies
        .iter()
        .flat_map(|t| t.kept.iter().copied())
        .collect();
    let stats = pool.stats();
    assert_eq!(stats.created, sum(|t| t.lent));
    assert_eq!(stats.released, sum(|t| t.given_back));
    assert_eq!(stats.failed, sum(|t| t.refused));
    assert_eq!((stats.live, stats.leased), (kept.len(), 0));
    assert_eq!(stats.free, stats.capacity - kept.len());
    assert!(stats.high_water <= stats.capacity);
    let indices: HashSet<usize> = kept.iter().map(|(h, _)| h.index()).collect();
    assert_eq!(
        indices.len(),
        kept.len(),
        "kept objects are in distinct slots"
    );
    for &(handle, tag) in &kept {
        assert_eq!(pool[handle].tag, tag);
    }
    assert_whole(&pool);
}

#[test]
fn leases_and_iteration_from_other_threads_meet_on_one_pool() {
    let mut pool = JobPool::new();
    for tag in 1..=4 {
        pool.create(|j| j.tag = tag).unwrap();
    }
    thread::scope(|s| {
        let pool = &pool;
        for t in 0..2 {
            s.spawn(move || {
                let mut kept = 0;
                for round in 0..ROUNDS / 4 {
                    let lease = pool.acquire(|j| j.tag = 100 + t).unwrap();
                    // At most 4 + 2 * 4 live and 2 lent: the pool never fills.
                    if round % 16 == 0 && kept < 4 {
                        // Live from now on: iteration may see it, with its tag.
                        let _ = lease.into_handle();
                        kept += 1;
                    }
                }
            });
        }
        s.spawn(move || {
            for _ in 0..ROUNDS / 4 {
                let seen: Vec<u64> = pool.values().map(|j| j.tag).collect();
                assert!(seen.len() >= 4 && seen.len() <= 12, "{seen:?}");
                assert!(seen.iter().all(|&tag| (1..=4).contains(&tag) || tag >= 100));
                assert!((4..=12).contains(&pool.len()));
            }
        });
    });
    let stats = pool.stats();
    assert_eq!(stats.live, pool.iter().count());
    assert_eq!(stats.leased, 0);
    assert_eq!(stats.live + stats.free, stats.capacity);
}

#[test]
fn a_growing_pool_grows_from_several_threads_at_once() {
    let pool = ChunkedPool::new();
    let per_thread = 64 / THREADS;
    // Every lease is held at once, so the pool must grow to its `max`.
    let all_held = Barrier::new(usize::try_from(THREADS).unwrap());
    let tags: Vec<Vec<u64>> = thread::scope(|s| {
        let (pool, all_held) = (&pool, &all_held);
        let workers: Vec<_> = (0..THREADS)
            .map(|t| {
                s.spawn(move || {
                    let leases: Vec<_> = (0..per_thread)
                        .map(|i| {
                            let tag = t * 1000 + i + 1;
                            let mut lease = pool
                                .acquire(|c| {
                                    assert_eq!(c.tag, 0, "blank");
                                    c.tag = tag;
                                })
                                .expect("the pool grows to 64");
                            lease.log.push(tag);
                            lease
                        })
                        .collect();
                    all_held.wait();
                    leases
                        .iter()
                        .map(|lease| {
                            assert_eq!(lease.log, [lease.tag]);
                            lease.tag
                        })
                        .collect()
                })
            })
            .collect();
        workers.into_iter().map(|w| w.join().unwrap()).collect()
    });
    let all: HashSet<u64> = tags.iter().flatten().copied().collect();
    assert_eq!(all.len() as u64, THREADS * per_thread);
    let stats = pool.stats();
    assert_eq!(stats.capacity, 64, "grown to max, no further");
    assert_eq!((stats.created, stats.released), (64, 64));
    assert_eq!((stats.leased, stats.free, stats.failed), (0, 64, 0));
    assert!(pool.acquire(|_| {}).is_ok());
}

#[test]
fn an_inline_pool_builds_its_slots_from_several_threads_at_once() {
    let pool = PacketPool::new();
    let tags: Vec<Vec<u64>> = thread::scope(|s| {
        let pool = &pool;
        let workers: Vec<_> = (0..THREADS)
            .map(|t| {
                s.spawn(move || {
                    let leases: Vec<_> = (0..2)
                        .map(|i| pool.acquire(|p| p.tag = t * 10 + i + 1).unwrap())
                        .collect();
                    thread::yield_now();
                    leases.iter().map(|lease| lease.tag).collect()
                })
            })
            .collect();
        workers.into_iter().map(|w| w.join().unwrap()).collect()
    });
    let all: HashSet<u64> = tags.iter().flatten().copied().collect();
    assert_eq!(all.len(), 8);
    let stats = pool.stats();
    assert_eq!((stats.created, stats.released, stats.free), (8, 8, 8));
}

#[test]
fn a_panicking_init_in_one_thread_leaves_the_pool_whole_for_the_others() {
    let pool = JobPool::new();
    let tallies: Vec<Tally> = thread::scope(|s| {
        let pool = &pool;
        let panicker = s.spawn(move || {
            let mut panics = 0;
            for round in 0..ROUNDS / 8 {
                let outcome = catch_unwind(AssertUnwindSafe(|| {
                    drop(pool.try_acquire(|j| {
                        j.log.push(round);
                        panic!("init fails");
                    }));
                }));
                panics += u64::from(outcome.is_err());
            }
            panics
        });
        let workers: Vec<_> = (0..THREADS - 1)
            .map(|t| s.spawn(move || lease_rounds(pool, t)))
            .collect();
        let tallies = workers.into_iter().map(|w| w.join().unwrap()).collect();
        assert!(panicker.join().unwrap() > 0);
        tallies
    });
    let sum = |f: fn(&Tally) -> u64| tallies.iter().map(f).sum::<u64>();
    let kept = tallies.iter().map(|t| t.kept.len()).sum::<usize>();
    let stats = pool.stats();
    assert_eq!(
        stats.created,
        sum(|t| t.lent),
        "failed inits are not counted"
    );
    assert_eq!(stats.released, sum(|t| t.given_back));
    assert_eq!((stats.live, stats.leased), (kept, 0));
    assert_whole(&pool);
}

/// Every free slot can be lent, blank, at once, and comes back.
fn assert_whole(pool: &JobPool) {
    let stats = pool.stats();
    assert_eq!(stats.live + stats.leased + stats.free, stats.capacity);
    let leases: Vec<_> = (0..stats.free)
        .map(|_| {
            pool.try_acquire(|j| assert!(j.log.is_empty(), "blank"))
                .expect("every free slot can be lent")
        })
        .collect();
    assert!(pool.try_acquire(|_| {}).is_err());
    drop(leases);
    assert_eq!(pool.stats().free, stats.free);
}

thread_local! {
    /// Set while a `Hooked` reset runs on this thread (or the pool is built), so that the
    /// reset's own lease does not re-enter again as it goes back.
    static INSIDE: Cell<bool> = const { Cell::new(false) };
}

/// Leases taken by the resets themselves.
static NESTED: AtomicU64 = AtomicU64::new(0);

static HOOKED: LazyLock<HookedPool> = LazyLock::new(|| {
    INSIDE.set(true);
    let pool = HookedPool::new();
    INSIDE.set(false);
    pool
});

/// A reset that reaches its own pool, from whichever thread gives an object back.
fn reenter(resets: &mut u32) {
    *resets += 1;
    if INSIDE.replace(true) {
        return;
    }
    let pool = &*HOOKED;
    assert!(pool.stats().leased <= pool.capacity());
    if let Ok(lease) = pool.try_acquire(|h| h.value = 1) {
        NESTED.fetch_add(1, Ordering::Relaxed);
        drop(lease);
    }
    INSIDE.set(false);
}

#[derive(Pooled)]
#[pool(size = 8)]
struct Hooked {
    value: u32,
    #[pool(reset_with = reenter)]
    resets: u32,
}

#[test]
fn resets_that_reenter_a_shared_pool_from_several_threads_do_not_deadlock() {
    let rounds = ROUNDS / 10;
    thread::scope(|s| {
        for t in 0..2 {
            s.spawn(move || {
                for round in 0..rounds {
                    let value = u32::try_from(t * 1000 + round).unwrap() + 2;
                    let lease = HOOKED.acquire(|h| h.value = value).unwrap();
                    assert_eq!(lease.value, value);
                }
            });
        }
    });
    let stats = HOOKED.stats();
    let nested = NESTED.load(Ordering::Relaxed);
    assert!(nested > 0, "the resets leased too");
    assert_eq!(stats.created, 2 * rounds + nested);
    assert_eq!(stats.released, stats.created);
    assert_eq!((stats.leased, stats.free), (0, 8));
}

#[derive(Pooled, Clone, Serialize, Deserialize)]
#[pool(size = 16)]
struct Note {
    tag: u64,
    log: Vec<u64>,
}

/// A copy or a save is of one moment: its books add up, and every free slot in it can be taken.
fn assert_copy_whole(copy: &NotePool) {
    let stats = copy.stats();
    assert_eq!(stats.leased, 0, "leases stay with the pool");
    assert_eq!(stats.live + stats.free, stats.capacity);
    assert_eq!(copy.iter().count(), stats.live);
    assert!(copy.values().all(|n| n.log == [n.tag]));
    let leases: Vec<_> = (0..stats.free)
        .map(|_| copy.try_acquire(|n| assert!(n.log.is_empty())).unwrap())
        .collect();
    assert!(copy.try_acquire(|_| {}).is_err());
    drop(leases);
}

#[test]
fn clones_and_saves_made_while_other_threads_lease_are_whole() {
    let pool = NotePool::new();
    thread::scope(|s| {
        let pool = &pool;
        for t in 0..2u64 {
            s.spawn(move || {
                for round in 0..ROUNDS / 10 {
                    let tag = t * 1_000_000 + round + 1;
                    let mut lease = pool.try_acquire(|n| n.tag = tag).unwrap();
                    lease.log.push(tag);
                    if round % 8 == 0 && round < 40 {
                        let _ = lease.into_handle();
                    }
                }
            });
        }
        for _ in 0..ROUNDS / 100 + 2 {
            assert_copy_whole(&pool.clone());
            let saved = serde_json::to_string(pool).unwrap();
            let loaded: NotePool = serde_json::from_str(&saved).expect("a save of one moment");
            assert_copy_whole(&loaded);
        }
    });
    assert_copy_whole(&pool.clone());
}
