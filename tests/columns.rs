//! Columns (issue 33): `#[pool(layout = columns)]` keeps each field in an array of its own,
//! behind the same handles, strategies, stats and resets as the default layout.
#![expect(
    clippy::cast_precision_loss,
    clippy::cast_possible_truncation,
    reason = "slot indices and counts below a thousand"
)]

use pooling::{Handle, Pooled, Stats};
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::rc::Rc;

#[derive(Pooled)]
#[pool(size = 64, layout = columns)]
struct Particle {
    x: f32,
    vx: f32,
    frames_left: u32,
    trail: Vec<u8>,
    emitter: Option<Rc<()>>,
}

/// `Particle`'s twin in the default layout: the model a column pool must match.
#[derive(Pooled)]
#[pool(size = 64)]
struct Twin {
    x: f32,
    vx: f32,
    frames_left: u32,
    trail: Vec<u8>,
    emitter: Option<Rc<()>>,
}

#[derive(Pooled)]
#[pool(size = 8, layout = columns)]
struct Tuned {
    #[pool(reset = 7)]
    seven: u32,
    #[pool(keep)]
    kept: u32,
    #[pool(build = Vec::with_capacity(32))]
    buffer: Vec<u8>,
    #[pool(reset_with = Vec::clear)]
    log: Vec<String>,
}

#[derive(Pooled)]
#[pool(size = 2, on_full = grow, max = 40, layout = columns)]
struct Enemy {
    id: u32,
    name: String,
}

thread_local! {
    /// Blank `Fragile` values built so far, and the one whose building panics.
    static FRAGILE: std::cell::Cell<(u32, u32)> = const { std::cell::Cell::new((0, u32::MAX)) };
}

/// A blank value that panics when it is the one `FRAGILE` names.
fn fragile() -> u32 {
    FRAGILE.with(|cell| {
        let (built, panics_at) = cell.get();
        cell.set((built + 1, panics_at));
        assert!(built != panics_at, "the blank value panics");
        built
    })
}

#[derive(Pooled)]
#[pool(size = 2, on_full = grow, max = 16, layout = columns)]
struct Fragile {
    #[pool(build = fragile(), keep)]
    serial: u32,
    name: String,
}

#[test]
fn a_blank_value_that_panics_while_the_pool_grows_leaves_it_whole() {
    let mut pool = FragilePool::new();
    let a = pool.create(|f| f.name.push('a')).unwrap();
    let b = pool.create(|f| f.name.push('b')).unwrap();
    // The chunk the next create adds has two slots: the second one's blank panics.
    FRAGILE.with(|cell| cell.set((cell.get().0, cell.get().0 + 1)));
    let caught = catch_unwind(AssertUnwindSafe(|| pool.create(|_| {})));
    assert!(caught.is_err());
    assert_eq!(pool.capacity(), 2, "the chunk went back");
    pool.check_consistency().unwrap();
    assert_eq!(
        (
            pool.get(a).unwrap().name.as_str(),
            pool.get(b).unwrap().name.as_str()
        ),
        ("a", "b")
    );
    FRAGILE.with(|cell| cell.set((cell.get().0, u32::MAX)));
    let handles: Vec<_> = (0..10)
        .map(|_| pool.create(|f| f.name.push('c')).unwrap())
        .collect();
    assert!(pool.capacity() > 2);
    assert!(handles.iter().all(|&h| pool.get(h).unwrap().name == "c"));
    pool.check_consistency().unwrap();
}

#[derive(Pooled)]
#[pool(size = 2, on_full = panic, layout = columns)]
struct Boss {
    health: u32,
}

#[test]
fn a_released_object_is_reset_field_by_field_and_its_handle_goes_stale() {
    let mut pool = ParticlePool::new();
    let emitter = Rc::new(());
    let p = pool
        .create(|p| {
            (*p.x, *p.vx, *p.frames_left) = (1.0, 2.0, 3);
            p.trail.extend_from_slice(&[1, 2, 3]);
            *p.emitter = Some(Rc::clone(&emitter));
        })
        .unwrap();
    assert_eq!(Rc::strong_count(&emitter), 2);
    let row = pool.get(p).unwrap();
    assert_eq!((*row.x, *row.vx, *row.frames_left), (1.0, 2.0, 3));
    assert_eq!(row.trail, &[1, 2, 3]);

    pool.release(p).unwrap();
    assert_eq!(
        Rc::strong_count(&emitter),
        1,
        "the reference let go at release"
    );
    assert!(pool.get(p).is_none());
    assert!(pool.get_mut(p).is_none());
    assert!(!pool.contains(p));
    assert!(pool.release(p).is_err());

    let q = pool.create(|_| {}).unwrap();
    assert_eq!(q.index(), p.index(), "the slot is reused");
    assert_ne!(q, p);
    let row = pool.get(q).unwrap();
    assert_eq!((*row.x, *row.vx, *row.frames_left), (0.0, 0.0, 0));
    assert!(
        row.trail.is_empty() && row.trail.capacity() >= 3,
        "cleared, buffer kept"
    );
    assert!(row.emitter.is_none());
}

#[test]
fn field_attributes_reset_as_in_the_default_layout() {
    let mut pool = TunedPool::new();
    let t = pool.create(|_| {}).unwrap();
    let row = pool.get(t).unwrap();
    assert_eq!(*row.seven, 7);
    assert!(row.buffer.capacity() >= 32, "built by `build`");
    let t2 = pool
        .create(|t| {
            *t.seven = 1;
            *t.kept = 9;
            t.buffer.push(1);
            t.log.push("hit".into());
        })
        .unwrap();
    pool.release(t2).unwrap();
    pool.release(t).unwrap();
    // The slot released last is taken first.
    let again = pool.create(|_| {}).unwrap();
    assert_eq!(again.index(), t.index());
    let again = pool.create(|_| {}).unwrap();
    assert_eq!(again.index(), t2.index());
    let row = pool.get(again).unwrap();
    assert_eq!(
        (*row.seven, *row.kept),
        (7, 9),
        "`reset` reset, `keep` kept"
    );
    assert!(row.buffer.is_empty() && row.log.is_empty());
}

#[test]
fn a_panicking_init_leaves_the_slot_free_and_its_row_reset() {
    let mut pool = ParticlePool::new();
    let emitter = Rc::new(());
    let caught = catch_unwind(AssertUnwindSafe(|| {
        pool.create(|p| {
            *p.emitter = Some(Rc::clone(&emitter));
            p.trail.push(1);
            panic!("init fails");
        })
    }));
    assert!(caught.is_err());
    assert_eq!(Rc::strong_count(&emitter), 1, "what init wrote is reset");
    assert!(pool.is_empty());
    pool.check_consistency().unwrap();
    let p = pool.create(|_| {}).unwrap();
    assert!(pool.get(p).unwrap().trail.is_empty());
}

#[test]
fn runs_are_the_live_objects_in_slot_order_as_equal_slices() {
    let mut pool = ParticlePool::new();
    let handles: Vec<_> = (0..40)
        .map(|i| pool.create(|p| *p.frames_left = i).unwrap())
        .collect();
    for (i, &h) in handles.iter().enumerate() {
        if i % 3 == 0 || (10..20).contains(&i) {
            pool.release(h).unwrap();
        }
    }
    let mut seen = Vec::new();
    for run in pool.runs() {
        assert_eq!(run.x.len(), run.frames_left.len());
        assert_eq!(run.trail.len(), run.emitter.len());
        assert!(!run.x.is_empty());
        seen.extend_from_slice(run.frames_left);
    }
    let live: Vec<u32> = (0..40)
        .filter(|i| !(i % 3 == 0 || (10..20).contains(i)))
        .collect();
    assert_eq!(seen, live);
    let runs = pool.runs().count();
    // 1-2, 4-5, 7-8, 20, and six pairs from 22-23 to 37-38.
    assert_eq!(runs, 10, "runs end only at released slots");

    for run in pool.runs_mut() {
        for (x, f) in run.x.iter_mut().zip(&*run.frames_left) {
            *x = *f as f32;
        }
    }
    for (handle, row) in &pool {
        assert_eq!(*row.x, *row.frames_left as f32);
        assert_eq!(handle.index() as u32, *row.frames_left);
        assert!(handles.contains(&handle));
    }
    assert_eq!(pool.values().count(), live.len());
    for row in pool.values_mut() {
        *row.vx = 1.0;
    }
    for (handle, row) in &mut pool {
        *row.vx += handle.index() as f32;
    }
    assert!(
        pool.values()
            .all(|row| *row.vx == 1.0 + *row.frames_left as f32)
    );
}

#[test]
fn retain_releases_and_resets_the_rows_it_drops() {
    let mut pool = ParticlePool::new();
    let emitter = Rc::new(());
    for frames in 1..=10 {
        pool.create(|p| {
            *p.frames_left = frames;
            *p.emitter = Some(Rc::clone(&emitter));
        })
        .unwrap();
    }
    pool.retain(|p| {
        *p.frames_left -= 1;
        *p.frames_left > 5
    });
    assert_eq!(pool.len(), 4);
    assert_eq!(Rc::strong_count(&emitter), 5);
    let mut dropped = Vec::new();
    pool.retain_with_handle(|handle, p| {
        if *p.frames_left == 9 {
            dropped.push(handle);
            return false;
        }
        true
    });
    assert_eq!(dropped.len(), 1);
    assert!(!pool.contains(dropped[0]));
    pool.release_all();
    assert!(pool.is_empty());
    assert_eq!(Rc::strong_count(&emitter), 1);
    let stats = pool.stats();
    assert_eq!((stats.created, stats.released, stats.live), (10, 10, 0));
}

#[test]
fn a_panic_in_retain_leaves_the_pool_whole() {
    let mut pool = ParticlePool::new();
    for frames in 0..8 {
        pool.create(|p| *p.frames_left = frames).unwrap();
    }
    let caught = catch_unwind(AssertUnwindSafe(|| {
        pool.retain(|p| {
            assert!(*p.frames_left != 5, "keep fails");
            *p.frames_left % 2 == 0
        });
    }));
    assert!(caught.is_err());
    pool.check_consistency().unwrap();
    assert_eq!(pool.len(), 6, "the odd ones before the panic released");
    assert_eq!(pool.values().count(), pool.len());
}

#[test]
fn a_growing_pool_grows_its_columns_and_never_loses_an_object() {
    let mut pool = EnemyPool::new();
    let handles: Vec<_> = (0..40)
        .map(|id| {
            pool.create(|e| {
                *e.id = id;
                e.name.push_str("enemy");
            })
            .unwrap()
        })
        .collect();
    assert_eq!(pool.capacity(), 40);
    assert!(pool.create(|_| {}).is_err(), "at `max`");
    for (id, &h) in (0..).zip(&handles) {
        assert_eq!(*pool.get(h).unwrap().id, id);
    }
    assert_eq!(
        pool.runs().map(|run| run.id.len()).sum::<usize>(),
        40,
        "runs reach every chunk"
    );
    for &h in &handles[2..] {
        pool.release(h).unwrap();
    }
    assert_eq!(pool.shrink(), 38);
    assert_eq!(pool.capacity(), 2);
    assert!(pool.get(handles[10]).is_none());
    let again = pool.create(|e| *e.id = 99).unwrap();
    assert_eq!(*pool.get(again).unwrap().id, 99);
    assert!(
        pool.get(again).unwrap().name.is_empty(),
        "a grown row is blank"
    );
    pool.check_consistency().unwrap();
}

#[test]
fn a_panicking_pool_panics_when_full_and_stays_whole() {
    let mut pool = BossPool::new();
    let a = pool.create(|b| *b.health = 1);
    pool.create(|b| *b.health = 2);
    let caught = catch_unwind(AssertUnwindSafe(|| pool.create(|_| {})));
    let message = caught.unwrap_err();
    let message = message.downcast_ref::<String>().unwrap();
    assert!(message.contains("BossPool is full"), "{message}");
    assert_eq!(*pool.get(a).unwrap().health, 1);
    assert!(pool.try_create(|_| {}).is_err());
    assert_eq!(pool.stats().failed, 2);
}

#[test]
fn a_burst_fills_free_slots_in_order_and_counts_one_refusal() {
    let mut pool = ParticlePool::new();
    let mut made = Vec::new();
    let n = pool.create_many_with_handle(100, |i, handle, p| {
        *p.frames_left = u32::try_from(i).unwrap();
        made.push(handle);
    });
    assert_eq!(n, 64);
    assert_eq!(pool.stats().failed, 1);
    for (i, h) in made.iter().enumerate() {
        assert_eq!(h.index(), i);
        assert_eq!(*pool.get(*h).unwrap().frames_left as usize, i);
    }
}

#[test]
fn a_clone_holds_every_live_object_at_its_handle_and_creates_alike() {
    let emitter = Rc::new(());
    let mut pool = ParticlePool::new();
    let handles: Vec<_> = (0..10)
        .map(|i| {
            pool.create(|p| {
                *p.frames_left = i;
                p.trail.push(u8::try_from(i).unwrap());
                *p.emitter = Some(Rc::clone(&emitter));
            })
            .unwrap()
        })
        .collect();
    for &h in handles.iter().step_by(3) {
        pool.release(h).unwrap();
    }
    let mut copy = pool.clone();
    assert_eq!(Rc::strong_count(&emitter), 1 + 2 * pool.len());
    assert!(same_stats(copy.stats(), pool.stats()));
    for &h in &handles {
        assert_eq!(copy.contains(h), pool.contains(h));
        if let (Some(a), Some(b)) = (pool.get(h), copy.get(h)) {
            assert_eq!((*a.frames_left, a.trail), (*b.frames_left, b.trail));
        }
    }
    *copy.get_mut(handles[1]).unwrap().frames_left = 99;
    assert_eq!(
        *pool.get(handles[1]).unwrap().frames_left,
        1,
        "the copy is its own"
    );
    let (a, b) = (pool.create(|_| {}).unwrap(), copy.create(|_| {}).unwrap());
    assert_eq!(a, b, "free slots are taken in the same order");
    assert!(copy.get(b).unwrap().trail.is_empty() && copy.get(b).unwrap().emitter.is_none());
    drop(copy);
    assert_eq!(Rc::strong_count(&emitter), 1 + pool.len() - 1);
}

#[derive(Pooled)]
#[pool(size = 64, layout = columns)]
struct Saved {
    x: f32,
    frames_left: u32,
    trail: Vec<u8>,
}

#[derive(Pooled, serde::Serialize, serde::Deserialize)]
#[pool(size = 4)]
struct Plain {
    x: f32,
}

#[test]
fn a_save_loads_every_live_object_at_its_handle_and_refuses_rows_that_do_not_fit() {
    let mut pool = SavedPool::new();
    let handles: Vec<_> = (0..12)
        .map(|i| {
            pool.create(|p| {
                *p.frames_left = i;
                *p.x = i as f32 / 2.0;
                p.trail.extend([1, 2, u8::try_from(i).unwrap()]);
            })
            .unwrap()
        })
        .collect();
    for &h in handles.iter().step_by(4) {
        pool.release(h).unwrap();
    }
    let json = serde_json::to_string(&pool).unwrap();
    let loaded: SavedPool = serde_json::from_str(&json).unwrap();
    let bytes = postcard::to_allocvec(&pool).unwrap();
    let mut from_bytes: SavedPool = postcard::from_bytes(&bytes).unwrap();
    for copy in [&loaded, &from_bytes] {
        assert_eq!(copy.stats(), pool.stats());
        for &h in &handles {
            match (pool.get(h), copy.get(h)) {
                (Some(a), Some(b)) => {
                    assert_eq!(
                        (*a.frames_left, *a.x, a.trail),
                        (*b.frames_left, *b.x, b.trail)
                    );
                }
                (None, None) => {}
                _ => panic!("{h:?} differs"),
            }
        }
        copy.check_consistency().unwrap();
    }
    let (a, b) = (
        pool.create(|_| {}).unwrap(),
        from_bytes.create(|_| {}).unwrap(),
    );
    assert_eq!(a, b, "free slots are taken in the same order");

    // Rows that do not match the live slots, or a row of the wrong width, are errors.
    let mut value: serde_json::Value = serde_json::from_str(&json).unwrap();
    let rows = value["rows"].as_array_mut().unwrap();
    let extra = rows[0].clone();
    rows.push(extra);
    let error = serde_json::from_value::<SavedPool>(value.clone())
        .err()
        .unwrap();
    assert!(error.to_string().contains("rows for"), "{error}");
    let rows = value["rows"].as_array_mut().unwrap();
    rows.pop();
    rows[0].as_array_mut().unwrap().pop();
    assert!(serde_json::from_value::<SavedPool>(value.clone()).is_err());
    // A default layout's save is not a column pool's.
    let mut plain = PlainPool::new();
    plain.create(|_| {}).unwrap();
    let plain_json = serde_json::to_string(&plain).unwrap();
    assert!(serde_json::from_str::<SavedPool>(&plain_json).is_err());
    // Every prefix of a postcard save is refused, none panics.
    let step = if cfg!(miri) { 23 } else { 1 };
    for cut in (0..bytes.len()).step_by(step) {
        assert!(postcard::from_bytes::<SavedPool>(&bytes[..cut]).is_err());
    }
}

/// What both layouts hold: each live object's slot index and fields.
fn column_rows(pool: &ParticlePool) -> Vec<(usize, f32, u32, Vec<u8>, bool)> {
    pool.iter()
        .map(|(h, p)| {
            (
                h.index(),
                *p.x,
                *p.frames_left,
                p.trail.clone(),
                p.emitter.is_some(),
            )
        })
        .collect()
}

fn twin_rows(pool: &TwinPool) -> Vec<(usize, f32, u32, Vec<u8>, bool)> {
    pool.iter()
        .map(|(h, p)| {
            (
                h.index(),
                p.x,
                p.frames_left,
                p.trail.clone(),
                p.emitter.is_some(),
            )
        })
        .collect()
}

fn same_stats(a: Stats, b: Stats) -> bool {
    (
        a.capacity,
        a.live,
        a.free,
        a.created,
        a.released,
        a.failed,
        a.high_water,
    ) == (
        b.capacity,
        b.live,
        b.free,
        b.created,
        b.released,
        b.failed,
        b.high_water,
    )
}

#[test]
fn random_operations_leave_both_layouts_alike() {
    let emitter = Rc::new(());
    // Miri checks the unchecked row reads on a few seeds; the rest are for the logic.
    let (seeds, steps) = if cfg!(miri) { (2, 60) } else { (40, 400) };
    for seed in 0..seeds {
        let mut rng = fastrand::Rng::with_seed(seed);
        let mut columns = ParticlePool::new();
        let mut twin = TwinPool::new();
        let mut handles: Vec<(Handle<Particle>, Handle<Twin>)> = Vec::new();
        for step in 0..steps {
            match rng.u8(0..10) {
                0..=3 => {
                    let trail = rng.u8(..);
                    let a = columns.create(|p| {
                        *p.frames_left = step;
                        p.trail.push(trail);
                        *p.emitter = Some(Rc::clone(&emitter));
                    });
                    let b = twin.create(|p| {
                        p.frames_left = step;
                        p.trail.push(trail);
                        p.emitter = Some(Rc::clone(&emitter));
                    });
                    assert_eq!(a.is_ok(), b.is_ok());
                    if let (Ok(a), Ok(b)) = (a, b) {
                        assert_eq!(a.index(), b.index());
                        handles.push((a, b));
                    }
                }
                4..=6 if !handles.is_empty() => {
                    let (a, b) = handles.swap_remove(rng.usize(..handles.len()));
                    assert_eq!(columns.release(a).is_ok(), twin.release(b).is_ok());
                }
                7 => {
                    let n = rng.usize(..20);
                    let made_a = columns.create_many(n, |i, p| *p.x = i as f32);
                    let made_b = twin.create_many(n, |i, p| p.x = i as f32);
                    assert_eq!(made_a, made_b);
                }
                8 => {
                    let cut = rng.u32(..=step.max(1));
                    columns.retain(|p| *p.frames_left >= cut);
                    twin.retain(|p| p.frames_left >= cut);
                    handles.retain(|(a, _)| columns.contains(*a));
                }
                _ => {
                    for run in columns.runs_mut() {
                        for x in run.x.iter_mut() {
                            *x += 1.0;
                        }
                    }
                    twin.values_mut().for_each(|p| p.x += 1.0);
                }
            }
            assert_eq!(
                column_rows(&columns),
                twin_rows(&twin),
                "seed {seed}, step {step}"
            );
            assert!(
                same_stats(columns.stats(), twin.stats()),
                "seed {seed}, step {step}"
            );
        }
        columns.check_consistency().unwrap();
        drop((columns, twin));
        assert_eq!(
            Rc::strong_count(&emitter),
            1,
            "seed {seed}: no reference outlives its pool"
        );
    }
}

/// Rayon under Miri is slow: `.ci/run` skips this module there.
mod rayon_walks {
    use super::*;
    use rayon::prelude::*;

    #[derive(Pooled)]
    #[pool(size = 1000, on_full = grow, layout = columns)]
    struct Mote {
        id: u32,
        visits: u32,
    }

    #[test]
    fn parallel_runs_visit_each_live_object_once_across_grown_chunks() {
        let mut pool = MotePool::new();
        let handles: Vec<_> = (0..5000)
            .map(|id| pool.create(|m| *m.id = id).unwrap())
            .collect();
        assert!(pool.stats().chunks > 1);
        for &h in handles.iter().step_by(7) {
            pool.release(h).unwrap();
        }
        for _ in 0..3 {
            pool.par_runs_mut().for_each(|run| {
                assert_eq!(run.id.len(), run.visits.len());
                for visits in run.visits.iter_mut() {
                    *visits += 1;
                }
            });
        }
        assert!(pool.values().all(|m| *m.visits == 3));
        let live: Vec<u32> = pool.values().map(|m| *m.id).collect();
        let expected: Vec<u32> = (0..5000).filter(|id| id % 7 != 0).collect();
        assert_eq!(live, expected);
        let runs = pool.par_runs_mut().count();
        assert!(
            runs >= pool.runs().count(),
            "split only at group boundaries"
        );
    }

    #[test]
    fn parallel_groups_cover_every_row_once_across_grown_chunks() {
        let mut pool = MotePool::new();
        let handles: Vec<_> = (0..5000)
            .map(|id| pool.create(|m| *m.id = id).unwrap())
            .collect();
        assert!(pool.stats().chunks > 1);
        for &h in handles.iter().step_by(7) {
            pool.release(h).unwrap();
        }
        for _ in 0..3 {
            pool.par_groups_mut().for_each(|(live, group)| {
                assert!(
                    group.id.len() <= live.len() * 64 && group.id.len() > (live.len() - 1) * 64
                );
                assert!(
                    live.iter().all(|&word| word != 0),
                    "a word with no live row"
                );
                // Every row, free ones too: a free row's count is reset when it is reused.
                for visits in group.visits.iter_mut() {
                    *visits += 1;
                }
            });
        }
        assert!(pool.values().all(|m| *m.visits == 3));
        let rows: usize = pool.par_groups_mut().map(|(_, group)| group.id.len()).sum();
        let by_one: usize = pool.groups_mut().map(|(_, group)| group.id.len()).sum();
        assert_eq!(
            rows, by_one,
            "the rows of the groups, split between threads or not"
        );
        assert!(rows >= 5000, "every row of each word with a live one");
        while pool.len() < pool.capacity() {
            let h = pool.create(|_| {}).unwrap();
            assert_eq!(*pool.get(h).unwrap().visits, 0, "a reused row is blank");
        }
    }
}
