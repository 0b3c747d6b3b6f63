//! loom models of every concurrent path of `SyncPool`: loom runs each test under every
//! interleaving of its threads (up to a bound on preemptions), with a model of the memory
//! orderings, and its cells check that no read of an object overlaps a write.
//!
//! `RUSTFLAGS="--cfg loom" cargo test -p pool-core --release --test loom --target-dir target/loom`
#![cfg(loom)]

use loom::sync::Arc;
use pool_core::{Fail, Storage, SyncPool};
use support::{Probe, model, spawn_with};

mod support;

/// Creates every slot of `pool`, which must be empty, checking that each object was reset, and
/// releases them; returns the total of `resets` over all slots. The slots all go to the calling
/// thread's shard, and no fresh slot is left, so other threads must take them from there.
fn cycle_every_slot<B: Storage>(pool: &SyncPool<Probe, Fail, B>) -> u32 {
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

/// An `init` that sets `value` and pushes it to `payload`.
fn holding(value: u32) -> impl FnOnce(&mut Probe) {
    move |p| {
        p.value = value;
        p.payload.push(value);
    }
}

#[test]
fn create_get_and_release_race() {
    model(4, || {
        let pool = Arc::new(SyncPool::<Probe>::new());
        let workers: Vec<_> = (1..=2)
            .map(|value| {
                spawn_with(&pool, move |pool| {
                    let handle = pool.create(holding(value)).unwrap();
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
        assert_eq!(cycle_every_slot(&pool), 2);
    });
}

#[test]
fn a_release_during_a_guard_resets_once_at_the_last_drop() {
    model(4, || {
        let pool = Arc::new(SyncPool::<Probe>::with_capacity(1));
        let handle = pool.create(holding(7)).unwrap();
        let reader = spawn_with(&pool, move |pool| {
            if let Some(guard) = pool.get(handle) {
                // Never reset under a guard: the cell would catch the overlap, too.
                assert_eq!((guard.value, guard.payload.as_slice()), (7, &[7][..]));
            }
        });
        let releaser = spawn_with(&pool, move |pool| pool.release(handle).is_ok());
        let second = pool.release(handle).is_ok();
        let first = releaser.join().unwrap();
        reader.join().unwrap();
        assert!(first ^ second, "exactly one release succeeds");
        assert_eq!(pool.stats().free, 1);
        assert_eq!(cycle_every_slot(&pool), 1, "reset exactly once");
    });
}

#[test]
fn the_free_list_has_no_aba() {
    // A thread steals from the main thread's shard while the main thread pops twice and pushes
    // the first slot back: without the tag, the steal could install the second slot, already
    // taken, as the head.
    model(4, || {
        let pool = Arc::new(SyncPool::<Probe>::with_capacity(3));
        cycle_every_slot(&pool);
        let stealer = spawn_with(&pool, |pool| pool.create(|p| p.value = 3).unwrap());
        let a = pool.create(|p| p.value = 1).unwrap();
        let b = pool.create(|p| p.value = 2).unwrap();
        pool.release(a).unwrap();
        let stolen = stealer.join().unwrap();
        assert_ne!(stolen.index(), b.index(), "one slot handed out twice");
        assert_eq!(pool.get(stolen).unwrap().value, 3);
        assert_eq!(pool.get(b).unwrap().value, 2);
        let stats = pool.stats();
        assert_eq!((stats.live, stats.free), (2, 1));
        // The free slot is the only one left: a third create takes it, a fourth fails.
        let last = pool.create(|_| {}).unwrap();
        assert!(last.index() != stolen.index() && last.index() != b.index());
        assert!(pool.create(|_| {}).is_err());
    });
}

#[test]
fn an_owner_and_a_stealer_on_one_shard() {
    // The main thread creates and releases on its own shard while another thread, whose shard
    // is empty, takes a slot from it and gives it back to its own: both always find a slot.
    model(3, || {
        let pool = Arc::new(SyncPool::<Probe>::new());
        cycle_every_slot(&pool);
        let stealer = spawn_with(&pool, |pool| {
            let handle = pool.create(|p| p.payload.push(1)).expect("a slot is free");
            assert_eq!(pool.get(handle).unwrap().payload, [1]);
            pool.release(handle).unwrap();
        });
        let handle = pool.create(|p| p.payload.push(2)).expect("a slot is free");
        assert_eq!(pool.get(handle).unwrap().payload, [2]);
        pool.release(handle).unwrap();
        stealer.join().unwrap();
        let stats = pool.stats();
        assert_eq!((stats.free, stats.created, stats.released), (2, 4, 4));
        assert_eq!(cycle_every_slot(&pool), 4);
    });
}

#[test]
fn a_refusal_means_every_slot_was_in_use() {
    // Slot q is live, taken on the main thread's shard (0); slot p is free on thread B's shard
    // (1). Thread A, on shard 0 too (its id is 2, and there are two shards under loom), creates
    // while B releases q and then takes p: a slot is free at every moment until A has one, so
    // A's create must succeed, even when it reads shard 0 before q comes back and shard 1
    // after p is gone.
    model(3, || {
        let pool = Arc::new(SyncPool::<Probe>::new());
        assert_eq!(pool_core::thread_shard(), 0);
        let q = pool.create(|p| p.value = 1).unwrap();
        let b = spawn_with(&pool, move |pool| {
            assert_eq!(pool_core::thread_shard(), 1);
            let p = pool.create(|_| {}).unwrap();
            pool.release(p).unwrap();
            let a = spawn_with(&pool, |pool| {
                assert_eq!(pool_core::thread_shard(), 0);
                pool.try_create(|p| p.value = 2)
            });
            pool.release(q).unwrap();
            let mine = pool.create(|p| p.value = 3).expect("p or q is free");
            let theirs = a.join().unwrap().expect("a slot was free until A had one");
            assert_ne!(mine.index(), theirs.index());
            theirs
        });
        let theirs = b.join().unwrap();
        assert_eq!(pool.get(theirs).unwrap().value, 2);
        assert_eq!(pool.stats().failed, 0);
    });
}

#[test]
fn thread_ids_are_unique_and_reused_when_threads_exit() {
    use pool_core::ThreadIds;
    model(4, || {
        let ids = Arc::new(ThreadIds::default());
        let claim = || spawn_with(&ids, |ids| ids.claim().unwrap());
        let (a, b) = (claim(), claim());
        let mut both = [a.join().unwrap(), b.join().unwrap()];
        both.sort_unstable();
        assert_eq!(
            both,
            [0, 1],
            "two threads holding ids at once hold different ones"
        );
        // The thread holding 0 exits while this one claims: it gets 2, or 0 once given back.
        let exits = spawn_with(&ids, |ids| ids.release(0));
        let third = ids.claim().unwrap();
        exits.join().unwrap();
        assert!(third == 0 || third == 2, "{third}");
        assert_eq!(ids.claim(), Some(if third == 0 { 2 } else { 0 }));
    });
}

#[test]
fn a_lease_dropped_while_another_thread_creates() {
    model(4, || {
        let pool = Arc::new(SyncPool::<Probe>::with_capacity(1));
        let lender = spawn_with(&pool, |pool| {
            if let Ok(mut lease) = pool.acquire(|p| p.value = 5) {
                lease.payload.push(5);
                assert_eq!(lease.value, 5);
            }
        });
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
        assert_eq!(u64::from(cycle_every_slot(&pool)), stats.released);
    });
}

#[test]
fn a_stale_handle_never_reaches_the_next_object() {
    model(4, || {
        let pool = Arc::new(SyncPool::<Probe>::with_capacity(1));
        let old = pool.create(|p| p.value = 1).unwrap();
        let reader = spawn_with(&pool, move |pool| {
            if let Some(guard) = pool.get(old) {
                assert_eq!(guard.value, 1, "only the old object");
            }
            pool.contains(old)
        });
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
            loom::thread::spawn(move || {
                let bits = mailbox.load(Ordering::Relaxed);
                if let Some(handle) = Handle::<Probe>::from_bits(bits)
                    && let Some(guard) = pool.get(handle)
                {
                    assert_eq!((guard.value, guard.payload.as_slice()), (9, &[9][..]));
                }
            })
        };
        let handle = pool.create(holding(9)).unwrap();
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
            .map(|value| spawn_with(&pool, move |pool| churn(&pool, value)))
            .collect();
        let mut made = churn(&pool, 3);
        for worker in workers {
            made += worker.join().unwrap();
        }
        assert!(made >= 2, "at most one create finds both slots taken");
        let stats = pool.stats();
        assert_eq!((stats.free, stats.created, stats.released), (2, made, made));
        assert_eq!(u64::from(cycle_every_slot(&pool)), made);
    });
}

#[test]
fn iter_sees_only_whole_live_objects_while_another_thread_releases_and_creates() {
    model(3, || {
        let pool = Arc::new(SyncPool::<Probe>::new());
        let first = pool.create(holding(1)).unwrap();
        let churner = spawn_with(&pool, move |pool| {
            pool.release(first).unwrap();
            pool.create(holding(2)).unwrap()
        });
        for (handle, probe) in pool.iter() {
            // Never reset or half built: the cells would catch a write overlapping the read.
            assert_eq!(probe.payload.as_slice(), &[probe.value][..]);
            assert!(matches!(probe.value, 1 | 2));
            assert_eq!(handle == first, probe.value == 1);
        }
        let second = churner.join().unwrap();
        let seen: Vec<_> = pool
            .iter()
            .map(|(handle, probe)| (handle, probe.value))
            .collect();
        assert_eq!(seen, [(second, 2)]);
    });
}

/// An inline pool builds each object as its slot is first taken, and draws its versions then:
/// two threads taking fresh slots at once each build their own, and agree on the versions.
#[test]
fn two_threads_build_an_inline_pool_on_first_use() {
    type Inlined = SyncPool<Probe, Fail, pool_core::Inline<2, 1>>;
    model(3, || {
        let pool = Arc::new(Inlined::new());
        let workers: Vec<_> = (1..=2)
            .map(|value| {
                spawn_with(&pool, move |pool| {
                    let handle = pool.create(|p| p.payload.push(value)).unwrap();
                    assert_eq!(pool.get(handle).unwrap().payload, [value]);
                    handle
                })
            })
            .collect();
        let handles: Vec<_> = workers.into_iter().map(|w| w.join().unwrap()).collect();
        assert_ne!(handles[0].index(), handles[1].index());
        // One draw of versions for the pool: every slot's first object has the same version.
        assert_eq!(handles[0].version(), handles[1].version());
        for handle in handles {
            pool.release(handle).unwrap();
        }
        let stats = pool.stats();
        assert_eq!(
            (stats.live, stats.free, stats.created, stats.released),
            (0, 2, 2, 2)
        );
        assert_eq!(cycle_every_slot(&pool), 2);
    });
}
