//! loom models of every path that changes a `Pool` through `&self` from several threads:
//! leases taken and given back, growth, slots built on first use, leases turned into handles,
//! and the stats and copies read meanwhile. loom runs each under every interleaving of its
//! threads (up to a bound on preemptions), with a model of the memory orderings.
//!
//! `RUSTFLAGS="--cfg loom" cargo test -p pool-core --release --test loom_pool --target-dir target/loom`
#![cfg(loom)]

use loom::sync::Arc;
use loom::thread;
use pool_core::{Fail, Grow, Inline, Pool, Stats};
use support::{Probe, model};

mod support;

type Growing = Pool<Probe, Grow<4>>;
type Built = Pool<Probe, Fail, Inline<2, 1>>;

/// Leases an object as `value`, checks that it came blank and that no one else writes it while
/// it is lent, and gives it back; false when the pool is full.
fn lease_once<S, B: pool_core::Storage>(pool: &Pool<Probe, S, B>, value: u32) -> bool {
    let Ok(mut lease) = pool.try_acquire(|p| {
        assert_eq!(
            (p.value, p.payload.len()),
            (0, 0),
            "a lent object comes blank"
        );
        p.value = value;
    }) else {
        return false;
    };
    lease.payload.push(value);
    thread::yield_now();
    assert_eq!(
        (lease.value, lease.payload.as_slice()),
        (value, &[value][..])
    );
    true
}

/// The books add up: every slot is live, lent or free, and the counts agree.
fn assert_books(stats: &Stats) {
    assert_eq!(stats.live + stats.leased + stats.free, stats.capacity);
    assert_eq!(
        stats.created - stats.released,
        (stats.live + stats.leased) as u64
    );
    assert!(stats.high_water <= stats.capacity);
}

#[test]
fn two_threads_lease_from_one_pool() {
    model(3, || {
        let pool = Arc::new(Pool::<Probe>::with_capacity(1));
        let other = {
            let pool = Arc::clone(&pool);
            thread::spawn(move || lease_once(&*pool, 2))
        };
        let here = lease_once(&*pool, 1);
        let there = other.join().unwrap();
        assert!(here || there, "the slot is free for whichever comes first");
        let stats = pool.stats();
        assert_books(&stats);
        let lent = u64::from(here) + u64::from(there);
        assert_eq!(
            (stats.created, stats.released, stats.failed),
            (lent, lent, 2 - lent)
        );
        assert_eq!(stats.free, 1);
    });
}

#[test]
fn a_lease_given_back_races_a_lease_taken_and_the_stats() {
    model(3, || {
        let pool = Arc::new(Pool::<Probe>::new());
        let held = pool.try_acquire(|p| p.value = 9).unwrap();
        let other = {
            let pool = Arc::clone(&pool);
            thread::spawn(move || {
                let first = lease_once(&*pool, 2);
                let second = lease_once(&*pool, 3);
                (first, second)
            })
        };
        drop(held);
        // Read while the other thread takes and gives back: the books add up at every moment.
        let during = pool.stats();
        assert_books(&during);
        assert!(during.live == 0 && during.leased <= 1);
        let (first, second) = other.join().unwrap();
        assert!(
            first && second,
            "one slot was always free for the other thread"
        );
        let stats = pool.stats();
        assert_books(&stats);
        assert_eq!((stats.created, stats.released, stats.free), (3, 3, 2));
        let resets: u32 = {
            let a = pool.try_acquire(|_| {}).unwrap();
            let b = pool.try_acquire(|_| {}).unwrap();
            a.resets + b.resets
        };
        assert_eq!(resets, 3, "each give-back reset its object once");
    });
}

#[test]
fn growth_races_a_lease() {
    model(2, || {
        let pool = Arc::new(Growing::with_capacity(1));
        let held = pool.acquire(|p| p.value = 1).unwrap();
        let other = {
            let pool = Arc::clone(&pool);
            thread::spawn(move || {
                let lease = pool.acquire(|p| p.value = 2).expect("the pool grows");
                assert_eq!(lease.value, 2);
            })
        };
        // Both threads find the pool full: one grows it, the other waits or takes a grown slot.
        let mine = pool.acquire(|p| p.value = 3).expect("the pool grows");
        assert_eq!((held.value, mine.value), (1, 3));
        other.join().unwrap();
        drop((held, mine));
        let stats = pool.stats();
        assert_books(&stats);
        assert!(stats.capacity == 2 || stats.capacity == 4, "{stats:?}");
        assert_eq!((stats.created, stats.released, stats.failed), (3, 3, 0));
    });
}

#[test]
fn slots_built_on_first_use_race() {
    model(3, || {
        let pool = Arc::new(Built::new());
        let other = {
            let pool = Arc::clone(&pool);
            thread::spawn(move || {
                let lease = pool.acquire(|p| p.value = 2).unwrap();
                assert_eq!(lease.value, 2);
                lease.into_handle()
            })
        };
        let mine = pool.acquire(|p| p.value = 1).unwrap();
        let handle = other.join().unwrap();
        assert_eq!(pool.get(handle).map(|p| p.value), Some(2));
        assert_eq!(mine.value, 1);
        drop(mine);
        let stats = pool.stats();
        assert_books(&stats);
        assert_eq!((stats.live, stats.free, stats.created), (1, 1, 2));
    });
}

#[test]
fn a_lease_turned_into_a_handle_races_iteration_and_stats() {
    model(3, || {
        let pool = Arc::new(Pool::<Probe>::new());
        let other = {
            let pool = Arc::clone(&pool);
            thread::spawn(move || {
                let lease = pool.acquire(|p| p.value = 5).unwrap();
                lease.into_handle()
            })
        };
        // Iteration sees the object or not, but never a blank one.
        for (_, object) in pool.iter() {
            assert_eq!(object.value, 5);
        }
        let stats = pool.stats();
        assert_books(&stats);
        assert!(stats.live + stats.leased <= 1);
        let handle = other.join().unwrap();
        assert_eq!(pool.get(handle).map(|p| p.value), Some(5));
        let stats = pool.stats();
        assert_eq!((stats.live, stats.leased, stats.free), (1, 0, 1));
    });
}

#[test]
fn a_clone_races_a_lease_turned_into_a_handle() {
    model(3, || {
        let pool = Arc::new(Pool::<Probe>::new());
        let other = {
            let pool = Arc::clone(&pool);
            thread::spawn(move || {
                let lease = pool.acquire(|p| p.value = 5).unwrap();
                lease.into_handle()
            })
        };
        assert_books(&pool.stats());
        // The copy is of one moment: the object is live in it, with its value, or its slot is
        // free; never counted one way and kept the other.
        let copy = Pool::clone(&pool);
        let stats = copy.stats();
        assert_books(&stats);
        assert_eq!(stats.leased, 0);
        assert_eq!(copy.iter().count(), stats.live);
        assert!(copy.values().all(|p| p.value == 5));
        let handle = other.join().unwrap();
        assert_eq!(pool.get(handle).map(|p| p.value), Some(5));
        assert_eq!(copy.get(handle).map_or(5, |p| p.value), 5);
    });
}
