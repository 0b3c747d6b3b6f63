//! loom models of waiting for a free slot (`acquire_async`, feature `async`): the two races of
//! its protocol (see `sync/wait.rs`). event-listener's own `loom` feature puts its list's lock
//! and atomics under the model too, and loom's `block_on` parks on loom's primitives, so a
//! missed wake-up shows as a deadlock in some interleaving.
//!
//! `RUSTFLAGS="--cfg loom" cargo test -p pool-core --release --test loom_wait --target-dir target/loom`
#![cfg(all(loom, feature = "async"))]

use core::future::Future;
use core::pin::pin;
use core::task::{Context, Poll, Waker};
use loom::thread;
// The pool is behind a `std` `Arc`, which `acquire_owned` needs; its count is no subject here.
use pool_core::{Fail, PoolToken, Pooled, SyncPool};
use std::sync::Arc;
use support::model;

mod support;

/// `value` is set by `init`; the reset clears it, so a waiter can tell it got a reset object.
struct Buffer {
    value: u32,
}

impl Pooled for Buffer {
    const SIZE: usize = 1;
    type Strategy = Fail;

    fn blank(_: PoolToken<'_, Self>) -> Self {
        Buffer { value: 0 }
    }

    fn reset_at_release(&mut self) {
        self.value = 0;
    }

    fn reset_at_reuse(&mut self) {}
}

#[test]
fn a_release_racing_a_waiters_registration_wakes_it() {
    model(3, || {
        let pool = Arc::new(SyncPool::<Buffer>::new());
        let lease = pool.acquire_owned(|b| b.value = 1).unwrap();
        let releaser = thread::spawn(move || drop(lease));
        let got = loom::future::block_on(pool.acquire_async(|b| {
            assert_eq!(b.value, 0, "reset before reuse");
            b.value = 2;
        }));
        assert_eq!(got.value, 2);
        drop(got);
        releaser.join().unwrap();
        let stats = pool.stats();
        assert_eq!((stats.free, stats.failed), (1, 0));
    });
}

#[test]
fn a_waiter_cancelled_as_it_is_woken_passes_the_wake_up_on() {
    model(2, || {
        let pool = Arc::new(SyncPool::<Buffer>::new());
        let handle = pool.create(|b| b.value = 1).unwrap();
        let cancelled = {
            let pool = Arc::clone(&pool);
            thread::spawn(move || {
                let mut waiting = pin!(pool.acquire_async(|b| b.value = 3));
                // Registered (or served at once), then dropped: cancelled, maybe as it is woken.
                if let Poll::Ready(lease) = waiting
                    .as_mut()
                    .poll(&mut Context::from_waker(Waker::noop()))
                {
                    assert_eq!(lease.value, 3);
                }
            })
        };
        let releaser = {
            let pool = Arc::clone(&pool);
            thread::spawn(move || pool.release(handle).unwrap())
        };
        let got = loom::future::block_on(pool.acquire_async(|b| b.value = 2));
        assert_eq!(got.value, 2);
        drop(got);
        cancelled.join().unwrap();
        releaser.join().unwrap();
        assert_eq!(pool.stats().free, 1, "the slot stays takeable");
    });
}
