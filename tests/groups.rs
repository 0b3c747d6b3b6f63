//! Groups (issue 31): the live objects as runs of slices, and bursts of creates.

use pooling::{Handle, Pooled};
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::rc::Rc;

#[derive(Pooled, Debug)]
#[pool(size = 200)]
struct Spark {
    id: u32,
    heat: f32,
    held: Option<Rc<()>>,
}

#[derive(Pooled)]
#[pool(size = 4, on_full = grow, max = 64)]
struct Enemy {
    id: u32,
}

#[derive(Pooled)]
#[pool(size = 100, storage = inline)]
struct Mote {
    id: u32,
}

#[test]
fn a_burst_fills_a_fresh_pool_in_index_order_and_stops_when_full() {
    let mut sparks = SparkPool::new();
    let mut made = Vec::new();
    let n = sparks.create_many_with_handle(150, |i, handle, spark| {
        spark.id = u32::try_from(i).unwrap();
        made.push(handle);
    });
    assert_eq!(n, 150);
    assert_eq!(
        made.iter().map(|h| h.index()).collect::<Vec<_>>(),
        (0..150).collect::<Vec<_>>()
    );
    assert!(
        made.iter()
            .enumerate()
            .all(|(i, &h)| sparks[h].id as usize == i)
    );
    assert_eq!(sparks.stats().failed, 0);
    assert_eq!(
        sparks.create_many(80, |_, s| s.heat = 1.0),
        50,
        "the 50 slots left"
    );
    assert_eq!(sparks.len(), 200);
    assert_eq!(sparks.stats().failed, 1, "a burst cut short is one refusal");
    assert_eq!(sparks.create_many(0, |_, _| unreachable!()), 0);
    assert_eq!(sparks.stats().failed, 1, "an empty burst is no refusal");
    sparks.check_consistency().unwrap();
}

#[test]
fn a_burst_takes_the_slots_create_would_take_in_the_same_order() {
    let mut one = SparkPool::new();
    let mut many = SparkPool::new();
    for pool in [&mut one, &mut many] {
        let all: Vec<_> = (0..200)
            .map(|i| pool.create(|s| s.id = i).unwrap())
            .collect();
        for h in all.iter().step_by(3) {
            pool.release(*h).unwrap();
        }
    }
    let singles: Vec<Handle<Spark>> = (0..40).map(|_| one.create(|_| {}).unwrap()).collect();
    let mut burst = Vec::new();
    many.create_many_with_handle(40, |_, handle, _| burst.push(handle));
    let indices = |handles: &[Handle<Spark>]| handles.iter().map(|h| h.index()).collect::<Vec<_>>();
    assert_eq!(indices(&burst), indices(&singles));
    assert_eq!(one.stats(), many.stats());
}

#[test]
fn a_panicking_init_keeps_the_objects_made_before_it() {
    let held = Rc::new(());
    let mut sparks = SparkPool::new();
    let burst = catch_unwind(AssertUnwindSafe(|| {
        sparks.create_many(10, |i, spark| {
            spark.held = Some(Rc::clone(&held));
            assert_ne!(i, 6, "the seventh spark fails");
            spark.id = u32::try_from(i).unwrap();
        });
    }));
    assert!(burst.is_err());
    assert_eq!(sparks.len(), 6);
    assert_eq!(sparks.stats().created, 6);
    assert_eq!(Rc::strong_count(&held), 7, "the failed spark was reset");
    sparks.check_consistency().unwrap();
    let next = sparks.create(|s| s.id = 99).unwrap();
    assert_eq!(next.index(), 6, "the slot in hand went back on top");
}

#[test]
fn a_burst_fills_grown_chunks_but_does_not_grow() {
    let mut enemies = EnemyPool::new();
    let handles: Vec<_> = (0..20)
        .map(|i| enemies.create(|e| e.id = i).unwrap())
        .collect();
    assert!(enemies.stats().chunks > 1);
    for h in &handles {
        enemies.release(*h).unwrap();
    }
    let capacity = enemies.capacity();
    assert_eq!(
        enemies.create_many(100, |i, e| e.id = u32::try_from(i).unwrap()),
        capacity
    );
    assert_eq!(enemies.capacity(), capacity, "create_many does not grow");
    let mut ids: Vec<u32> = enemies.values().map(|e| e.id).collect();
    ids.sort_unstable();
    assert_eq!(
        ids,
        (0..u32::try_from(capacity).unwrap()).collect::<Vec<_>>()
    );
    enemies.check_consistency().unwrap();
}

#[test]
fn a_burst_builds_an_inline_pools_slots_on_first_use() {
    let mut motes = MotePool::new();
    assert_eq!(
        motes.create_many(60, |i, m| m.id = u32::try_from(i).unwrap()),
        60
    );
    assert_eq!(motes.create_many(60, |_, _| {}), 40);
    assert!(motes.values().take(60).map(|m| m.id).eq(0..60));
    motes.check_consistency().unwrap();
}

#[test]
fn runs_are_the_stretches_between_holes_and_a_full_pool_is_one() {
    let mut sparks = SparkPool::new();
    let handles: Vec<_> = (0..200)
        .map(|i| sparks.create(|s| s.id = i).unwrap())
        .collect();
    let lengths = |pool: &SparkPool| pool.runs().map(<[Spark]>::len).collect::<Vec<_>>();
    assert_eq!(lengths(&sparks), [200], "a full pool is one slice");
    for i in [0, 63, 130, 199] {
        sparks.release(handles[i]).unwrap();
    }
    assert_eq!(lengths(&sparks), [62, 66, 68], "runs cross words of bits");
    for run in sparks.runs_mut() {
        for spark in run {
            spark.heat += 2.0;
        }
    }
    assert!(sparks.values().all(|s| s.heat == 2.0));
    assert_eq!(
        sparks.runs().flatten().map(|s| s.id).collect::<Vec<_>>(),
        sparks.values().map(|s| s.id).collect::<Vec<_>>()
    );
    let empty = SparkPool::new();
    assert_eq!(empty.runs().count(), 0);
}

#[test]
fn a_grown_pool_has_a_run_per_chunk_at_most() {
    let mut enemies = EnemyPool::new();
    for i in 0..28 {
        enemies.create(|e| e.id = i).unwrap();
    }
    let chunks = enemies.stats().chunks;
    let lengths: Vec<usize> = enemies.runs().map(<[Enemy]>::len).collect();
    assert_eq!(lengths.len(), chunks);
    assert_eq!(lengths.iter().sum::<usize>(), 28);
}

/// The sparks a burst's `n`th object holds: `n`, and a share of `held`; the `fail`th fails.
fn spark_init(held: &Rc<()>, fail: Option<usize>) -> impl Fn(usize, &mut Spark) + '_ {
    move |n, spark| {
        spark.held = Some(Rc::clone(held));
        assert_ne!(Some(n), fail, "init failed");
        spark.id = u32::try_from(n).unwrap();
    }
}

/// A burst of `count`, its `fail`th `init` panicking, leaves a pool `prepare`d as `create`
/// one by one leaves it: the same slots taken in the same order,
/// the objects made live and counted, the slot in hand reset and taken next, the books whole.
fn burst_as_one_by_one(prepare: &Prepare, count: usize, fail: Option<usize>) {
    let (held, held_many) = (Rc::new(()), Rc::new(()));
    let (mut one, mut many) = (SparkPool::new(), SparkPool::new());
    prepare(&mut one);
    prepare(&mut many);
    let (mut singles, mut burst) = (Vec::new(), Vec::new());
    let init = spark_init(&held, fail);
    let result = catch_unwind(AssertUnwindSafe(|| {
        for n in 0..count {
            match one.create(|spark| init(n, spark)) {
                Ok(handle) => singles.push(handle),
                Err(_) => break,
            }
        }
    }));
    assert_eq!(result.is_err(), fail.is_some_and(|fail| fail < count));
    let init = spark_init(&held_many, fail);
    let result = catch_unwind(AssertUnwindSafe(|| {
        many.create_many_with_handle(count, |n, handle, spark| {
            init(n, spark);
            burst.push(handle);
        })
    }));
    assert_eq!(result.is_err(), fail.is_some_and(|fail| fail < count));
    let indices = |handles: &[Handle<Spark>]| handles.iter().map(|h| h.index()).collect::<Vec<_>>();
    assert_eq!(indices(&burst), indices(&singles), "{fail:?}");
    assert_eq!(many.stats(), one.stats(), "{fail:?}");
    assert_eq!(
        Rc::strong_count(&held_many),
        burst.len() + 1,
        "the failed spark was reset"
    );
    for (n, &handle) in burst.iter().enumerate() {
        assert_eq!(many[handle].id as usize, n);
    }
    many.check_consistency().unwrap();
    let live = |pool: &SparkPool| pool.iter().map(|(h, _)| h.index()).collect::<Vec<_>>();
    assert_eq!(live(&many), live(&one), "the same occupancy bits");
    let next = |pool: &mut SparkPool| pool.create(|_| {}).ok().map(Handle::index);
    assert_eq!(
        next(&mut many),
        next(&mut one),
        "the slot in hand is taken next"
    );
}

/// Brings a fresh pool to the state a test starts from.
type Prepare = dyn Fn(&mut SparkPool);

#[test]
fn a_burst_over_stretches_of_consecutive_and_scattered_slots_is_create_one_by_one() {
    fn fill(pool: &mut SparkPool, count: u32) -> Vec<Handle<Spark>> {
        (0..count)
            .map(|i| pool.create(|s| s.id = i).unwrap())
            .collect()
    }
    let prepares: [(&str, &Prepare); 5] = [
        ("fresh", &|_| {}),
        ("fresh past 30", &|pool| drop(fill(pool, 30))),
        ("released in index order", &|pool| {
            for handle in fill(pool, 200) {
                pool.release(handle).unwrap();
            }
        }),
        ("released all", &|pool| {
            fill(pool, 200);
            pool.release_all();
        }),
        // Taken: 7, 57 and 21 scattered, 100 to 149 up (released from 149 down), 99 to 60
        // down, then the fresh slots from 150 up.
        ("scattered, up, down", &|pool| {
            let all = fill(pool, 150);
            for at in (60..100).chain((100..150).rev()).chain([21, 57, 7]) {
                pool.release(all[at]).unwrap();
            }
        }),
    ];
    // Failing in the first stretch or scattered slot, across a word's end, and at the
    // `scattered, up, down` pool's up and down stretches; under Miri (2.6 s a burst), once a
    // pool, which reaches stretches up and down, scattered slots and an unwind.
    let (fails, counts): (&[Option<usize>], &[usize]) = if cfg!(miri) {
        (&[Some(70)], &[250])
    } else {
        (&[None, Some(1), Some(33), Some(70)], &[3, 70, 250])
    };
    for (name, prepare) in prepares {
        for &fail in fails {
            for &count in counts {
                eprintln!("{name}: {count}, failing at {fail:?}");
                burst_as_one_by_one(prepare, count, fail);
            }
        }
    }
}
