//! Leases of column pools (issue 33): a `ColumnLender` lends rows through `&` as a `Lender`
//! lends objects, with the same strategies, resets and counts, and grows without moving a row.

use pooling::{Handle, Pooled, Stats};
use std::cell::Cell;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::rc::Rc;

#[derive(Pooled)]
#[pool(size = 4, layout = columns)]
struct Spark {
    heat: u32,
    trail: Vec<u8>,
    emitter: Option<Rc<()>>,
}

/// `Spark`'s twin in the default layout: the model a column lender must match.
#[derive(Pooled)]
#[pool(size = 4)]
struct Twin {
    heat: u32,
    trail: Vec<u8>,
    emitter: Option<Rc<()>>,
}

#[derive(Pooled)]
#[pool(size = 2, on_full = grow, max = 12, layout = columns)]
struct Wave {
    id: u32,
    name: String,
}

#[derive(Pooled)]
#[pool(size = 2, on_full = grow, max = 12)]
struct WaveTwin {
    id: u32,
    name: String,
}

#[derive(Pooled)]
#[pool(size = 1, on_full = panic, layout = columns)]
struct Boss {
    health: u32,
}

thread_local! {
    /// Whether a `Touchy` row's reset panics, and whether building a blank one does.
    static TOUCHY: Cell<(bool, bool)> = const { Cell::new((false, false)) };
}

fn touchy_reset(log: &mut Vec<u8>) {
    assert!(!TOUCHY.get().0, "the reset panics");
    log.clear();
}

fn touchy_blank() -> u32 {
    assert!(!TOUCHY.get().1, "the blank value panics");
    0
}

#[derive(Pooled)]
#[pool(size = 2, on_full = grow, max = 8, layout = columns)]
struct Touchy {
    #[pool(reset_with = touchy_reset)]
    log: Vec<u8>,
    #[pool(build = touchy_blank())]
    level: u32,
}

#[test]
fn leases_hold_rows_apart_and_give_them_back_reset() {
    let emitter = Rc::new(());
    let mut pool = SparkPool::new();
    let live = pool.create(|s| *s.heat = 9).unwrap();
    {
        let sparks = pool.lender();
        let mut a = sparks.acquire(|s| *s.heat = 1).unwrap();
        let mut b = sparks
            .acquire(|s| *s.emitter = Some(Rc::clone(&emitter)))
            .unwrap();
        a.row_mut().trail.extend_from_slice(b"ab");
        b.row_mut().trail.push(b'c');
        assert_eq!((*a.row().heat, a.row().trail.as_slice()), (1, &b"ab"[..]));
        assert_eq!((*b.row().heat, b.row().trail.as_slice()), (0, &b"c"[..]));
        // Lookups and iteration read live rows beside the leases, never a leased one.
        assert_eq!(*sparks.get(live).unwrap().heat, 9);
        let seen: Vec<_> = sparks.iter().map(|(h, s)| (h, *s.heat)).collect();
        assert_eq!(seen, [(live, 9)]);
        assert_eq!((sparks.len(), sparks.stats().leased), (1, 2));
        drop(b);
        assert_eq!(
            Rc::strong_count(&emitter),
            1,
            "the lease's reference let go"
        );
        let kept = a.into_handle();
        assert_eq!(sparks.get(kept).unwrap().trail, b"ab");
        assert_eq!(sparks.values().map(|s| *s.heat).sum::<u32>(), 10);
        let stats = sparks.stats();
        assert_eq!((stats.live, stats.leased, stats.free), (2, 0, 2));
    }
    // The slot `b` had is free and its row reset: the next create takes it.
    let next = pool.create(|_| {}).unwrap();
    let row = pool.get(next).unwrap();
    assert!(row.trail.is_empty() && row.emitter.is_none() && *row.heat == 0);
    pool.check_consistency().unwrap();
}

#[test]
fn each_full_pool_strategy_applies_to_acquire_as_far_as_it_can() {
    let mut sparks = SparkPool::new();
    let sparks = sparks.lender();
    let held: Vec<_> = (0..4).map(|_| sparks.acquire(|_| {}).unwrap()).collect();
    assert!(sparks.acquire(|_| unreachable!()).is_err());
    assert_eq!(sparks.stats().failed, 1);
    drop(held);

    let mut bosses = BossPool::new();
    let bosses = bosses.lender();
    let boss = bosses.acquire(|b| *b.health = 900);
    let full = catch_unwind(AssertUnwindSafe(|| bosses.acquire(|_| {})));
    assert!(full.is_err(), "a panicking pool panics when full");
    assert_eq!(*boss.row().health, 900);
    drop(boss);
    assert_eq!(bosses.stats().failed, 1);

    let mut waves = WavePool::new();
    let waves = waves.lender();
    let held: Vec<_> = (0..12)
        .map(|id| waves.acquire(|w| *w.id = id).unwrap())
        .collect();
    assert_eq!(waves.capacity(), 12);
    assert!(waves.acquire(|_| {}).is_err(), "at `max`");
    assert!(waves.try_acquire(|_| {}).is_err());
    let ids: Vec<u32> = held.iter().map(|w| *w.row().id).collect();
    assert_eq!(ids, (0..12).collect::<Vec<_>>());
}

#[test]
fn growing_through_a_lender_moves_no_row_a_lease_holds() {
    let mut pool = WavePool::new();
    let first = pool.create(|w| w.name.push_str("first")).unwrap();
    {
        let waves = pool.lender();
        let mut held = Vec::new();
        let mut places = Vec::new();
        for id in 0..10 {
            let mut lease = waves.acquire(|w| *w.id = id).unwrap();
            lease.row_mut().name.push_str("wave");
            places.push(std::ptr::from_ref::<u32>(lease.row().id));
            held.push(lease);
        }
        assert_eq!(waves.capacity(), 12, "grew past the first chunk twice");
        for (id, (lease, place)) in held.iter().zip(&places).enumerate() {
            assert_eq!(*lease.row().id as usize, id);
            assert_eq!(
                std::ptr::from_ref::<u32>(lease.row().id),
                *place,
                "never moved"
            );
            assert_eq!(lease.row().name, "wave");
        }
        assert_eq!(waves.get(first).unwrap().name, "first");
        let kept: Vec<Handle<Wave>> = held
            .drain(5..)
            .map(pooling::ColumnLease::into_handle)
            .collect();
        assert_eq!(waves.len(), 6);
        assert_eq!(kept.len(), 5);
    }
    // After the lender, the pool has a row for every slot the lender grew.
    assert_eq!(pool.len(), 6);
    pool.check_consistency().unwrap();
    let ids: Vec<u32> = pool.values().map(|w| *w.id).collect();
    assert_eq!(ids, [0, 5, 6, 7, 8, 9]);
    for _ in 0..6 {
        pool.create(|w| w.name.push('x')).unwrap();
    }
    assert!(pool.create(|_| {}).is_err(), "at `max`");
    let runs: usize = pool.runs().map(|run| run.id.len()).sum();
    assert_eq!(runs, 12);
    // Every lent chunk freed again, the pool shrinks back.
    pool.release_all();
    assert_eq!(pool.shrink(), 10);
    assert_eq!(pool.capacity(), 2);
}

#[test]
#[expect(
    clippy::forget_non_drop,
    reason = "a lender has no drop glue now; this pins that forgetting one stays harmless"
)]
fn a_forgotten_lender_leaves_the_pool_whole() {
    let mut pool = WavePool::new();
    let lender = pool.lender();
    let kept = (0..3)
        .map(|id| lender.acquire(|w| *w.id = id).unwrap().into_handle())
        .collect::<Vec<_>>();
    let leaked = lender.acquire(|w| *w.id = 99).unwrap();
    std::mem::forget(leaked);
    std::mem::forget(lender);
    pool.check_consistency().unwrap();
    assert_eq!((pool.len(), pool.stats().leased), (3, 1));
    for (id, handle) in kept.into_iter().enumerate() {
        assert_eq!(*pool.get(handle).unwrap().id as usize, id);
    }
    let more = pool.create(|w| *w.id = 4).unwrap();
    assert_eq!(*pool.get(more).unwrap().id, 4);
}

#[test]
fn a_panicking_init_leaves_the_slot_free_and_its_row_reset() {
    let emitter = Rc::new(());
    let mut pool = SparkPool::new();
    let sparks = pool.lender();
    let result = catch_unwind(AssertUnwindSafe(|| {
        sparks.acquire(|s| {
            s.trail.push(1);
            *s.emitter = Some(Rc::clone(&emitter));
            panic!("init fails");
        })
    }));
    assert!(result.is_err());
    assert_eq!(Rc::strong_count(&emitter), 1, "the row was reset");
    let stats = sparks.stats();
    assert_eq!((stats.leased, stats.free, stats.created), (0, 4, 0));
    let lease = sparks.acquire(|_| {}).unwrap();
    assert!(lease.row().trail.is_empty());
}

#[test]
fn a_reset_that_panics_as_a_lease_drops_retires_its_slot() {
    let mut pool = TouchyPool::new();
    {
        let touchy = pool.lender();
        let mut lease = touchy.acquire(|_| {}).unwrap();
        lease.row_mut().log.push(1);
        TOUCHY.set((true, false));
        let dropped = catch_unwind(AssertUnwindSafe(move || drop(lease)));
        TOUCHY.set((false, false));
        assert!(dropped.is_err());
        let stats = touchy.stats();
        assert_eq!((stats.leased, stats.retired, stats.free), (0, 1, 1));
        // The other slot is still lent out, and the retired one never again.
        let a = touchy.acquire(|l| *l.level = 1).unwrap();
        let b = touchy.acquire(|l| *l.level = 2).unwrap();
        assert_eq!(touchy.capacity(), 4, "grew past the retired slot");
        drop((a, b));
    }
    pool.check_consistency().unwrap();
    assert_eq!(pool.stats().retired, 1);
}

#[test]
fn a_blank_value_that_panics_while_a_lender_grows_leaves_the_pool_whole() {
    let mut pool = TouchyPool::new();
    {
        let touchy = pool.lender();
        let held = [
            touchy.acquire(|_| {}).unwrap(),
            touchy.acquire(|_| {}).unwrap(),
        ];
        TOUCHY.set((false, true));
        let grown = catch_unwind(AssertUnwindSafe(|| touchy.acquire(|_| {}).map(|_| ())));
        TOUCHY.set((false, false));
        assert!(grown.is_err(), "the blank value panicked");
        assert_eq!(touchy.capacity(), 2, "the pool did not grow");
        let third = touchy.acquire(|l| *l.level = 3).unwrap();
        assert_eq!((touchy.capacity(), *third.row().level), (4, 3));
        drop((held, third));
    }
    pool.check_consistency().unwrap();
    assert_eq!(pool.stats().free, 4);
}

#[test]
fn init_may_reach_the_lender_again() {
    let mut pool = WavePool::new();
    let old = pool.create(|w| *w.id = 7).unwrap();
    let waves = pool.lender();
    let outer = waves
        .acquire(|w| {
            *w.id = 1;
            // The slot in hand counts as lent: a growing pool grows for the inner one.
            let inner = waves.acquire(|v| *v.id = 2).unwrap();
            assert_eq!(*waves.get(old).unwrap().id, 7);
            assert_eq!(waves.iter().count(), 1);
            assert_eq!(inner.into_handle().index(), 2);
        })
        .unwrap();
    assert_eq!((*outer.row().id, waves.len(), waves.capacity()), (1, 2, 4));
}

fn same_stats(a: Stats, b: Stats) -> bool {
    let key = |s: Stats| {
        (
            s.capacity, s.live, s.leased, s.free, s.created, s.released, s.failed, s.retired,
        )
    };
    key(a) == key(b)
}

#[test]
fn random_leases_leave_both_layouts_alike() {
    let emitter = Rc::new(());
    let (seeds, steps) = if cfg!(miri) { (2, 80) } else { (30, 300) };
    for seed in 0..seeds {
        let mut rng = fastrand::Rng::with_seed(seed);
        let (mut columns, mut twin) = (WavePool::new(), WaveTwinPool::new());
        let (mut sparks, mut spark_twin) = (SparkPool::new(), TwinPool::new());
        {
            let (columns, twin) = (columns.lender(), twin.lender());
            let (sparks, spark_twin) = (sparks.lender(), spark_twin.lender());
            let mut leases = Vec::new();
            let mut spark_leases = Vec::new();
            for step in 0..steps {
                match rng.u8(0..8) {
                    0..=2 => {
                        let a = columns.acquire(|w| *w.id = step);
                        let b = twin.acquire(|w| w.id = step);
                        assert_eq!(a.is_ok(), b.is_ok(), "seed {seed}, step {step}");
                        if let (Ok(a), Ok(b)) = (a, b) {
                            leases.push((a, b));
                        }
                    }
                    3 => {
                        let a = sparks.acquire(|s| *s.emitter = Some(Rc::clone(&emitter)));
                        let b = spark_twin.acquire(|s| s.emitter = Some(Rc::clone(&emitter)));
                        assert_eq!(a.is_ok(), b.is_ok(), "seed {seed}, step {step}");
                        if let (Ok(a), Ok(b)) = (a, b) {
                            spark_leases.push((a, b));
                        }
                    }
                    4 if !leases.is_empty() => {
                        let (a, b) = leases.swap_remove(rng.usize(..leases.len()));
                        assert_eq!(a.into_handle().index(), b.into_handle().index());
                    }
                    5 if !leases.is_empty() => {
                        let (mut a, mut b) = leases.swap_remove(rng.usize(..leases.len()));
                        a.row_mut().name.push('x');
                        b.name.push('x');
                    }
                    6 if !spark_leases.is_empty() => {
                        drop(spark_leases.swap_remove(rng.usize(..spark_leases.len())));
                    }
                    _ if !leases.is_empty() => {
                        let at = rng.usize(..leases.len());
                        let (a, b) = &mut leases[at];
                        a.row_mut().name.push('y');
                        b.name.push('y');
                        assert_eq!(a.row().name, &b.name);
                    }
                    _ => {}
                }
                let rows: Vec<_> = columns.iter().map(|(h, w)| (h.index(), *w.id)).collect();
                let twins: Vec<_> = twin.iter().map(|(h, w)| (h.index(), w.id)).collect();
                assert_eq!(rows, twins, "seed {seed}, step {step}");
                assert!(same_stats(columns.stats(), twin.stats()));
                assert!(same_stats(sparks.stats(), spark_twin.stats()));
            }
        }
        columns.check_consistency().unwrap();
        sparks.check_consistency().unwrap();
        assert!(same_stats(columns.stats(), twin.stats()));
        let names: Vec<_> = columns.values().map(|w| w.name.clone()).collect();
        let twin_names: Vec<_> = twin.values().map(|w| w.name.clone()).collect();
        assert_eq!(names, twin_names, "seed {seed}");
        drop((sparks, spark_twin));
        assert_eq!(
            Rc::strong_count(&emitter),
            1,
            "seed {seed}: no reference outlives"
        );
    }
}

/// A column lender finds a chunk's rows each time it needs them (issue 38): a row borrowed
/// from a lease before the lender grows the pool, and before an `init` reaches the lender
/// again, is still the lease's, and writes through it land (checked under Miri).
#[test]
fn a_leases_row_borrowed_across_growth_and_a_reentrant_init_stays_its_own() {
    let mut pool = WavePool::new();
    let old = pool.create(|w| *w.id = 70).unwrap();
    let waves = pool.lender();
    let mut first = waves.acquire(|w| *w.id = 1).unwrap();
    let held = first.row_mut();
    let read = waves.get(old).unwrap();
    let outer = waves
        .acquire(|w| {
            *w.id = 2;
            let inner = waves.acquire(|v| *v.id = 3).unwrap();
            assert_eq!(*waves.get(old).unwrap().id, 70);
            assert_eq!(*inner.row().id, 3);
        })
        .unwrap();
    assert_eq!(waves.capacity(), 4, "the inner acquire grew the pool");
    let grown: Vec<_> = (0..5)
        .map(|n| waves.acquire(|w| *w.id = 10 + n).unwrap())
        .collect();
    assert_eq!(waves.capacity(), 8);
    *held.id += 100;
    held.name.push_str("held");
    assert_eq!(*read.id, 70);
    assert_eq!((*first.row().id, first.row().name.as_str()), (101, "held"));
    assert_eq!(*outer.row().id, 2);
    let ids: Vec<u32> = grown.iter().map(|w| *w.row().id).collect();
    assert_eq!(ids, [10, 11, 12, 13, 14]);
    assert_eq!(waves.stats().leased, 7);
}

/// A column lender is the books' lender and a pointer to the columns, whatever the number of
/// fields (issue 38: it was 4,600 bytes for eight fields, a table of every chunk's columns).
#[test]
fn a_column_lender_is_a_few_words() {
    let words = |bytes: usize| bytes / std::mem::size_of::<usize>();
    assert!(words(size_of::<pooling::ColumnLender<'_, Spark>>()) <= 12);
    assert!(words(size_of::<pooling::ColumnLender<'_, Wave, pooling::Grow<12>>>()) <= 12);
}
