//! Copies of a pool: `Clone`, and save games through serde (JSON and postcard), slot for slot.

use pooling::{Handle, Pool, Pooled};
use serde::{Deserialize, Serialize};
use std::rc::Rc;

#[derive(Pooled, Clone, Debug, PartialEq, Serialize, Deserialize)]
#[pool(size = 8)]
struct Enemy {
    health: i32,
    target: Option<Handle<Enemy>>,
    path: Vec<(i16, i16)>,
}

#[derive(Pooled, Clone, Debug, PartialEq, Serialize, Deserialize)]
#[pool(size = 2, on_full = grow)]
struct Spark {
    heat: u32,
}

#[derive(Pooled, Clone)]
#[pool(size = 4)]
struct Shared {
    held: Option<Rc<()>>,
}

/// Objects of several versions, live, released and reused, with every third slot free.
fn battle() -> (EnemyPool, Vec<Handle<Enemy>>, Vec<Handle<Enemy>>) {
    let mut pool = EnemyPool::new();
    let mut live = Vec::new();
    let mut dead = Vec::new();
    for round in 0..3i16 {
        for i in 0..8i16 {
            if let Ok(h) = pool.create(|e| {
                e.health = i32::from(round * 10 + i);
                e.path.push((round, i));
            }) {
                live.push(h);
            }
        }
        for h in std::mem::take(&mut live) {
            if h.index() % 3 == usize::from(round.unsigned_abs()) {
                pool.release(h).unwrap();
                dead.push(h);
            } else {
                live.push(h);
            }
        }
    }
    let first = live[0];
    pool[live[1]].target = Some(first);
    (pool, live, dead)
}

/// Every live object at its handle, every dead handle dead, the same stats, and the same
/// handles from the same creates.
fn assert_same(
    original: &mut EnemyPool,
    copy: &mut EnemyPool,
    live: &[Handle<Enemy>],
    dead: &[Handle<Enemy>],
) {
    assert_eq!(copy.stats(), original.stats());
    for &h in live {
        assert_eq!(copy.get(h), original.get(h), "{h}");
        assert!(copy.contains(h));
    }
    for &h in dead {
        assert!(copy.get(h).is_none(), "{h} stays stale");
    }
    let in_copy: Vec<_> = copy.iter().map(|(h, e)| (h, e.clone())).collect();
    let in_original: Vec<_> = original.iter().map(|(h, e)| (h, e.clone())).collect();
    assert_eq!(in_copy, in_original);
    loop {
        let a = original.try_create(|e| e.health = -1);
        let b = copy.try_create(|e| e.health = -1);
        assert_eq!(a.is_ok(), b.is_ok());
        let (Ok(a), Ok(b)) = (a, b) else { break };
        assert_eq!(a, b, "free slots are taken in the same order");
        assert!(dead.iter().all(|&d| d != a));
    }
    assert_eq!(copy.stats(), original.stats());
}

#[test]
fn a_clone_holds_every_live_object_at_its_handle() {
    let (mut pool, live, dead) = battle();
    let mut copy = pool.clone();
    assert_same(&mut pool, &mut copy, &live, &dead);
}

#[test]
fn a_clone_is_independent_of_the_original() {
    let (mut pool, live, _) = battle();
    let snapshot = pool.clone();
    pool[live[0]].health = 999;
    pool.release(live[1]).unwrap();
    assert_ne!(snapshot[live[0]].health, 999);
    assert!(snapshot.contains(live[1]));
    pool = snapshot;
    assert!(pool.contains(live[1]), "rolled back");
}

#[test]
fn a_clone_takes_no_lease_and_frees_the_lent_slots() {
    let mut pool = SharedPool::new();
    let held = Rc::new(());
    let kept = pool
        .lender()
        .acquire(|s| s.held = Some(held.clone()))
        .unwrap()
        .into_handle();
    // A lease forgotten: the pool keeps its slot lent.
    std::mem::forget(
        pool.lender()
            .acquire(|s| s.held = Some(held.clone()))
            .unwrap(),
    );
    let mut copy = pool.clone();
    assert_eq!(
        Rc::strong_count(&held),
        4,
        "the live object is cloned, the lease is not"
    );
    let stats = copy.stats();
    assert_eq!((stats.live, stats.leased, stats.free), (1, 0, 3));
    assert_eq!(stats.created, stats.released + 1);
    assert!(copy.get(kept).is_some());
    let handles: Vec<_> = (0..3).map(|_| copy.create(|_| {}).unwrap()).collect();
    assert!(copy.create(|_| {}).is_err());
    assert!(handles.iter().all(|h| h.index() != kept.index()));
    assert_eq!(pool.stats().leased, 1);
    drop(copy);
    assert_eq!(Rc::strong_count(&held), 3, "the pool's two objects hold it");
}

#[test]
fn a_grown_and_shrunk_pool_clones_its_chunks_and_versions() {
    let mut pool = SparkPool::new();
    let handles: Vec<_> = (0..9)
        .map(|i| pool.create(|s| s.heat = i).unwrap())
        .collect();
    for &h in &handles[2..] {
        pool.release(h).unwrap();
    }
    assert!(pool.shrink() > 0);
    let mut copy = pool.clone();
    assert_eq!(copy.stats(), pool.stats());
    for _ in 0..7 {
        let a = pool.create(|_| {}).unwrap();
        let b = copy.create(|_| {}).unwrap();
        assert_eq!(a, b);
        assert!(
            !handles.contains(&a),
            "a regrown chunk starts past the old versions"
        );
    }
    assert_eq!(copy.stats(), pool.stats());
}

fn json_round_trip<T, S>(pool: &Pool<T, S>) -> Pool<T, S>
where
    T: Pooled + Serialize + for<'de> Deserialize<'de>,
{
    let text = serde_json::to_string(pool).unwrap();
    serde_json::from_str(&text).unwrap()
}

fn postcard_round_trip<T, S>(pool: &Pool<T, S>) -> Pool<T, S>
where
    T: Pooled + Serialize + for<'de> Deserialize<'de>,
{
    let bytes = postcard::to_allocvec(pool).unwrap();
    postcard::from_bytes(&bytes).unwrap()
}

#[test]
fn a_pool_round_trips_through_json_and_postcard() {
    for round_trip in [json_round_trip::<Enemy, _>, postcard_round_trip::<Enemy, _>] {
        let (mut pool, live, dead) = battle();
        let mut loaded = round_trip(&pool);
        assert_same(&mut pool, &mut loaded, &live, &dead);
    }
}

#[test]
fn a_grown_and_shrunk_pool_round_trips_and_grows_as_before() {
    let mut pool = SparkPool::new();
    let handles: Vec<_> = (0..20)
        .map(|i| pool.create(|s| s.heat = i).unwrap())
        .collect();
    for &h in &handles[1..19] {
        pool.release(h).unwrap();
    }
    assert!(pool.shrink() > 0);
    for round_trip in [json_round_trip::<Spark, _>, postcard_round_trip::<Spark, _>] {
        let mut original = pool.clone();
        let mut loaded = round_trip(&original);
        assert_eq!(loaded.stats(), original.stats());
        assert_eq!(loaded[handles[19]].heat, 19);
        for i in 0..40 {
            assert_eq!(
                original.create(|s| s.heat = i).unwrap(),
                loaded.create(|s| s.heat = i).unwrap()
            );
        }
        assert_eq!(loaded.stats(), original.stats());
        assert!(handles[1..19].iter().all(|&h| !loaded.contains(h)));
    }
}

#[test]
fn a_pool_with_forgotten_leases_saves_their_slots_as_free() {
    let mut pool = EnemyPool::new();
    let kept = pool
        .lender()
        .acquire(|e| e.health = 5)
        .unwrap()
        .into_handle();
    std::mem::forget(pool.lender().acquire(|e| e.health = 6).unwrap());
    let loaded = json_round_trip(&pool);
    let stats = loaded.stats();
    assert_eq!((stats.live, stats.leased, stats.free), (1, 0, 7));
    assert_eq!(loaded[kept].health, 5);
}

#[test]
fn a_loaded_pool_counts_its_high_water_mark_on_from_the_save() {
    let mut pool = EnemyPool::new();
    let first: Vec<_> = (0..4).map(|_| pool.create(|_| {}).unwrap()).collect();
    pool.release(first[0]).unwrap();
    pool.release(first[1]).unwrap();
    std::mem::forget(pool.lender().acquire(|_| {}).unwrap());
    let mut loaded = json_round_trip(&pool);
    assert_eq!(loaded.stats().high_water, 4);
    // The slots freed before the save (one released, one lent) were in use at once with the
    // live two; only the slots never taken can raise the mark.
    let mut live = 2;
    while loaded.try_create(|_| {}).is_ok() {
        live += 1;
        assert_eq!(loaded.stats().high_water, live.max(4), "{live} live");
    }
    assert_eq!(live, 8);
}

#[test]
fn handles_serialize_as_their_bits() {
    let (pool, live, _) = battle();
    let h = live[2];
    assert_eq!(serde_json::to_string(&h).unwrap(), h.to_bits().to_string());
    let back: Handle<Enemy> = serde_json::from_str(&h.to_bits().to_string()).unwrap();
    assert_eq!(pool[back], pool[h]);
    let error = serde_json::from_str::<Handle<Enemy>>("8589934592").unwrap_err();
    assert!(
        error.to_string().contains("the bits of a pooled handle"),
        "{error}"
    );
}

/// A save edited by hand, or corrupted: an error, never a pool with broken books.
#[test]
fn a_save_that_does_not_describe_a_pool_is_refused() {
    let (pool, _, _) = battle();
    let save: serde_json::Value = serde_json::to_value(&pool).unwrap();
    let refused = |edit: &dyn Fn(&mut serde_json::Value), why: &str| {
        let mut bad = save.clone();
        edit(&mut bad);
        let error = serde_json::from_value::<EnemyPool>(bad)
            .map(|_| ())
            .unwrap_err();
        assert!(error.to_string().contains(why), "{why}: {error}");
    };
    refused(
        &|s| {
            s["objects"].as_array_mut().unwrap().pop().unwrap();
        },
        "fewer objects than live slots",
    );
    refused(
        &|s| s["versions"].as_array_mut().unwrap().push(0.into()),
        "more versions than slots",
    );
    refused(
        &|s| s["versions"].as_array_mut().unwrap().truncate(3),
        "fewer versions than slots",
    );
    refused(
        &|s| {
            let free = s["free"].as_array_mut().unwrap();
            let first = free[0].clone();
            free.push(first);
        },
        "a slot twice on the free list",
    );
    refused(
        &|s| s["free"].as_array_mut().unwrap().truncate(1),
        "neither live, retired nor free",
    );
    refused(
        &|s| s["free"].as_array_mut().unwrap().push(99.into()),
        "past the pool's slots",
    );
    refused(
        &|s| s["created"] = 1.into(),
        "objects created less objects released",
    );
    refused(&|s| s["high_water"] = 0.into(), "high water mark below");
    refused(
        &|s| s["grown"] = serde_json::json!([[0, 4]]),
        "grown chunks without the positions",
    );
    let live_slot = pool.iter().next().unwrap().0.index();
    refused(
        &|s| s["free"].as_array_mut().unwrap().push(live_slot.into()),
        "a live or retired slot on the free list",
    );
}
