//! A `Pool` shared between threads: `Send` and `Sync` by the compiler's own rules when its
//! objects are, with no lock of its own, so that it fits an `Arc<RwLock<_>>` or a `static`:
//! readers share it while a writer takes it whole, leasing through its lender. (A pool whose
//! threads lease at once is a `SyncPool`: `tests/ui/pool-leased-from-threads.rs` shows that a
//! shared `&Pool` cannot lend.) Fewer rounds under Miri.

use pooling::{Grow, Heap, Inline, Iter, IterMut, Lender, Pool, Pooled, Values, ValuesMut};
use serde::{Deserialize, Serialize};
use std::collections::HashSet;
use std::sync::{Arc, LazyLock, RwLock};
use std::thread;

const THREADS: u64 = 4;
const ROUNDS: u64 = if cfg!(miri) { 20 } else { 2_000 };

#[derive(Pooled, Debug, Clone, Serialize, Deserialize)]
#[pool(size = 16)]
struct Job {
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

/// Compiles only if the bounds below are all the auto traits need.
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

/// One round of a writer: leases three objects through the pool's lender, keeps the first of
/// every eighth round, gives the rest back.
fn lease_round(pool: &Lender<'_, Job>, round: u64) {
    let leases: Vec<_> = (0..3)
        .map(|i| {
            let tag = round * 10 + i + 1;
            let mut lease = pool
                .acquire(|j| {
                    assert_eq!((j.tag, j.log.len()), (0, 0), "a lent object comes blank");
                    j.tag = tag;
                })
                .expect("room for three");
            lease.log.push(tag);
            lease
        })
        .collect();
    for (i, lease) in leases.into_iter().enumerate() {
        if i == 0 && round.is_multiple_of(8) && pool.len() < 8 {
            let _ = lease.into_handle();
        }
    }
}

/// Readers under the read lock see a whole pool while a writer leases between them: every live
/// object once, with its log, and the books adding up.
#[test]
fn readers_share_a_pool_while_a_writer_leases_through_its_lender() {
    let pool = RwLock::new(JobPool::new());
    thread::scope(|s| {
        let pool = &pool;
        s.spawn(move || {
            for round in 0..ROUNDS {
                let mut pool = pool.write().unwrap();
                lease_round(&pool.lender(), round);
            }
        });
        for _ in 0..2 {
            s.spawn(move || {
                for _ in 0..ROUNDS / 4 {
                    let pool = pool.read().unwrap();
                    let seen: Vec<u64> = pool.values().map(|j| j.tag).collect();
                    assert_eq!(seen.len(), pool.len());
                    assert!(pool.values().all(|j| j.log == [j.tag]));
                    let stats = pool.stats();
                    assert_eq!(stats.leased, 0, "leases end with the write lock");
                    assert_eq!(stats.live + stats.free, stats.capacity);
                    pool.check_consistency().unwrap();
                }
            });
        }
    });
    let pool = pool.into_inner().unwrap();
    let stats = pool.stats();
    assert_eq!(stats.created, 3 * ROUNDS);
    assert_eq!(stats.released, 3 * ROUNDS - pool.len() as u64);
    pool.check_consistency().unwrap();
}

/// A copy or a save is whole: its books add up, and every free slot in it can be taken.
fn assert_copy_whole(copy: &mut JobPool) {
    copy.check_consistency().unwrap();
    let stats = copy.stats();
    assert_eq!(stats.leased, 0);
    assert_eq!(copy.iter().count(), stats.live);
    assert!(copy.values().all(|n| n.log == [n.tag]));
    let lender = copy.lender();
    let leases: Vec<_> = (0..stats.free)
        .map(|_| lender.try_acquire(|n| assert!(n.log.is_empty())).unwrap())
        .collect();
    assert!(lender.try_acquire(|_| {}).is_err());
    drop(leases);
}

#[test]
fn clones_and_saves_made_by_readers_between_a_writers_leases_are_whole() {
    let pool = RwLock::new(JobPool::new());
    thread::scope(|s| {
        let pool = &pool;
        s.spawn(move || {
            for round in 0..ROUNDS / 10 {
                let mut pool = pool.write().unwrap();
                lease_round(&pool.lender(), round);
            }
        });
        s.spawn(move || {
            for _ in 0..ROUNDS / 100 + 2 {
                let (mut copy, saved) = {
                    let pool = pool.read().unwrap();
                    (pool.clone(), serde_json::to_string(&*pool).unwrap())
                };
                assert_copy_whole(&mut copy);
                let mut loaded: JobPool = serde_json::from_str(&saved).unwrap();
                assert_copy_whole(&mut loaded);
            }
        });
    });
}

/// A pool per thread, each lending through its own lender: no slot or count is shared.
#[test]
fn threads_with_a_pool_each_lease_at_once() {
    let tags: Vec<HashSet<u64>> = thread::scope(|s| {
        let workers: Vec<_> = (0..THREADS)
            .map(|t| {
                s.spawn(move || {
                    let mut pool = PacketPool::new();
                    let lender = pool.lender();
                    let leases: Vec<_> = (0..8)
                        .map(|i| lender.acquire(|p| p.tag = t * 10 + i).unwrap())
                        .collect();
                    leases.iter().map(|lease| lease.tag).collect()
                })
            })
            .collect();
        workers.into_iter().map(|w| w.join().unwrap()).collect()
    });
    assert!(tags.iter().all(|tags| tags.len() == 8));
}
