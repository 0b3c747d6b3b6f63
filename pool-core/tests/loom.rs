//! loom models of every concurrent path of `SyncPool`: loom runs each test under every
//! interleaving of its threads (up to a bound on preemptions), with a model of the memory
//! orderings, and its cells check that no read of an object overlaps a write.
//!
//! `RUSTFLAGS="--cfg loom" cargo test -p pool-core --release --test loom --target-dir target/loom`
#![cfg(loom)]

use loom::sync::Arc;
use loom::thread;
use pool_core::{Fail, PoolToken, Pooled, SyncPool};

/// `value` is set by `init` and reset on reuse; `resets` counts the slot's releases and is
/// never reset, so that a test can tell that each release reset the object exactly once.
struct Probe {
    value: u32,
    resets: u32,
    payload: Vec<u32>,
}

impl Pooled for Probe {
    const SIZE: usize = 2;
    type Strategy = Fail;

    fn blank(_: PoolToken<'_, Self>) -> Self {
        Probe {
            value: 0,
            resets: 0,
            payload: Vec::new(),
        }
    }

    fn reset_at_release(&mut self) {
        self.resets += 1;
        self.payload.clear();
    }

    fn reset_at_reuse(&mut self) {
        self.value = 0;
    }
}

/// Runs `test` under loom with a preemption bound, so the whole suite stays within minutes.
fn model(bound: usize, test: impl Fn() + Sync + Send + 'static) {
    let mut builder = loom::model::Builder::new();
    builder.preemption_bound = Some(bound);
    builder.check(test);
}

/// The total of `resets` over all slots, read by filling every slot; the pool must be empty.
fn total_resets(pool: &SyncPool<Probe>) -> u32 {
    let mut total = 0;
    let handles: Vec<_> = (0..pool.capacity())
        .map(|_| {
            pool.create(|p| {
                assert_eq!(p.value, 0, "reset before reuse");
                assert!(p.payload.is_empty(), "reset before reuse");
                total += p.resets;
            })
            .expect("every slot is free")
        })
        .collect();
    for handle in handles {
        pool.release(handle).unwrap();
    }
    total
}

#[test]
fn create_get_and_release_race() {
    model(4, || {
        let pool = Arc::new(SyncPool::<Probe>::new());
        let workers: Vec<_> = (1..=2)
            .map(|value| {
                let pool = Arc::clone(&pool);
                thread::spawn(move || {
                    let handle = pool
                        .create(|p| {
                            p.value = value;
                            p.payload.push(value);
                        })
                        .unwrap();
                    assert_eq!(pool.get(handle).unwrap().value, value);
                    pool.release(handle).unwrap();
                    assert!(pool.get(handle).is_none());
                })
            })
            .collect();
        for worker in workers {
            worker.join().unwrap();
        }
        let stats = pool.stats();
        assert_eq!(
            (stats.live, stats.free, stats.created, stats.released),
            (0, 2, 2, 2)
        );
        assert_eq!(total_resets(&pool), 2);
    });
}

#[test]
fn a_release_during_a_guard_resets_once_at_the_last_drop() {
    model(4, || {
        let pool = Arc::new(SyncPool::<Probe>::with_capacity(1));
        let handle = pool
            .create(|p| {
                p.value = 7;
                p.payload.push(7);
            })
            .unwrap();
        let reader = {
            let pool = Arc::clone(&pool);
            thread::spawn(move || {
                if let Some(guard) = pool.get(handle) {
                    // Never reset under a guard: the cell would catch the overlap, too.
                    assert_eq!((guard.value, guard.payload.as_slice()), (7, &[7][..]));
                }
            })
        };
        let releaser = {
            let pool = Arc::clone(&pool);
            thread::spawn(move || pool.release(handle).is_ok())
        };
        let second = pool.release(handle).is_ok();
        let first = releaser.join().unwrap();
        reader.join().unwrap();
        assert!(first ^ second, "exactly one release succeeds");
        assert_eq!(pool.stats().free, 1);
        assert_eq!(total_resets(&pool), 1, "reset exactly once");
    });
}

#[test]
fn the_free_list_has_no_aba() {
    // One thread pops while another pops twice and pushes the first slot back: without the
    // tag, the first pop could install the second slot, already taken, as the head.
    model(4, || {
        let pool = Arc::new(SyncPool::<Probe>::with_capacity(3));
        let other = {
            let pool = Arc::clone(&pool);
            thread::spawn(move || {
                let a = pool.create(|p| p.value = 1).unwrap();
                let b = pool.create(|p| p.value = 2).unwrap();
                pool.release(a).unwrap();
                b
            })
        };
        let mine = pool.create(|p| p.value = 3).unwrap();
        let b = other.join().unwrap();
        assert_ne!(mine.index(), b.index(), "one slot handed out twice");
        assert_eq!(pool.get(mine).unwrap().value, 3);
        assert_eq!(pool.get(b).unwrap().value, 2);
        let stats = pool.stats();
        assert_eq!((stats.live, stats.free), (2, 1));
        // The free slot is the only one left: a third create takes it, a fourth fails.
        let last = pool.create(|_| {}).unwrap();
        assert!(last.index() != mine.index() && last.index() != b.index());
        assert!(pool.create(|_| {}).is_err());
    });
}

#[test]
fn a_lease_dropped_while_another_thread_creates() {
    model(4, || {
        let pool = Arc::new(SyncPool::<Probe>::with_capacity(1));
        let lender = {
            let pool = Arc::clone(&pool);
            thread::spawn(move || {
                if let Ok(mut lease) = pool.acquire(|p| p.value = 5) {
                    lease.payload.push(5);
                    assert_eq!(lease.value, 5);
                }
            })
        };
        if let Ok(handle) = pool.create(|p| {
            assert!(p.payload.is_empty(), "the lease's object came back reset");
            p.value = 6;
        }) {
            assert_eq!(pool.get(handle).unwrap().value, 6);
            pool.release(handle).unwrap();
        }
        lender.join().unwrap();
        let stats = pool.stats();
        assert_eq!((stats.leased, stats.free, stats.live), (0, 1, 0));
        assert_eq!(u64::from(total_resets(&pool)), stats.released);
    });
}

#[test]
fn a_stale_handle_never_reaches_the_next_object() {
    model(4, || {
        let pool = Arc::new(SyncPool::<Probe>::with_capacity(1));
        let old = pool.create(|p| p.value = 1).unwrap();
        let reader = {
            let pool = Arc::clone(&pool);
            thread::spawn(move || {
                if let Some(guard) = pool.get(old) {
                    assert_eq!(guard.value, 1, "only the old object");
                }
                pool.contains(old)
            })
        };
        pool.release(old).unwrap();
        // Either the slot is free again, or a guard still reads it and the pool is full.
        if let Ok(new) = pool.create(|p| p.value = 2) {
            assert_eq!(new.index(), old.index());
            assert_eq!(pool.get(new).unwrap().value, 2);
        }
        reader.join().unwrap();
        assert!(pool.get(old).is_none());
    });
}

#[test]
fn a_handle_passed_on_without_synchronization_reaches_the_filled_object() {
    // The pool itself publishes the object: a reader that learns the handle through a relaxed
    // atomic sees what `init` wrote.
    use loom::sync::atomic::{AtomicU64, Ordering};
    use pool_core::Handle;
    model(4, || {
        let pool = Arc::new(SyncPool::<Probe>::with_capacity(1));
        let mailbox = Arc::new(AtomicU64::new(0));
        let reader = {
            let (pool, mailbox) = (Arc::clone(&pool), Arc::clone(&mailbox));
            thread::spawn(move || {
                let bits = mailbox.load(Ordering::Relaxed);
                if let Some(handle) = Handle::<Probe>::from_bits(bits)
                    && let Some(guard) = pool.get(handle)
                {
                    assert_eq!((guard.value, guard.payload.as_slice()), (9, &[9][..]));
                }
            })
        };
        let handle = pool
            .create(|p| {
                p.value = 9;
                p.payload.push(9);
            })
            .unwrap();
        mailbox.store(handle.to_bits(), Ordering::Relaxed);
        reader.join().unwrap();
    });
}

#[test]
fn three_threads_churn_a_pool_of_two() {
    // One more thread than slots: creates may fail, and every slot changes hands.
    model(3, || {
        let pool = Arc::new(SyncPool::<Probe>::new());
        let churn = |pool: &SyncPool<Probe>, value: u32| {
            if let Ok(handle) = pool.create(|p| {
                assert!(p.payload.is_empty(), "reset before reuse");
                p.value = value;
                p.payload.push(value);
            }) {
                assert_eq!(pool.get(handle).unwrap().payload, [value]);
                pool.release(handle).unwrap();
                1
            } else {
                0
            }
        };
        let workers: Vec<_> = (1..=2)
            .map(|value| {
                let pool = Arc::clone(&pool);
                thread::spawn(move || churn(&pool, value))
            })
            .collect();
        let mut made = churn(&pool, 3);
        for worker in workers {
            made += worker.join().unwrap();
        }
        assert!(made >= 2, "at most one create finds both slots taken");
        let stats = pool.stats();
        assert_eq!((stats.free, stats.created, stats.released), (2, made, made));
        assert_eq!(u64::from(total_resets(&pool)), made);
    });
}
