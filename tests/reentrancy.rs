//! User code that reaches the pool it runs for: a field's `Default`, run to build blank objects
//! while a growing pool adds a chunk, that lends or gives back objects of the same pool through
//! a `&'static` pool. The pool builds the chunk before touching anything it shares and adds it
//! in one step, so a lease given back meanwhile is kept; growing again from inside that code is
//! refused with a panic that says why, and the pool stays whole.
//!
//! The tests leak their pools, to lend from them through `&'static`: `.ci/run` runs them under
//! Miri apart from the other tests, with leaks allowed (they live in the `leaked_pool` module).

use pooling::{Lease, Pooled};
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
    static POOL: Cell<Option<&'static NodePool>> = const { Cell::new(None) };
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

/// An object whose `Clone`, once armed, makes an object of its own pool live: through
/// `acquire` and `into_handle` on the `&'static` pool in `TWINS`.
#[derive(Pooled)]
#[pool(size = 4)]
struct Twin {
    id: u32,
}

thread_local! {
    static TWINS: Cell<Option<&'static TwinPool>> = const { Cell::new(None) };
    static ARMED: Cell<bool> = const { Cell::new(false) };
}

impl Clone for Twin {
    fn clone(&self) -> Self {
        if ARMED.replace(false) {
            let pool = TWINS.get().expect("the pool is set");
            pool.acquire(|t| t.id = 77).unwrap().into_handle();
        }
        Twin { id: self.id }
    }
}

/// An object whose `Clone` of the object with id `CLONE_TRIGGER` makes an object of its own
/// growing pool live, through the `&'static` pool in `GROWERS`.
#[derive(Pooled)]
#[pool(size = 2, on_full = grow, max = 64)]
struct Grower {
    id: u32,
}

thread_local! {
    static GROWERS: Cell<Option<&'static GrowerPool>> = const { Cell::new(None) };
    static CLONE_TRIGGER: Cell<Option<u32>> = const { Cell::new(None) };
}

impl Clone for Grower {
    fn clone(&self) -> Self {
        if CLONE_TRIGGER.get() == Some(self.id) {
            CLONE_TRIGGER.set(None);
            let pool = GROWERS.get().expect("the pool is set");
            pool.acquire(|g| g.id = 99).unwrap().into_handle();
        }
        Grower { id: self.id }
    }
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
    let pool = Cell1Pool::new();
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
    pool.check_consistency().unwrap();
    drop(outer);
    pool.check_consistency().unwrap();
    assert_eq!(pool.stats().free, 1);
}

/// An `init` that unwinds after an `acquire` counted its slot: the count is undone, the slot
/// free again.
#[test]
fn an_acquire_whose_init_panics_counts_nothing() {
    let pool = Cell1Pool::new();
    let outcome = catch_unwind(AssertUnwindSafe(|| {
        drop(pool.acquire(|_| panic!("init failed")));
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
    let pool = Cell1Pool::new();
    let outcome = catch_unwind(AssertUnwindSafe(|| {
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

fn leaked_pool() -> &'static NodePool {
    let pool: &'static NodePool = Box::leak(Box::new(NodePool::new()));
    POOL.set(Some(pool));
    pool
}

/// Every free slot can be lent, and every lent one comes back: nothing was lost or doubled.
fn assert_whole(pool: &NodePool) {
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

    /// `Pool::clone` makes the copy's bits, free list and counts from the copy's own slots:
    /// a `Clone` that makes a slot live in the pool after the copy passed it as free leaves it
    /// free in the copy. (Before, the copy took the pool's bits after its slots: a bit set on
    /// a free slot, which `release_all` then freed a second time, at an odd version.)
    #[test]
    fn a_clone_that_takes_a_slot_the_copy_passed_leaves_the_copy_whole() {
        let pool: &'static TwinPool = Box::leak(Box::new(TwinPool::new()));
        TWINS.set(Some(pool));
        // Slot 0 free at the head of the list, slot 1 live: cloning slot 1 takes slot 0.
        let first = pool.acquire(|t| t.id = 1).unwrap();
        let live = pool.acquire(|t| t.id = 2).unwrap().into_handle();
        drop(first);
        assert_eq!(live.index(), 1);
        ARMED.set(true);
        let mut copy = pool.clone();
        assert!(!ARMED.get(), "the clone reached the pool");
        pool.check_consistency().unwrap();
        assert_eq!(pool.len(), 2, "the pool made slot 0 live meanwhile");
        copy.check_consistency().unwrap();
        assert_eq!(copy.len(), 1, "slot 0 was free when the copy passed it");
        assert_eq!(copy[live].id, 2);
        assert_eq!(copy.iter().map(|(h, _)| h).collect::<Vec<_>>(), [live]);
        copy.release_all();
        copy.check_consistency().unwrap();
        let handles: Vec<_> = (0..4).map(|i| copy.create(|t| t.id = i).unwrap()).collect();
        let mut indices: Vec<_> = handles.iter().map(|h| h.index()).collect();
        indices.sort_unstable();
        assert_eq!(indices, [0, 1, 2, 3], "every slot taken once");
        assert!(copy.create(|_| {}).is_err());
        copy.check_consistency().unwrap();
    }

    /// A `Clone` that grows the pool being copied, into a position the copy already passed (one
    /// `shrink` emptied): the copy counts only the chunks it copied. (Before, it took the
    /// pool's grown length at the end: a capacity with two slots that did not exist, which
    /// `stats()` called free and no `create` could take.)
    #[test]
    fn a_clone_that_grows_the_pool_into_a_passed_position_counts_what_it_copied() {
        let pool: &'static mut GrowerPool = Box::leak(Box::new(GrowerPool::new()));
        let handles: Vec<_> = (0..8)
            .map(|id| pool.create(|g| g.id = id).unwrap())
            .collect();
        assert_eq!(pool.capacity(), 8, "two chunks grown: 2 slots, then 4");
        pool.release(handles[2]).unwrap();
        pool.release(handles[3]).unwrap();
        assert_eq!(pool.shrink(), 2, "the first grown chunk goes");
        let pool: &'static GrowerPool = pool;
        GROWERS.set(Some(pool));
        assert!(pool.is_full());
        // Cloning object 5, in the second grown chunk, grows the pool into the first position.
        CLONE_TRIGGER.set(Some(5));
        let mut copy = pool.clone();
        assert_eq!(CLONE_TRIGGER.get(), None, "the clone reached the pool");
        pool.check_consistency().unwrap();
        assert_eq!(pool.capacity(), 8);
        copy.check_consistency().unwrap();
        assert_eq!(copy.capacity(), 6, "the chunks copied");
        assert_eq!(copy.len(), 6);
        assert_eq!(copy.stats().free, 0);
        let more = copy.create(|g| g.id = 100).unwrap();
        assert_eq!(copy[more].id, 100);
        copy.check_consistency().unwrap();
    }

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
            message.contains("asked to grow while it was building blank objects"),
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
