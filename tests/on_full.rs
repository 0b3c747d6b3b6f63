//! The four answers to a full pool, `#[pool(on_full = ...)]`: fail, panic, evict and grow.

use pooling::{Handle, Pooled, TotalOrder};
use std::cell::Cell;
use std::collections::BTreeMap;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::rc::Rc;

#[derive(Pooled)]
#[pool(size = 4)]
struct Spark {
    id: u32,
    trail: Vec<u32>,
}

#[derive(Pooled)]
#[pool(size = 4, on_full = panic)]
struct Boss {
    id: u32,
    trail: Vec<u32>,
}

thread_local! {
    static MEASURED: Cell<usize> = const { Cell::new(0) };
    static SHRUNK: Cell<bool> = const { Cell::new(false) };
}

#[derive(Pooled)]
#[pool(size = 4, on_full = evict, evict_by = Voice::loudness)]
struct Voice {
    id: u32,
    trail: Vec<u32>,
    volume: f32,
    sample: Option<Rc<str>>,
}

impl Voice {
    fn loudness(&self) -> TotalOrder<f32> {
        MEASURED.set(MEASURED.get() + 1);
        TotalOrder(self.volume)
    }
}

#[derive(Pooled)]
#[pool(size = 4, on_full = grow, max = 10)]
struct Enemy {
    id: u32,
    trail: Vec<u32>,
}

#[test]
fn fail_refuses_and_counts() {
    let mut pool = SparkPool::new();
    for id in 0..4 {
        pool.create(|s| s.id = id).unwrap();
    }
    assert!(pool.create(|s| s.id = 9).is_err());
    assert!(pool.create(|s| s.id = 9).is_err());
    let stats = pool.stats();
    assert_eq!((stats.created, stats.failed, stats.live), (4, 2, 4));
}

#[test]
fn panic_returns_handles_and_panics_when_full_naming_the_pool() {
    let mut pool = BossPool::new();
    let handles: Vec<Handle<Boss>> = (0..4).map(|id| pool.create(|b| b.id = id)).collect();
    assert_eq!(pool.get(handles[3]).unwrap().id, 3);
    assert!(
        pool.try_create(|_| {}).is_err(),
        "try_create does not panic"
    );

    let panic = catch_unwind(AssertUnwindSafe(|| pool.create(|b| b.id = 4))).unwrap_err();
    let message = panic.downcast_ref::<String>().unwrap();
    assert_eq!(
        message,
        "BossPool is full: all 4 slots are in use (high water 4); raise `#[pool(size = N)]` or release objects sooner"
    );
    assert_eq!(pool.len(), 4, "the panic changed nothing");
    assert_eq!(pool.stats().failed, 2);
    for (id, h) in (0..).zip(&handles) {
        assert_eq!(pool.get(*h).unwrap().id, id);
    }
    pool.release(handles[0]).unwrap();
    let again = pool.create(|b| b.id = 7);
    assert_eq!(again.index(), handles[0].index());
}

#[test]
fn evict_replaces_the_quietest_voice_in_one_pass() {
    let sample: Rc<str> = Rc::from("swish");
    let mut pool = VoicePool::new();
    let volumes = [0.8, 0.2, 0.9, 0.5];
    let handles: Vec<_> = (0..)
        .zip(volumes)
        .map(|(id, volume)| {
            pool.create(|v| {
                v.id = id;
                v.volume = volume;
                v.sample = Some(Rc::clone(&sample));
                v.trail.push(id);
            })
        })
        .collect();
    assert_eq!(Rc::strong_count(&sample), 5);
    assert_eq!(
        MEASURED.get(),
        0,
        "nothing is measured while a slot is free"
    );

    let new = pool.create(|v| {
        v.id = 10;
        v.volume = 0.7;
    });
    assert_eq!(MEASURED.get(), 4, "one pass over the live voices");
    assert!(!pool.contains(handles[1]), "the quietest voice was evicted");
    assert_eq!(new.index(), handles[1].index(), "and its slot reused");
    assert_eq!(
        Rc::strong_count(&sample),
        4,
        "its sample was let go at eviction"
    );
    let fresh = pool.get(new).unwrap();
    assert!(
        fresh.trail.is_empty() && fresh.sample.is_none(),
        "the new voice starts blank"
    );
    for i in [0, 2, 3] {
        assert_eq!(pool.get(handles[i]).unwrap().id, u32::try_from(i).unwrap());
    }
    let stats = pool.stats();
    assert_eq!(
        (stats.evicted, stats.failed, stats.released, stats.live),
        (1, 0, 0, 4)
    );

    let next = pool.victim().unwrap();
    assert_eq!(next, handles[3], "0.5 is now the quietest");
    let newest = pool.create(|v| v.volume = 1.0);
    assert_eq!(
        newest.index(),
        next.index(),
        "victim() names whom create cuts"
    );
    assert!(pool.try_create(|_| {}).is_err(), "try_create never evicts");
}

#[test]
fn evict_breaks_ties_by_the_lowest_slot_and_ranks_nan_loudest() {
    let mut pool = VoicePool::new();
    let handles: Vec<_> = [f32::NAN, 0.3, 0.3, 0.4]
        .into_iter()
        .map(|volume| pool.create(|v| v.volume = volume))
        .collect();
    pool.create(|v| v.volume = 1.0);
    assert!(!pool.contains(handles[1]));
    assert!(pool.contains(handles[2]));
    pool.create(|v| v.volume = 1.0);
    assert!(!pool.contains(handles[2]));
    pool.create(|v| v.volume = 1.0);
    assert!(!pool.contains(handles[3]));
    assert!(pool.contains(handles[0]), "NaN ranks above every number");
}

#[test]
fn grow_adds_chunks_without_moving_objects_up_to_max() {
    let mut pool = EnemyPool::new();
    assert_eq!((pool.capacity(), pool.stats().chunks), (4, 1));
    let first = pool.create(|e| e.id = 0).unwrap();
    let address = std::ptr::from_ref(pool.get(first).unwrap());
    let mut handles = vec![first];
    for id in 1..10 {
        handles.push(pool.create(|e| e.id = id).unwrap());
    }
    assert_eq!(
        pool.capacity(),
        10,
        "4, then a chunk of 4, then 2 more to reach max"
    );
    assert_eq!(pool.stats().chunks, 3);
    assert!(
        std::ptr::eq(address, pool.get(first).unwrap()),
        "no object moved"
    );
    assert!(
        pool.create(|_| {}).is_err(),
        "at max it fails like the default"
    );
    assert_eq!(pool.stats().failed, 1);
    let ids: Vec<u32> = pool.iter().map(|(_, e)| e.id).collect();
    assert_eq!(
        ids,
        (0..10).collect::<Vec<_>>(),
        "iteration crosses chunks in slot order"
    );
    for (id, h) in (0..).zip(&handles) {
        assert_eq!(pool.get(*h).unwrap().id, id);
    }
}

#[test]
fn shrink_gives_back_wholly_free_chunks_and_old_handles_stay_stale() {
    let mut pool = EnemyPool::new();
    let handles: Vec<_> = (0..10)
        .map(|id| pool.create(|e| e.id = id).unwrap())
        .collect();
    pool.release(handles[9]).unwrap();
    assert_eq!(pool.shrink(), 0, "the last chunk still holds enemy 8");
    pool.release(handles[8]).unwrap();
    pool.release(handles[5]).unwrap();
    assert_eq!(pool.shrink(), 2);
    assert_eq!((pool.capacity(), pool.stats().chunks), (8, 2));
    for i in [4, 6, 7] {
        pool.release(handles[i]).unwrap();
    }
    assert_eq!(pool.shrink(), 4);
    assert_eq!((pool.capacity(), pool.stats().chunks), (4, 1));
    assert_eq!(pool.shrink(), 0, "the slots built up front stay");
    assert_eq!(pool.len(), 4);

    // Grow into the same slots again: no old handle reaches a new enemy.
    let regrown: Vec<_> = (20..26)
        .map(|id| pool.create(|e| e.id = id).unwrap())
        .collect();
    assert_eq!(pool.capacity(), 10);
    for old in &handles[4..] {
        assert!(pool.get(*old).is_none(), "{old:?} came back to life");
        assert!(regrown.iter().all(|new| new != old));
    }
    for (id, h) in (20..).zip(&regrown) {
        assert_eq!(pool.get(*h).unwrap().id, id);
    }
}

#[test]
fn with_capacity_sets_another_size_for_every_strategy() {
    assert_eq!(SparkPool::with_capacity(2).capacity(), 2);
    assert_eq!(BossPool::with_capacity(7).capacity(), 7);
    assert_eq!(VoicePool::with_capacity(1).capacity(), 1);
    let mut enemies = EnemyPool::with_capacity(2);
    let handles: Vec<_> = (0..10)
        .map(|id| enemies.create(|e| e.id = id).unwrap())
        .collect();
    assert_eq!(enemies.capacity(), 10, "still grows up to max");
    for h in handles {
        enemies.release(h).unwrap();
    }
    enemies.shrink();
    assert_eq!(enemies.capacity(), 2, "and shrinks back to its own size");
}

/// One randomly chosen operation on a pool, checked against a map of what should be live.
macro_rules! churn_matches_the_model {
    ($test:ident, $pool:ident, $create:expr, $reached:expr) => {
        #[test]
        fn $test() {
            let mut rng = fastrand::Rng::with_seed(11);
            let mut pool = $pool::new();
            // Ordered by slot index, not by hash: which object a step releases must not hang on
            // the handles' versions, which start where the process's count of pools has come
            // to (under Miri, 100 steps must still reach the strategy whatever ran before).
            let mut model: BTreeMap<Handle<_>, u32> = BTreeMap::new();
            let mut gone: Vec<Handle<_>> = Vec::new();
            let steps = if cfg!(miri) { 100 } else { 3_000 };
            for step in 0..steps {
                match rng.u8(0..10) {
                    0..=4 => {
                        let created = $create(&mut pool, step);
                        if let Some(h) = created {
                            assert!(model.insert(h, step).is_none(), "a handle was reissued");
                        }
                    }
                    5..=7 if !model.is_empty() => {
                        let h = *model.keys().nth(rng.usize(..model.len())).unwrap();
                        pool.release(h).unwrap();
                        model.remove(&h);
                        gone.push(h);
                    }
                    8 => pool.retain(|o| {
                        let keep = o.id % 3 != 0;
                        keep
                    }),
                    _ => {
                        if let Some(h) = gone.last() {
                            assert!(pool.release(*h).is_err());
                        }
                    }
                }
                // Evictions and `retain` release objects the model still holds: drop them from
                // the model, and every one must be unreachable.
                model.retain(|h, id| {
                    let live = pool.contains(*h);
                    if live {
                        let object = pool.get(*h).unwrap();
                        assert_eq!((object.id, object.trail.as_slice()), (*id, &[*id][..]));
                    } else {
                        gone.push(*h);
                    }
                    live
                });
                assert_eq!(pool.len(), model.len());
                assert_eq!(pool.iter().count(), model.len());
                let stats = pool.stats();
                assert_eq!(stats.live + stats.free + stats.retired, stats.capacity);
                assert!(gone.iter().all(|h| pool.get(*h).is_none()));
            }
            let reached: fn(pooling::Stats) -> bool = $reached;
            assert!(
                reached(pool.stats()),
                "the pool never reached its full-pool strategy"
            );
        }
    };
}

churn_matches_the_model!(
    fail_keeps_every_object,
    SparkPool,
    |pool: &mut SparkPool, id| {
        pool.create(|s: &mut Spark| {
            s.id = id;
            s.trail.push(id);
        })
        .ok()
    },
    |stats| stats.failed > 0
);

churn_matches_the_model!(
    panic_keeps_every_object,
    BossPool,
    |pool: &mut BossPool, id| {
        (!pool.is_full()).then(|| {
            pool.create(|b: &mut Boss| {
                b.id = id;
                b.trail.push(id);
            })
        })
    },
    |stats| stats.high_water == 4
);

churn_matches_the_model!(
    evict_keeps_every_object,
    VoicePool,
    |pool: &mut VoicePool, id| {
        Some(pool.create(|v: &mut Voice| {
            v.id = id;
            v.trail.push(id);
            v.volume = f32::from(u8::try_from(id % 7).unwrap());
        }))
    },
    |stats| stats.evicted > 0
);

churn_matches_the_model!(
    grow_keeps_every_object,
    EnemyPool,
    |pool: &mut EnemyPool, id| {
        if pool.len() <= 3 && pool.shrink() > 0 {
            SHRUNK.set(true);
        }
        pool.create(|e: &mut Enemy| {
            e.id = id;
            e.trail.push(id);
        })
        .ok()
    },
    |stats| stats.high_water == 10 && stats.failed > 0 && SHRUNK.get()
);

#[derive(Pooled)]
#[pool(size = 64)]
struct Contact {
    depth: f32,
    bodies: (u32, u32),
    points: Vec<(f32, f32)>,
}

/// Seed 003's pool with collective reset: scratch objects taken during a frame and all given
/// back at its end with one `release_all`.
#[test]
fn release_all_is_a_per_frame_scratch_pool() {
    let mut contacts = ContactPool::new();
    let mut last_frame: Vec<Handle<Contact>> = Vec::with_capacity(64);
    let mut warmed_up = None;
    for frame in 0..50u32 {
        let info = allocation_counter::measure(|| {
            for _ in last_frame.drain(..) {}
            for i in 0..(frame % 20 + 10) {
                let c = contacts
                    .create(|c| {
                        assert!(c.points.is_empty() && c.depth == 0.0, "a blank contact");
                        c.depth = f32::from(u16::try_from(i).unwrap());
                        c.bodies = (frame, i);
                        c.points.push((0.0, 1.0));
                    })
                    .unwrap();
                last_frame.push(c);
            }
            let deepest = contacts.iter().map(|(_, c)| c.depth).fold(0.0, f32::max);
            assert_eq!(deepest, f32::from(u16::try_from(frame % 20 + 9).unwrap()));
            contacts.release_all();
        });
        assert!(contacts.is_empty());
        assert!(last_frame.iter().all(|c| !contacts.contains(*c)));
        if frame >= 20 {
            // Every slot used so far has its buffer: no frame allocates any more.
            warmed_up.get_or_insert(frame);
            assert_eq!(info.count_total, 0, "frame {frame} allocated");
        }
    }
    assert_eq!(contacts.stats().high_water, 29);
    assert_eq!(warmed_up, Some(20));
}

#[derive(Pooled)]
#[pool(size = 2, on_full = evict, evict_by = |timer| timer.started)]
struct Timer {
    started: u64,
}

#[derive(Pooled)]
#[pool(size = 2, on_full = evict, evict_by = Tagged::rank)]
struct Tagged<T, const N: usize> {
    rank: u8,
    values: [Option<T>; N],
}

impl<T, const N: usize> Tagged<T, N> {
    fn rank(&self) -> u8 {
        self.rank
    }
}

#[test]
fn evict_by_takes_closures_and_works_on_generic_structs() {
    let mut timers = TimerPool::new();
    let oldest = timers.create(|t| t.started = 10);
    let newer = timers.create(|t| t.started = 20);
    assert_eq!(timers.victim(), Some(oldest));
    timers.create(|t| t.started = 30);
    assert!(!timers.contains(oldest) && timers.contains(newer));

    let mut tagged = TaggedPool::<String, 3>::new();
    let low = tagged.create(|t| t.rank = 1);
    let unranked = tagged.create(|t| t.values[2] = Some("cut".into()));
    let high = tagged.create(|t| t.rank = 9);
    assert!(
        !tagged.contains(unranked),
        "rank 0 < 1: the blank-ranked one went first"
    );
    assert!(tagged.contains(low) && tagged.contains(high));
}
