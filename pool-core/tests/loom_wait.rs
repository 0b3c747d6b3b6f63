//! loom models of waiting for a free slot (`acquire_async`, feature `async`): the races of its
//! protocol (see `sync/wait.rs`), and that a freed slot goes to the task queued first. The
//! queue's lock is loom's, and loom's `block_on` parks on loom's primitives, so a missed wake-up
//! or a slot handed to no one shows as a deadlock in some interleaving.
//!
//! `RUSTFLAGS="--cfg loom" cargo test -p pool-core --release --test loom_wait --target-dir target/loom`
#![cfg(all(loom, feature = "async"))]

use core::future::Future;
use core::pin::pin;
use core::task::{Context, Poll, Waker};
use loom::sync::atomic::{AtomicBool, Ordering};
use loom::thread;
// The pool is behind a `std` `Arc`, which `acquire_owned` needs; its count is no subject here.
use pool_core::{Stats, SyncPool};
use std::sync::Arc;
use support::{Probe, model, spawn_with};

mod support;

/// A pool of one slot: a waiter tells by `value` that it got a reset object.
fn one_slot() -> Arc<SyncPool<Probe>> {
    Arc::new(SyncPool::with_capacity(1))
}

/// The pool as a model ends: its one slot free, no task waiting, its books consistent.
fn settled(pool: &SyncPool<Probe>) -> Stats {
    let stats = pool.stats();
    assert_eq!((stats.free, stats.leased, stats.waiting), (1, 0, 0));
    pool.check_consistency().unwrap();
    stats
}

#[test]
fn a_release_racing_a_waiters_registration_wakes_it() {
    model(3, || {
        let pool = one_slot();
        let lease = pool.acquire_owned(|b| b.value = 1).unwrap();
        let releaser = thread::spawn(move || drop(lease));
        let got = loom::future::block_on(pool.acquire_async(|b| {
            assert_eq!(b.value, 0, "reset before reuse");
            b.value = 2;
        }));
        assert_eq!(got.value, 2);
        drop(got);
        releaser.join().unwrap();
        assert_eq!(settled(&pool).failed, 0);
    });
}

#[test]
fn a_waiter_cancelled_as_it_is_woken_passes_the_wake_up_on() {
    model(2, || {
        let pool = one_slot();
        let handle = pool.create(|b| b.value = 1).unwrap();
        let cancelled = spawn_with(&pool, |pool| {
            let mut waiting = pin!(pool.acquire_async(|b| b.value = 3));
            // Registered (or served at once), then dropped: cancelled, maybe as it is woken.
            if let Poll::Ready(lease) = waiting
                .as_mut()
                .poll(&mut Context::from_waker(Waker::noop()))
            {
                assert_eq!(lease.value, 3);
            }
        });
        let releaser = spawn_with(&pool, move |pool| pool.release(handle).unwrap());
        let got = loom::future::block_on(pool.acquire_async(|b| b.value = 2));
        assert_eq!(got.value, 2);
        drop(got);
        cancelled.join().unwrap();
        releaser.join().unwrap();
        assert_eq!(pool.stats().free, 1, "the slot stays takeable");
    });
}

/// A task that queued, then a slot freed: the slot is handed to the task, never put where an
/// acquisition that does not wait could take it first.
#[test]
fn a_slot_freed_while_a_task_waits_goes_to_it_not_to_a_fresh_acquisition() {
    model(3, || {
        let pool = one_slot();
        let lease = pool.acquire_owned(|b| b.value = 1).unwrap();
        let mut waiting = Box::pin(pool.acquire_owned_async(|b| b.value = 2));
        let queued = waiting
            .as_mut()
            .poll(&mut Context::from_waker(Waker::noop()));
        assert!(queued.is_pending(), "the one slot is lent");
        let releaser = thread::spawn(move || drop(lease));
        let fresh = spawn_with(&pool, |pool| pool.try_acquire(|_| {}).is_err());
        let got = loom::future::block_on(waiting);
        assert_eq!(got.value, 2);
        assert!(fresh.join().unwrap(), "the slot was the waiting task's");
        releaser.join().unwrap();
        drop(got);
        assert_eq!(settled(&pool).waited, 1);
    });
}

/// A task that gives its slot back and at once asks again, with `acquire_async`, queues behind
/// the task that was waiting: the overtaking, in its smallest form.
#[test]
fn a_task_asking_again_after_giving_back_queues_behind_the_waiting_one() {
    model(3, || {
        let pool = one_slot();
        let lease = pool.acquire_owned(|b| b.value = 1).unwrap();
        let mut waiting = Box::pin(pool.acquire_owned_async(|b| b.value = 2));
        let queued = waiting
            .as_mut()
            .poll(&mut Context::from_waker(Waker::noop()));
        assert!(queued.is_pending(), "the one slot is lent");
        let served = Arc::new(AtomicBool::new(false));
        let again = {
            let (pool, served) = (Arc::clone(&pool), Arc::clone(&served));
            thread::spawn(move || {
                drop(lease);
                let lease = loom::future::block_on(pool.acquire_async(|b| {
                    assert!(served.load(Ordering::SeqCst), "overtook the waiting task");
                    b.value = 3;
                }));
                assert_eq!(lease.value, 3);
            })
        };
        let got = loom::future::block_on(waiting);
        served.store(true, Ordering::SeqCst);
        drop(got);
        again.join().unwrap();
        assert_eq!(settled(&pool).failed, 0);
    });
}

/// A task cancelled while, or after, the slot it waits for is handed to it: the slot goes back
/// to the pool, nothing lost, every count exact.
#[test]
fn a_task_cancelled_as_a_slot_is_handed_to_it_gives_the_slot_back() {
    model(3, || {
        let pool = one_slot();
        let lease = pool.acquire_owned(|b| b.value = 1).unwrap();
        let mut waiting = Box::pin(pool.acquire_owned_async(|_| unreachable!("cancelled")));
        let queued = waiting
            .as_mut()
            .poll(&mut Context::from_waker(Waker::noop()));
        assert!(queued.is_pending(), "the one slot is lent");
        let canceller = thread::spawn(move || drop(waiting));
        drop(lease);
        canceller.join().unwrap();
        assert_eq!(settled(&pool).waited, 1);
        assert!(pool.try_acquire(|_| {}).is_ok(), "the slot is takeable");
    });
}

/// The same with a second task queued behind: the cancelled one hands the slot on to it.
#[test]
fn a_task_cancelled_as_a_slot_is_handed_to_it_passes_the_slot_on() {
    model(3, || {
        let pool = one_slot();
        let lease = pool.acquire_owned(|b| b.value = 1).unwrap();
        let mut cx = Context::from_waker(Waker::noop());
        let mut first = Box::pin(pool.acquire_owned_async(|_| unreachable!("cancelled")));
        let mut second = Box::pin(pool.acquire_owned_async(|b| b.value = 2));
        assert!(first.as_mut().poll(&mut cx).is_pending());
        assert!(second.as_mut().poll(&mut cx).is_pending());
        let canceller = thread::spawn(move || drop(first));
        let releaser = thread::spawn(move || drop(lease));
        let got = loom::future::block_on(second);
        assert_eq!(got.value, 2);
        canceller.join().unwrap();
        releaser.join().unwrap();
        drop(got);
        assert_eq!(settled(&pool).waited, 2);
    });
}

/// Two tasks queue while the slot is freed: whichever of the three finds the slot listed (the
/// freeing thread, or a task as it queues), it goes to a task, and the other task is served
/// after it.
#[test]
fn two_tasks_queueing_as_the_slot_is_freed_are_both_served() {
    model(2, || {
        let pool = one_slot();
        let lease = pool.acquire_owned(|b| b.value = 1).unwrap();
        let releaser = thread::spawn(move || drop(lease));
        let other = spawn_with(&pool, |pool| {
            let lease = loom::future::block_on(pool.acquire_async(|b| b.value = 3));
            assert_eq!(lease.value, 3);
        });
        let got = loom::future::block_on(pool.acquire_async(|b| b.value = 2));
        assert_eq!(got.value, 2);
        drop(got);
        other.join().unwrap();
        releaser.join().unwrap();
        assert_eq!(settled(&pool).failed, 0);
    });
}

/// A task that comes after another queued, while a slot is being freed, queues behind it even
/// if it finds the slot on a free list (listed by a give-back that had seen no task waiting).
#[test]
fn a_task_that_comes_while_a_slot_is_listed_queues_behind_the_waiting_one() {
    model(3, || {
        let pool = one_slot();
        let lease = pool.acquire_owned(|b| b.value = 1).unwrap();
        let releaser = thread::spawn(move || drop(lease));
        let mut cx = Context::from_waker(Waker::noop());
        let mut first = Box::pin(pool.acquire_owned_async(|b| b.value = 2));
        let mut second = Box::pin(pool.acquire_owned_async(|b| b.value = 3));
        let first_now = first.as_mut().poll(&mut cx);
        assert!(
            second.as_mut().poll(&mut cx).is_pending(),
            "the first task queued, or holds the slot"
        );
        let got = match first_now {
            Poll::Ready(got) => got,
            Poll::Pending => loom::future::block_on(first),
        };
        assert_eq!(got.value, 2);
        drop(got);
        assert_eq!(loom::future::block_on(second).value, 3);
        releaser.join().unwrap();
        assert_eq!(settled(&pool).failed, 0);
    });
}
