//! Copies of a consistent pool, in memory (`clone`) and on disk (JSON and postcard saves), are
//! whole whatever the pool went through: here, after a `shrink` that leaves a hole among the
//! chunks' indices and with a lease forgotten past it (issue 38, items 1 and 2), in both layouts
//! and both storages. A copy must pass `check_consistency`, hold every live object at its
//! handle and nothing else, and count the forgotten lease's slot as free.

use pooling::{Handle, Pooled, Stats};
use serde::{Deserialize, Serialize};

#[derive(Pooled, Clone, Debug, PartialEq, Serialize, Deserialize)]
#[pool(size = 2, on_full = grow, max = 64)]
struct Ember {
    heat: u32,
    trail: Vec<u32>,
}

#[derive(Pooled)]
#[pool(size = 2, on_full = grow, max = 64, layout = columns)]
struct Spark {
    heat: u32,
    trail: Vec<u32>,
}

#[derive(Pooled, Clone, Debug, PartialEq, Serialize, Deserialize)]
#[pool(size = 8, storage = inline)]
struct Chirp {
    pitch: u32,
    notes: Vec<u32>,
}

#[derive(Pooled)]
#[pool(size = 8, storage = inline, layout = columns)]
struct Beep {
    pitch: u32,
    notes: Vec<u32>,
}

/// What a copy's stats must be: the original's, with the forgotten leases' slots free and
/// counted as given back.
fn given_back(mut stats: Stats) -> Stats {
    stats.free += stats.leased;
    stats.released += stats.leased as u64;
    stats.leased = 0;
    stats
}

/// Sixteen objects over the chunks [0, 2), [2, 4), [4, 8) and [8, 16); the chunk [4, 8) emptied
/// and given back by `shrink`, so that the indices past 4 are no longer positions among the
/// slots; then slot 13 released and lent to a lease that is forgotten. The handles of the
/// objects left, and the one released.
macro_rules! shrunk_with_a_forgotten_lease {
    ($pool:ident, |$o:ident, $i:ident| $fill:expr, |$lease:ident| $lend:expr) => {{
        let mut pool = $pool::new();
        let mut handles: Vec<_> = (0..16u32)
            .map(|$i| pool.create(|$o| $fill).unwrap())
            .collect();
        assert_eq!(pool.stats().chunks, 4);
        for h in handles.drain(4..8) {
            pool.release(h).unwrap();
        }
        assert_eq!(pool.shrink(), 4, "the chunk [4, 8) goes back");
        let released = handles.remove(9);
        assert_eq!(released.index(), 13);
        pool.release(released).unwrap();
        {
            let lender = pool.lender();
            let $lease = lender.acquire(|$o| $lend).unwrap();
            std::mem::forget($lease);
        }
        let stats = pool.stats();
        assert_eq!((stats.capacity, stats.live, stats.leased), (12, 11, 1));
        pool.check_consistency().unwrap();
        (pool, handles, released)
    }};
}

fn embers() -> (EmberPool, Vec<Handle<Ember>>, Handle<Ember>) {
    shrunk_with_a_forgotten_lease!(
        EmberPool,
        |e, i| {
            e.heat = i;
            e.trail.push(i);
        },
        |e| e.heat = 99
    )
}

fn sparks() -> (SparkPool, Vec<Handle<Spark>>, Handle<Spark>) {
    shrunk_with_a_forgotten_lease!(
        SparkPool,
        |s, i| {
            *s.heat = i;
            s.trail.push(i);
        },
        |s| *s.heat = 99
    )
}

fn ember_objects(pool: &EmberPool) -> Vec<(Handle<Ember>, Ember)> {
    pool.iter().map(|(h, e)| (h, e.clone())).collect()
}

fn spark_rows(pool: &SparkPool) -> Vec<(Handle<Spark>, u32, Vec<u32>)> {
    pool.iter()
        .map(|(h, s)| (h, *s.heat, s.trail.clone()))
        .collect()
}

/// `copy` holds what `pool` holds, object by object and handle by handle, with the forgotten
/// lease's slot free: the next creates take the same slots as in a pool that never lent it,
/// then the lent one last.
fn assert_copy_of_embers(pool: &EmberPool, copy: &mut EmberPool, live: &[Handle<Ember>]) {
    copy.check_consistency().unwrap();
    assert_eq!(copy.stats(), given_back(pool.stats()));
    assert_eq!(ember_objects(copy), ember_objects(pool));
    for &h in live {
        assert_eq!(copy.get(h), pool.get(h), "{h}");
    }
    let mut taken: Vec<usize> = Vec::new();
    while copy.stats().free > 0 {
        taken.push(copy.create(|_| {}).unwrap().index());
        copy.check_consistency().unwrap();
    }
    assert_eq!(taken.last(), Some(&13), "the lent slot is taken last");
}

fn assert_copy_of_sparks(pool: &SparkPool, copy: &mut SparkPool, live: &[Handle<Spark>]) {
    copy.check_consistency().unwrap();
    assert_eq!(copy.stats(), given_back(pool.stats()));
    assert_eq!(spark_rows(copy), spark_rows(pool));
    for &h in live {
        let row = |p: &SparkPool| p.get(h).map(|s| (*s.heat, s.trail.clone()));
        assert_eq!(row(copy), row(pool), "{h}");
    }
    let mut taken: Vec<usize> = Vec::new();
    while copy.stats().free > 0 {
        taken.push(copy.create(|_| {}).unwrap().index());
        copy.check_consistency().unwrap();
    }
    assert_eq!(taken.last(), Some(&13), "the lent slot is taken last");
}

#[test]
fn a_clone_after_a_shrink_frees_a_forgotten_lease_past_the_hole() {
    let (pool, live, released) = embers();
    let mut copy = pool.clone();
    assert!(!copy.contains(released));
    assert_copy_of_embers(&pool, &mut copy, &live);
}

#[test]
fn a_column_clone_after_a_shrink_frees_a_forgotten_lease_past_the_hole() {
    let (pool, live, released) = sparks();
    let mut copy = pool.clone();
    assert!(!copy.contains(released));
    assert_copy_of_sparks(&pool, &mut copy, &live);
}

#[test]
fn a_save_after_a_shrink_with_a_forgotten_lease_loads_whole() {
    let (pool, live, released) = embers();
    let json: EmberPool = serde_json::from_str(&serde_json::to_string(&pool).unwrap())
        .expect("the pool's own JSON save loads");
    let postcard: EmberPool = postcard::from_bytes(&postcard::to_allocvec(&pool).unwrap())
        .expect("the pool's own postcard save loads");
    for mut loaded in [json, postcard] {
        assert!(!loaded.contains(released));
        assert_copy_of_embers(&pool, &mut loaded, &live);
    }
}

#[test]
fn a_column_save_after_a_shrink_with_a_forgotten_lease_loads_whole() {
    let (pool, live, released) = sparks();
    let json: SparkPool = serde_json::from_str(&serde_json::to_string(&pool).unwrap())
        .expect("the pool's own JSON save loads");
    let postcard: SparkPool = postcard::from_bytes(&postcard::to_allocvec(&pool).unwrap())
        .expect("the pool's own postcard save loads");
    for mut loaded in [json, postcard] {
        assert!(!loaded.contains(released));
        assert_copy_of_sparks(&pool, &mut loaded, &live);
    }
}

#[test]
fn an_inline_pool_with_a_forgotten_lease_clones_and_saves_whole() {
    let mut pool = ChirpPool::new();
    let handles: Vec<_> = (0..6u32)
        .map(|i| pool.create(|c| c.notes.push(i)).unwrap())
        .collect();
    pool.release(handles[2]).unwrap();
    std::mem::forget(pool.lender().acquire(|c| c.pitch = 7).unwrap());
    let objects = |p: &ChirpPool| -> Vec<_> { p.iter().map(|(h, c)| (h, c.clone())).collect() };
    let copies: [ChirpPool; 3] = [
        pool.clone(),
        serde_json::from_str(&serde_json::to_string(&pool).unwrap()).unwrap(),
        postcard::from_bytes(&postcard::to_allocvec(&pool).unwrap()).unwrap(),
    ];
    for copy in copies {
        copy.check_consistency().unwrap();
        assert_eq!(copy.stats(), given_back(pool.stats()));
        assert_eq!(objects(&copy), objects(&pool));
    }
}

#[test]
fn an_inline_column_pool_with_a_forgotten_lease_clones_and_saves_whole() {
    let mut pool = BeepPool::new();
    let handles: Vec<_> = (0..6u32)
        .map(|i| pool.create(|b| b.notes.push(i)).unwrap())
        .collect();
    pool.release(handles[2]).unwrap();
    std::mem::forget(pool.lender().acquire(|b| *b.pitch = 7).unwrap());
    let rows = |p: &BeepPool| -> Vec<_> {
        p.iter()
            .map(|(h, b)| (h, *b.pitch, b.notes.clone()))
            .collect()
    };
    let copies: [BeepPool; 3] = [
        pool.clone(),
        serde_json::from_str(&serde_json::to_string(&pool).unwrap()).unwrap(),
        postcard::from_bytes(&postcard::to_allocvec(&pool).unwrap()).unwrap(),
    ];
    for copy in copies {
        copy.check_consistency().unwrap();
        assert_eq!(copy.stats(), given_back(pool.stats()));
        assert_eq!(rows(&copy), rows(&pool));
    }
}
