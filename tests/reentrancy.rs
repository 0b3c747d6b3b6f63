//! User code that reaches the pool it runs for: a field's `Default`, run to build blank objects
//! while a growing pool adds a chunk through its lender, that lends or gives back objects of the
//! same pool through a `&'static` lender. The lender builds the chunk before touching anything
//! and adds it in one step, so a lease given back meanwhile is kept; growing again from inside
//! that code is refused with a panic that says why, and the pool stays whole. (Code run by
//! `&mut Pool` cannot reach the pool at all, nor can a `Clone` run by `&Pool` change it.)
//!
//! The tests leak their pools and lenders, to lend from them through `&'static`: `.ci/run` runs
//! them under Miri apart from the other tests, with leaks allowed (they live in the
//! `leaked_pool` module).

use pooling::{Lease, Lender, Pooled};
use std::cell::{Cell, RefCell};
use std::collections::VecDeque;
use std::panic::{AssertUnwindSafe, catch_unwind};

/// What a blank object's `Default` does when the pool builds it.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Hook {
    /// Acquires an object of the pool (and drops the lease at once).
    Acquire,
    /// Drops the lease kept in `KEPT`.
    DropLease,
}

thread_local! {
    /// One hook for each of the next blank objects built.
    static HOOKS: RefCell<VecDeque<Hook>> = const { RefCell::new(VecDeque::new()) };
    static POOL: Cell<Option<&'static Lender<'static, Node>>> = const { Cell::new(None) };
    static KEPT: RefCell<Option<Lease<'static, Node>>> = const { RefCell::new(None) };
}

/// A field whose `Default` runs the next hook.
struct Meddler;

impl Default for Meddler {
    fn default() -> Self {
        match HOOKS.with_borrow_mut(VecDeque::pop_front) {
            None => {}
            Some(Hook::Acquire) => {
                let pool = POOL.get().expect("the pool is set");
                drop(pool.acquire(|n| n.id = 99));
            }
            Some(Hook::DropLease) => drop(KEPT.take()),
        }
        Meddler
    }
}

#[derive(Pooled)]
#[pool(size = 2, on_full = grow, max = 64)]
struct Node {
    id: u32,
    #[pool(keep)]
    _meddler: Meddler,
}

#[derive(Pooled)]
#[pool(size = 1, on_full = grow, max = 64)]
struct Cell1 {
    id: u32,
}

/// The slot an `acquire` holds while its `init` runs counts as in use: an `acquire` from that
/// `init` finds the pool full and grows it (before, it was refused with `PoolFull { capacity:
/// 1 }`, the pool not full by its counts).
#[test]
fn an_acquire_from_init_on_a_full_growing_pool_grows() {
    let mut pool = Cell1Pool::new();
    let pool = pool.lender();
    let mut inner = None;
    let outer = pool
        .acquire(|c| {
            assert_eq!(pool.stats().leased, 1, "the slot in hand is counted");
            assert_eq!(pool.stats().free, 0);
            let lease = pool
                .acquire(|i| i.id = 2)
                .expect("a full growing pool grows");
            inner = Some(lease.into_handle());
            c.id = 1;
        })
        .unwrap();
    let inner = inner.unwrap();
    assert_eq!(outer.id, 1);
    assert_eq!(pool.get(inner).unwrap().id, 2);
    assert_eq!(pool.capacity(), 2);
    let stats = pool.stats();
    assert_eq!((stats.live, stats.leased, stats.free), (1, 1, 0));
    drop(outer);
    assert_eq!(pool.stats().free, 1);
}

/// An `init` that unwinds after an `acquire` counted its slot: the count is undone, the slot
/// free again.
#[test]
fn an_acquire_whose_init_panics_counts_nothing() {
    let mut pool = Cell1Pool::new();
    let outcome = catch_unwind(AssertUnwindSafe(|| {
        drop(pool.lender().acquire(|_| panic!("init failed")));
    }));
    assert!(outcome.is_err());
    let stats = pool.stats();
    assert_eq!(
        (stats.created, stats.leased, stats.free, stats.high_water),
        (0, 0, 1, 0)
    );
    pool.check_consistency().unwrap();
}

/// An `init` that leases another object, gives it back, then unwinds: two objects were in use
/// at once while it ran, one of them its own slot, which the undo takes away; the other was
/// really in use, so the high water mark stays 1 (it went back to 0 when the undo restored the
/// mark from before the outer `acquire`).
#[test]
fn an_init_that_leases_and_gives_back_then_panics_keeps_the_inner_lease_in_the_mark() {
    let mut pool = Cell1Pool::new();
    let outcome = catch_unwind(AssertUnwindSafe(|| {
        let pool = pool.lender();
        drop(pool.acquire(|_| {
            drop(pool.acquire(|i| i.id = 2).expect("a growing pool grows"));
            assert_eq!(pool.stats().high_water, 2, "both slots in use at once");
            panic!("init failed");
        }));
    }));
    assert!(outcome.is_err());
    let stats = pool.stats();
    assert_eq!(
        (stats.created, stats.leased, stats.high_water),
        (1, 0, 1),
        "the inner lease counted, the outer one undone"
    );
    pool.check_consistency().unwrap();
}

fn hooks(hooks: &[Hook]) {
    HOOKS.set(hooks.iter().copied().collect());
}

/// A pool's lender, both leaked, so that a blank object's code can reach it.
fn leaked_pool() -> &'static Lender<'static, Node> {
    let pool: &'static mut NodePool = Box::leak(Box::new(NodePool::new()));
    let lender: &'static Lender<'static, Node> = Box::leak(Box::new(pool.lender()));
    POOL.set(Some(lender));
    lender
}

/// Every free slot can be lent, and every lent one comes back: nothing was lost or doubled.
fn assert_whole(pool: &Lender<'_, Node>) {
    let stats = pool.stats();
    assert_eq!(stats.live + stats.leased + stats.free, stats.capacity);
    let leases: Vec<_> = (0..stats.free)
        .map(|i| pool.acquire(|n| n.id = 1000 + u32::try_from(i).unwrap()))
        .collect::<Result<_, _>>()
        .expect("every free slot can be lent");
    let mut indices: Vec<u32> = leases.iter().map(|l| l.id).collect();
    indices.dedup();
    assert_eq!(indices.len(), stats.free);
    drop(leases);
    assert_eq!(pool.stats().free, stats.free);
}

mod leaked_pool {
    use super::*;

    #[test]
    fn growing_again_from_a_blank_objects_code_is_refused_and_the_pool_stays_whole() {
        let pool = leaked_pool();
        let full: Vec<_> = (0..2)
            .map(|i| pool.acquire(|n| n.id = i).unwrap())
            .collect();
        hooks(&[Hook::Acquire]);
        let outcome = catch_unwind(AssertUnwindSafe(|| pool.acquire(|n| n.id = 2).map(|_| ())));
        let message = outcome.expect_err("the nested growth panics");
        let message = message
            .downcast_ref::<String>()
            .map(String::as_str)
            .or_else(|| message.downcast_ref::<&str>().copied())
            .unwrap_or_default();
        assert!(
            message.contains("asked for a slot while it was building blank objects"),
            "{message}"
        );
        assert_eq!(pool.capacity(), 2, "no chunk was added");
        assert_eq!(pool.stats().leased, 2);
        drop(full);
        assert_whole(pool);
        // Growing works again afterwards.
        let more: Vec<_> = (0..5)
            .map(|i| pool.acquire(|n| n.id = i).unwrap())
            .collect();
        assert_eq!(pool.capacity(), 8);
        drop(more);
        assert_whole(pool);
    }

    #[test]
    fn a_lease_given_back_while_the_pool_grows_is_not_lost() {
        let pool = leaked_pool();
        let first = pool.acquire(|n| n.id = 1).unwrap();
        let second = pool.acquire(|n| n.id = 2).unwrap();
        KEPT.set(Some(second));
        hooks(&[Hook::DropLease]);
        let third = pool.acquire(|n| n.id = 3).unwrap();
        assert!(KEPT.with_borrow(Option::is_none), "the hook ran");
        assert_eq!(pool.capacity(), 4);
        let stats = pool.stats();
        assert_eq!((stats.leased, stats.free), (2, 2));
        drop((first, third));
        assert_whole(pool);
        let all: Vec<_> = (0..4)
            .map(|i| pool.acquire(|n| n.id = i).unwrap())
            .collect();
        assert_eq!(pool.capacity(), 4, "the lease's slot was reused, not lost");
        drop(all);
    }

    #[test]
    fn a_lease_taken_and_given_back_while_the_pool_grows_is_kept() {
        let pool = leaked_pool();
        let first = pool.acquire(|n| n.id = 1).unwrap();
        let second = pool.acquire(|n| n.id = 2).unwrap();
        KEPT.set(Some(second));
        // One blank object gives a lease back, the next takes that slot and gives it back again:
        // no growth is needed for it.
        hooks(&[Hook::DropLease, Hook::Acquire]);
        let third = pool.acquire(|n| n.id = 3).unwrap();
        assert!(HOOKS.with_borrow(VecDeque::is_empty), "both hooks ran");
        assert_eq!(pool.capacity(), 4);
        let stats = pool.stats();
        assert_eq!((stats.leased, stats.free, stats.created), (2, 2, 4));
        drop((first, third));
        assert_whole(pool);
    }
}
