//! Tests of what servers use: owned leases, iteration under concurrent churn, and (with
//! `async`) waiting for a free slot. They run under Miri, with fewer iterations.

use super::tests::Unshared;
use super::{OwnedSyncLease, SyncPool};
use crate::{Fail, PoolToken, Pooled};
use alloc::sync::Arc;
use alloc::vec::Vec;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::thread;

const ROUNDS: u64 = if cfg!(miri) { 20 } else { 2_000 };

/// `value` is set by `init`, never 0 while live; `bytes` is cleared on release.
struct Buffer {
    value: u64,
    bytes: Vec<u8>,
}

impl Pooled for Buffer {
    const SIZE: usize = 2;
    type Strategy = Fail;

    fn blank(_: PoolToken<'_, Self>) -> Self {
        Buffer {
            value: 0,
            bytes: Vec::new(),
        }
    }

    fn reset_at_release(&mut self) {
        self.value = 0;
        self.bytes.clear();
    }

    fn reset_at_reuse(&mut self) {}
}

fn assert_send_sync_static<L: Send + Sync + 'static>(_: &L) {}

#[test]
fn an_owned_lease_of_a_send_object_is_send() {
    #[expect(
        clippy::arc_with_non_send_sync,
        reason = "the point: the lease is `Send` though the pool is not `Sync`"
    )]
    let pool = Arc::new(SyncPool::<Unshared>::new());
    let lease = pool.acquire_owned(|c| c.0.set(4));
    let sent = thread::spawn(move || {
        lease.0.set(lease.0.get() + 1);
        lease.0.get()
    });
    assert_eq!(sent.join().unwrap(), 5);
    assert_eq!(pool.stats().free, 2);
}

#[test]
fn an_owned_lease_moves_into_a_thread_and_comes_back_reset() {
    let pool = Arc::new(SyncPool::<Buffer>::new());
    let mut lease = pool.acquire_owned(|b| b.value = 7).unwrap();
    lease.bytes.extend_from_slice(b"abc");
    assert_send_sync_static(&lease);
    let worker = thread::spawn(move || {
        assert_eq!((lease.value, &lease.bytes[..]), (7, &b"abc"[..]));
        drop(lease);
    });
    worker.join().unwrap();
    let stats = pool.stats();
    assert_eq!((stats.leased, stats.free, stats.released), (0, 2, 1));
    let again = pool.try_acquire_owned(|_| {}).unwrap();
    assert!(again.bytes.is_empty() && again.value == 0, "reset");
}

#[test]
fn an_owned_lease_keeps_its_pool_alive() {
    let pool = Arc::new(SyncPool::<Buffer>::new());
    let lease = pool.acquire_owned(|b| b.value = 1).unwrap();
    let weak = Arc::downgrade(&pool);
    drop(pool);
    assert_eq!(lease.value, 1);
    assert!(weak.upgrade().is_some(), "the lease holds the pool");
    drop(lease);
    assert!(weak.upgrade().is_none(), "the last lease dropped the pool");
}

#[test]
fn an_owned_lease_turns_live_and_lets_its_pool_go() {
    let pool = Arc::new(SyncPool::<Buffer>::new());
    let mut lease = pool.acquire_owned(|_| {}).unwrap();
    lease.value = 3;
    let handle = lease.into_handle();
    assert_eq!(
        Arc::strong_count(&pool),
        1,
        "into_handle drops the lease's Arc"
    );
    assert_eq!(pool.get(handle).unwrap().value, 3);
    assert_eq!((pool.stats().live, pool.stats().leased), (1, 0));
}

#[test]
fn owned_acquisitions_refuse_or_panic_when_full() {
    let pool = Arc::new(SyncPool::<Buffer>::new());
    let _held: Vec<OwnedSyncLease<Buffer>> = (0..2)
        .map(|_| pool.acquire_owned(|_| {}).unwrap())
        .collect();
    assert!(pool.acquire_owned(|_| unreachable!()).is_err());
    assert!(pool.try_acquire_owned(|_| unreachable!()).is_err());
    assert_eq!(pool.stats().failed, 2);

    // `on_full = panic`, with objects `Send` but not `Sync`.
    #[expect(
        clippy::arc_with_non_send_sync,
        reason = "the owned leases' strategy is the subject, not `Sync`"
    )]
    let panicky = Arc::new(SyncPool::<Unshared>::new());
    let _two = [panicky.acquire_owned(|_| {}), panicky.acquire_owned(|_| {})];
    let full = catch_unwind(AssertUnwindSafe(|| panicky.acquire_owned(|_| {})));
    assert!(full.is_err());
    assert_eq!(panicky.stats().failed, 1);
}

#[test]
fn iter_yields_the_live_objects_only() {
    let pool = SyncPool::<Buffer>::with_capacity(6);
    let handles: Vec<_> = (1..=4)
        .map(|v| pool.create(|b| b.value = v).unwrap())
        .collect();
    pool.release(handles[1]).unwrap();
    let _lent = pool.acquire(|b| b.value = 99).unwrap();
    let seen: Vec<_> = pool.iter().map(|(h, b)| (h, b.value)).collect();
    assert_eq!(
        seen,
        [(handles[0], 1), (handles[2], 3), (handles[3], 4)],
        "neither the released, the lent nor the free"
    );
    let (handle, guard) = pool.iter().next().unwrap();
    pool.release(handle).unwrap();
    assert_eq!(
        guard.value, 1,
        "a guard from iter holds off the reset, as get's"
    );
    drop(guard);
    assert_eq!(
        pool.stats().free,
        3,
        "six, less the lent one and the two live"
    );
}

#[test]
fn iter_never_sees_a_reset_or_half_built_object_while_threads_churn() {
    let pool = SyncPool::<Buffer>::with_capacity(4);
    let kept = pool.create(|b| b.value = u64::MAX).unwrap();
    thread::scope(|s| {
        for worker in 1..=2u64 {
            let pool = &pool;
            s.spawn(move || {
                for round in 0..ROUNDS {
                    if let Ok(handle) = pool.create(|b| {
                        b.value = worker;
                        b.bytes.push(1);
                    }) {
                        if round % 2 == 0 {
                            let _lent = pool.acquire(|b| b.value = 1000);
                        }
                        pool.release(handle).unwrap();
                    }
                }
            });
        }
        for _ in 0..ROUNDS / 4 {
            let mut saw_kept = false;
            for (handle, buffer) in &pool {
                assert!(
                    matches!(buffer.value, 1 | 2 | u64::MAX),
                    "never reset, half built or lent: {}",
                    buffer.value
                );
                assert!(buffer.value == u64::MAX || buffer.bytes == [1]);
                saw_kept |= handle == kept;
            }
            assert!(saw_kept, "an object live throughout is always seen");
        }
    });
    assert_eq!(pool.iter().count(), 1);
}

#[cfg(feature = "async")]
mod waiting {
    use super::{Buffer, ROUNDS};
    use crate::SyncPool;
    use alloc::boxed::Box;
    use alloc::sync::Arc;
    use alloc::vec::Vec;
    use core::future::Future;
    use core::pin::pin;
    use core::sync::atomic::{AtomicUsize, Ordering};
    use core::task::{Context, Poll, Waker};
    use futures_lite::future::block_on;
    use std::panic::{AssertUnwindSafe, catch_unwind};
    use std::task::Wake;
    use std::thread;

    /// Whether `future` is still pending after a poll with `waker`.
    fn pends<F: Future + ?Sized>(future: core::pin::Pin<&mut F>, waker: &Waker) -> bool {
        future.poll(&mut Context::from_waker(waker)).is_pending()
    }

    /// Counts its wake-ups.
    #[derive(Default)]
    struct Counter(AtomicUsize);

    impl Wake for Counter {
        fn wake(self: Arc<Self>) {
            self.0.fetch_add(1, Ordering::SeqCst);
        }
    }

    fn counter() -> (Arc<Counter>, Waker) {
        let counter = Arc::new(Counter::default());
        (Arc::clone(&counter), Waker::from(counter))
    }

    fn wakes(counter: &Counter) -> usize {
        counter.0.load(Ordering::SeqCst)
    }

    #[test]
    fn acquire_async_takes_a_free_slot_at_once() {
        let pool = SyncPool::<Buffer>::new();
        let lease = block_on(pool.acquire_async(|b| b.value = 5));
        assert_eq!(lease.value, 5);
        let stats = pool.stats();
        assert_eq!((stats.leased, stats.waited, stats.failed), (1, 0, 0));
    }

    #[test]
    fn a_waiter_is_woken_by_a_lease_drop_and_by_a_release() {
        let pool = SyncPool::<Buffer>::new();
        let lease = pool.acquire(|_| {}).unwrap();
        let handle = pool.create(|b| b.value = 1).unwrap();
        let (wakes_first, waker) = counter();
        let mut cx = Context::from_waker(&waker);
        let calls = core::cell::Cell::new(0);
        let mut waiting = pin!(pool.acquire_async(|b| {
            calls.set(calls.get() + 1);
            b.value = 9;
        }));
        assert!(waiting.as_mut().poll(&mut cx).is_pending());
        drop(lease);
        assert_eq!(wakes(&wakes_first), 1, "the lease's drop woke the waiter");
        let Poll::Ready(got) = waiting.as_mut().poll(&mut cx) else {
            panic!("a slot is free")
        };
        assert_eq!(got.value, 9);

        let (wakes_second, waker) = counter();
        let mut cx = Context::from_waker(&waker);
        let mut second = pin!(pool.acquire_async(|_| {}));
        assert!(second.as_mut().poll(&mut cx).is_pending());
        pool.release(handle).unwrap();
        assert_eq!(wakes(&wakes_second), 1, "the release woke the waiter");
        assert!(second.as_mut().poll(&mut cx).is_ready());
        drop(got);
        assert_eq!(calls.get(), 1, "init runs once");
        let stats = pool.stats();
        assert_eq!((stats.waited, stats.failed, stats.free), (2, 0, 2));
    }

    #[test]
    fn a_waiter_cancelled_as_it_is_woken_passes_the_wake_up_on() {
        let pool = SyncPool::<Buffer>::with_capacity(1);
        let lease = pool.acquire(|_| {}).unwrap();
        let (woken_a, waker_a) = counter();
        let (woken_b, waker_b) = counter();
        let mut first = Box::pin(pool.acquire_async(|_| {}));
        let mut second = pin!(pool.acquire_async(|b| b.value = 2));
        assert!(pends(first.as_mut(), &waker_a));
        let mut cx = Context::from_waker(&waker_b);
        assert!(second.as_mut().poll(&mut cx).is_pending());
        drop(lease);
        assert_eq!(
            (wakes(&woken_a), wakes(&woken_b)),
            (1, 0),
            "first in, first woken"
        );
        drop(first);
        assert_eq!(wakes(&woken_b), 1, "the cancelled waiter passed it on");
        let Poll::Ready(got) = second.as_mut().poll(&mut cx) else {
            panic!("the slot is free")
        };
        assert_eq!(got.value, 2);
        assert_eq!(pool.stats().waited, 2, "the cancelled one is counted too");
    }

    #[test]
    fn two_slots_freed_before_the_woken_waiter_runs_serve_two_waiters() {
        let pool = SyncPool::<Buffer>::new();
        let leases = [pool.acquire(|_| {}).unwrap(), pool.acquire(|_| {}).unwrap()];
        let (woken_a, waker_a) = counter();
        let (woken_b, waker_b) = counter();
        let mut first_cx = Context::from_waker(&waker_a);
        let mut second_cx = Context::from_waker(&waker_b);
        let mut first = pin!(pool.acquire_async(|_| {}));
        let mut second = pin!(pool.acquire_async(|_| {}));
        assert!(first.as_mut().poll(&mut first_cx).is_pending());
        assert!(second.as_mut().poll(&mut second_cx).is_pending());
        drop(leases);
        assert_eq!(wakes(&woken_a), 1);
        let Poll::Ready(_one) = first.as_mut().poll(&mut first_cx) else {
            panic!("two slots are free")
        };
        assert_eq!(wakes(&woken_b), 1, "each freed slot was handed to a waiter");
        assert!(second.as_mut().poll(&mut second_cx).is_ready());
    }

    #[test]
    fn a_slot_freed_while_a_task_waits_is_handed_to_it_not_listed() {
        let pool = SyncPool::<Buffer>::with_capacity(1);
        let lease = pool.acquire(|_| {}).unwrap();
        let (woken, waker) = counter();
        let mut cx = Context::from_waker(&waker);
        let mut waiting = pin!(pool.acquire_async(|b| b.value = 4));
        assert!(waiting.as_mut().poll(&mut cx).is_pending());
        drop(lease);
        assert_eq!(wakes(&woken), 1);
        assert!(
            pool.try_acquire(|_| unreachable!()).is_err(),
            "the slot is the waiting task's"
        );
        assert!(pool.try_create(|_| unreachable!()).is_err());
        pool.check_consistency().unwrap();
        let stats = pool.stats();
        assert_eq!((stats.free, stats.waiting, stats.failed), (1, 0, 2));
        let Poll::Ready(got) = waiting.as_mut().poll(&mut cx) else {
            panic!("handed")
        };
        assert_eq!(got.value, 4);
    }

    #[test]
    fn a_task_asking_again_after_giving_back_queues_behind_the_waiting_ones() {
        let pool = SyncPool::<Buffer>::with_capacity(1);
        let mut cx = Context::from_waker(Waker::noop());
        let lease = pool.acquire(|b| b.value = 1).unwrap();
        let mut first = pin!(pool.acquire_async(|b| b.value = 2));
        let mut second = pin!(pool.acquire_async(|b| b.value = 3));
        assert!(first.as_mut().poll(&mut cx).is_pending());
        assert!(second.as_mut().poll(&mut cx).is_pending());
        drop(lease);
        let mut again = pin!(pool.acquire_async(|b| b.value = 1));
        assert!(again.as_mut().poll(&mut cx).is_pending(), "behind the two");
        let Poll::Ready(got) = first.as_mut().poll(&mut cx) else {
            panic!("handed to the first")
        };
        assert_eq!(got.value, 2);
        assert!(second.as_mut().poll(&mut cx).is_pending());
        drop(got);
        assert!(again.as_mut().poll(&mut cx).is_pending(), "still behind");
        let Poll::Ready(got) = second.as_mut().poll(&mut cx) else {
            panic!("then to the second")
        };
        assert_eq!(got.value, 3);
        drop(got);
        assert!(again.as_mut().poll(&mut cx).is_ready());
        assert_eq!(pool.stats().waited, 3);
    }

    #[test]
    fn a_waiter_cancelled_after_a_slot_was_handed_to_it_gives_it_back() {
        let pool = SyncPool::<Buffer>::with_capacity(1);
        let lease = pool.acquire(|_| {}).unwrap();
        let mut waiting = Box::pin(pool.acquire_async(|_| unreachable!()));
        assert!(pends(waiting.as_mut(), Waker::noop()));
        drop(lease);
        pool.check_consistency().unwrap();
        drop(waiting);
        pool.check_consistency().unwrap();
        let stats = pool.stats();
        assert_eq!((stats.free, stats.leased, stats.waiting), (1, 0, 0));
        assert!(pool.try_acquire(|_| {}).is_ok(), "back on the free list");
    }

    #[test]
    fn a_waiter_is_woken_through_the_waker_of_its_last_poll() {
        let pool = SyncPool::<Buffer>::with_capacity(1);
        let lease = pool.acquire(|_| {}).unwrap();
        let (woken_old, waker_old) = counter();
        let (woken_new, waker_new) = counter();
        let mut waiting = pin!(pool.acquire_async(|_| {}));
        assert!(pends(waiting.as_mut(), &waker_old));
        let mut cx = Context::from_waker(&waker_new);
        assert!(waiting.as_mut().poll(&mut cx).is_pending());
        drop(lease);
        assert_eq!((wakes(&woken_old), wakes(&woken_new)), (0, 1));
        assert!(waiting.as_mut().poll(&mut cx).is_ready());
    }

    #[test]
    fn a_slot_handed_to_a_waiter_whose_init_panics_goes_to_the_next() {
        let pool = SyncPool::<Buffer>::with_capacity(1);
        let lease = pool.acquire(|_| {}).unwrap();
        let mut cx = Context::from_waker(Waker::noop());
        let mut panicky = Box::pin(pool.acquire_async(|_| panic!("init")));
        let mut next = pin!(pool.acquire_async(|b| b.value = 5));
        assert!(panicky.as_mut().poll(&mut cx).is_pending());
        assert!(next.as_mut().poll(&mut cx).is_pending());
        drop(lease);
        let panicked = catch_unwind(AssertUnwindSafe(|| panicky.as_mut().poll(&mut cx)));
        assert!(panicked.is_err());
        drop(panicky);
        let Poll::Ready(got) = next.as_mut().poll(&mut cx) else {
            panic!("handed on")
        };
        assert_eq!(got.value, 5);
        drop(got);
        pool.check_consistency().unwrap();
        assert_eq!(pool.stats().free, 1);
    }

    #[test]
    fn a_cancelled_waiter_takes_no_slot() {
        let pool = SyncPool::<Buffer>::new();
        let leases = [pool.acquire(|_| {}).unwrap(), pool.acquire(|_| {}).unwrap()];
        let mut waiting = Box::pin(pool.acquire_async(|_| unreachable!()));
        assert!(pends(waiting.as_mut(), Waker::noop()));
        drop(waiting);
        drop(leases);
        let stats = pool.stats();
        assert_eq!((stats.free, stats.waited, stats.failed), (2, 1, 0));
    }

    #[test]
    fn a_waiter_counts_in_waiting_while_it_waits_and_in_waited_however_it_ends() {
        let pool = SyncPool::<Buffer>::new();
        let leases = [pool.acquire(|_| {}).unwrap(), pool.acquire(|_| {}).unwrap()];
        let mut cx = Context::from_waker(Waker::noop());
        let mut timed_out = Box::pin(pool.acquire_async(|_| unreachable!()));
        assert_eq!(
            (pool.stats().waiting, pool.stats().waited),
            (0, 0),
            "not polled yet"
        );
        assert!(timed_out.as_mut().poll(&mut cx).is_pending());
        let stats = pool.stats();
        assert_eq!(
            (stats.waiting, stats.waited),
            (1, 1),
            "counted as it starts waiting"
        );
        drop(timed_out); // what a timeout does to the future
        let stats = pool.stats();
        assert_eq!(
            (stats.waiting, stats.waited),
            (0, 1),
            "gone, and still counted"
        );

        let mut served = pin!(pool.acquire_async(|b| b.value = 3));
        assert!(served.as_mut().poll(&mut cx).is_pending());
        assert_eq!(pool.stats().waiting, 1);
        drop(leases);
        let Poll::Ready(lease) = served.as_mut().poll(&mut cx) else {
            panic!("two slots are free")
        };
        assert_eq!(lease.value, 3);
        let stats = pool.stats();
        assert_eq!((stats.waiting, stats.waited, stats.failed), (0, 2, 0));
    }

    #[test]
    fn many_threads_wait_for_two_slots_and_none_is_lost() {
        let pool = Arc::new(SyncPool::<Buffer>::new());
        let threads: Vec<_> = (1..=4u64)
            .map(|worker| {
                let pool = Arc::clone(&pool);
                thread::spawn(move || {
                    for _ in 0..ROUNDS / 4 {
                        let mut lease = block_on(pool.acquire_owned_async(|b| b.value = worker));
                        assert_eq!(lease.value, worker);
                        assert!(lease.bytes.is_empty(), "reset");
                        lease.bytes.push(1);
                        thread::yield_now();
                    }
                })
            })
            .collect();
        for thread in threads {
            thread.join().unwrap();
        }
        let stats = pool.stats();
        assert_eq!((stats.free, stats.leased, stats.failed), (2, 0, 0));
        assert_eq!(stats.created, ROUNDS / 4 * 4);
    }
}
