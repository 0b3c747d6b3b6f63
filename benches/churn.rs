//! Churn: 1024 slots held at 512 live; each step releases one random live object and creates
//! one in its place. One criterion iteration is `CHURN_STEPS` (1024) steps.
//!
//! Every peer keeps the keys (handles, guards, boxes) of its live objects in a `Vec`; a step
//! takes the position from the shared sequence, releases the key there, creates a new object
//! from the sequence and stores its key at that position. Release comes first for every peer.

mod common;

use bumpalo::Bump;
use common::particle::{Particle, ParticlePool};
use common::seed::{SeedFreeListPool, SeedScanPool};
use common::{CHURN_CAPACITY, CHURN_LIVE, CHURN_STEPS, Churn, Group, Step, sum_x};
use criterion::{Criterion, criterion_group, criterion_main};
use pooled::Handle;
use slotmap::{DefaultKey, DenseSlotMap, SlotMap};
use std::hint::black_box;

/// Iterations run before measuring, to check that every peer holds the same objects.
const CHECKED: usize = 2;

fn churn(c: &mut Criterion) {
    let churn = Churn::new();
    let mut group = c.benchmark_group("churn");
    pooled(&mut group, &churn);
    slab(&mut group, &churn);
    slotmap(&mut group, &churn);
    dense_slotmap(&mut group, &churn);
    thunderdome(&mut group, &churn);
    sharded_slab(&mut group, &churn);
    lifeguard(&mut group, &churn);
    object_pool(&mut group, &churn);
    boxed(&mut group, &churn);
    bumpalo(&mut group, &churn);
    seed_scan(&mut group, &churn);
    seed_free_list(&mut group, &churn);
    vec(&mut group, &churn);
    group.finish();
}

/// Every peer but the dense `Vec` ends its checked iterations with the same live objects.
fn check(peer: &str, churn: &Churn, live: usize, sum: f64) {
    assert_eq!(live, CHURN_LIVE, "{peer}: live objects");
    assert_eq!(sum, churn.expected_sum(CHECKED), "{peer}: sum of x");
}

// ---------------------------------------------------------------------------------------------

fn pooled(group: &mut Group<'_>, churn: &Churn) {
    let mut pool = ParticlePool::new();
    assert_eq!(pool.capacity(), CHURN_CAPACITY);
    let mut live: Vec<Handle<Particle>> = (churn.initial.iter())
        .map(|s| pool.create(|p| s.write(p)).unwrap())
        .collect();
    for _ in 0..CHECKED {
        churn_pooled(&mut pool, &mut live, &churn.steps);
    }
    let sum = sum_x(live.iter().map(|&h| pool.get(h).unwrap()));
    check("pooled", churn, pool.len(), sum);
    group.bench_function("pooled", |b| {
        b.iter(|| churn_pooled(&mut pool, &mut live, &churn.steps));
    });
}

#[inline(never)]
fn churn_pooled(pool: &mut ParticlePool, live: &mut [Handle<Particle>], steps: &[Step]) {
    for step in steps {
        let key = &mut live[step.position];
        pool.release(black_box(*key)).unwrap();
        *key = black_box(pool.create(|p| step.spawn.write(p)).unwrap());
    }
}

// ---------------------------------------------------------------------------------------------

fn slab(group: &mut Group<'_>, churn: &Churn) {
    let mut slab = slab::Slab::with_capacity(CHURN_CAPACITY);
    let mut live: Vec<usize> = (churn.initial.iter())
        .map(|s| slab.insert(s.particle()))
        .collect();
    for _ in 0..CHECKED {
        churn_slab(&mut slab, &mut live, &churn.steps);
    }
    check(
        "slab",
        churn,
        slab.len(),
        sum_x(live.iter().map(|&k| &slab[k])),
    );
    group.bench_function("slab", |b| {
        b.iter(|| churn_slab(&mut slab, &mut live, &churn.steps));
    });
    assert_eq!(slab.capacity(), CHURN_CAPACITY, "slab grew");
}

#[inline(never)]
fn churn_slab(slab: &mut slab::Slab<Particle>, live: &mut [usize], steps: &[Step]) {
    for step in steps {
        let key = &mut live[step.position];
        slab.remove(black_box(*key));
        *key = black_box(slab.insert(step.spawn.particle()));
    }
}

// ---------------------------------------------------------------------------------------------

fn slotmap(group: &mut Group<'_>, churn: &Churn) {
    let mut map = SlotMap::with_capacity(CHURN_CAPACITY);
    let mut live: Vec<DefaultKey> = (churn.initial.iter())
        .map(|s| map.insert(s.particle()))
        .collect();
    for _ in 0..CHECKED {
        churn_slotmap(&mut map, &mut live, &churn.steps);
    }
    check(
        "slotmap",
        churn,
        map.len(),
        sum_x(live.iter().map(|&k| &map[k])),
    );
    group.bench_function("slotmap", |b| {
        b.iter(|| churn_slotmap(&mut map, &mut live, &churn.steps));
    });
}

#[inline(never)]
fn churn_slotmap(map: &mut SlotMap<DefaultKey, Particle>, live: &mut [DefaultKey], steps: &[Step]) {
    for step in steps {
        let key = &mut live[step.position];
        map.remove(black_box(*key)).unwrap();
        *key = black_box(map.insert(step.spawn.particle()));
    }
}

// ---------------------------------------------------------------------------------------------

fn dense_slotmap(group: &mut Group<'_>, churn: &Churn) {
    let mut map = DenseSlotMap::with_capacity(CHURN_CAPACITY);
    let mut live: Vec<DefaultKey> = (churn.initial.iter())
        .map(|s| map.insert(s.particle()))
        .collect();
    for _ in 0..CHECKED {
        churn_dense_slotmap(&mut map, &mut live, &churn.steps);
    }
    let sum = sum_x(live.iter().map(|&k| &map[k]));
    check("dense_slotmap", churn, map.len(), sum);
    group.bench_function("dense_slotmap", |b| {
        b.iter(|| churn_dense_slotmap(&mut map, &mut live, &churn.steps));
    });
}

#[inline(never)]
fn churn_dense_slotmap(
    map: &mut DenseSlotMap<DefaultKey, Particle>,
    live: &mut [DefaultKey],
    steps: &[Step],
) {
    for step in steps {
        let key = &mut live[step.position];
        map.remove(black_box(*key)).unwrap();
        *key = black_box(map.insert(step.spawn.particle()));
    }
}

// ---------------------------------------------------------------------------------------------

fn thunderdome(group: &mut Group<'_>, churn: &Churn) {
    let mut arena = thunderdome::Arena::with_capacity(CHURN_CAPACITY);
    let mut live: Vec<thunderdome::Index> = (churn.initial.iter())
        .map(|s| arena.insert(s.particle()))
        .collect();
    for _ in 0..CHECKED {
        churn_thunderdome(&mut arena, &mut live, &churn.steps);
    }
    let sum = sum_x(live.iter().map(|&k| &arena[k]));
    check("thunderdome", churn, arena.len(), sum);
    group.bench_function("thunderdome", |b| {
        b.iter(|| churn_thunderdome(&mut arena, &mut live, &churn.steps));
    });
}

#[inline(never)]
fn churn_thunderdome(
    arena: &mut thunderdome::Arena<Particle>,
    live: &mut [thunderdome::Index],
    steps: &[Step],
) {
    for step in steps {
        let key = &mut live[step.position];
        arena.remove(black_box(*key)).unwrap();
        *key = black_box(arena.insert(step.spawn.particle()));
    }
}

// ---------------------------------------------------------------------------------------------

fn sharded_slab(group: &mut Group<'_>, churn: &Churn) {
    // No capacity to give: it adds pages as it needs them (all of them before measuring).
    let pool = sharded_slab::Pool::<Particle>::new();
    let mut live: Vec<usize> = (churn.initial.iter())
        .map(|s| pool.create_with(|p| s.write(p)).unwrap())
        .collect();
    for _ in 0..CHECKED {
        churn_sharded_slab(&pool, &mut live, &churn.steps);
    }
    // `Pool` has no `len`: count the keys that still reach an object.
    let reachable = live.iter().filter(|&&k| pool.get(k).is_some()).count();
    let sum: f64 = live.iter().map(|&k| pool.get(k).unwrap().x).sum();
    check("sharded_slab", churn, reachable, sum);
    group.bench_function("sharded_slab", |b| {
        b.iter(|| churn_sharded_slab(&pool, &mut live, &churn.steps));
    });
}

#[inline(never)]
fn churn_sharded_slab(pool: &sharded_slab::Pool<Particle>, live: &mut [usize], steps: &[Step]) {
    for step in steps {
        let key = &mut live[step.position];
        // `clear` resets the object (`Clear`) and frees the slot: no guard is out.
        assert!(pool.clear(black_box(*key)));
        *key = black_box(pool.create_with(|p| step.spawn.write(p)).unwrap());
    }
}

// ---------------------------------------------------------------------------------------------

type LifeguardGuard<'p> = lifeguard::Recycled<'p, Particle>;

fn lifeguard(group: &mut Group<'_>, churn: &Churn) {
    // All 1024 objects built up front; a guard holds its object by value while it is out.
    let pool = lifeguard::Pool::<Particle>::with_size(CHURN_CAPACITY);
    let mut live: Vec<Option<LifeguardGuard<'_>>> = (churn.initial.iter())
        .map(|s| {
            let mut p = pool.new();
            s.write(&mut p);
            Some(p)
        })
        .collect();
    for _ in 0..CHECKED {
        churn_lifeguard(&pool, &mut live, &churn.steps);
    }
    assert_eq!(
        pool.size(),
        CHURN_CAPACITY - CHURN_LIVE,
        "lifeguard: objects in the pool"
    );
    let sum = sum_x(live.iter().map(|p| &**p.as_ref().unwrap()));
    check("lifeguard", churn, live.iter().flatten().count(), sum);
    group.bench_function("lifeguard", |b| {
        b.iter(|| churn_lifeguard(&pool, &mut live, &churn.steps));
    });
}

#[inline(never)]
fn churn_lifeguard<'p>(
    pool: &'p lifeguard::Pool<Particle>,
    live: &mut [Option<LifeguardGuard<'p>>],
    steps: &[Step],
) {
    for step in steps {
        let key = &mut live[step.position];
        // Dropping the guard resets the object (`Recycleable::reset`) and moves it back.
        drop(black_box(key.take()));
        let mut p = pool.new();
        step.spawn.write(&mut p);
        *key = Some(black_box(p));
    }
}

// ---------------------------------------------------------------------------------------------

type ObjectPoolGuard<'p> = object_pool::Reusable<'p, Particle>;

fn object_pool(group: &mut Group<'_>, churn: &Churn) {
    let pool = object_pool::Pool::new(CHURN_CAPACITY, Particle::default);
    let mut live: Vec<Option<ObjectPoolGuard<'_>>> = (churn.initial.iter())
        .map(|s| {
            let mut p = pool.try_pull().unwrap();
            s.write(&mut p);
            Some(p)
        })
        .collect();
    for _ in 0..CHECKED {
        churn_object_pool(&pool, &mut live, &churn.steps);
    }
    assert_eq!(
        pool.len(),
        CHURN_CAPACITY - CHURN_LIVE,
        "object_pool: objects in the pool"
    );
    let sum = sum_x(live.iter().map(|p| &**p.as_ref().unwrap()));
    check("object_pool", churn, live.iter().flatten().count(), sum);
    group.bench_function("object_pool", |b| {
        b.iter(|| churn_object_pool(&pool, &mut live, &churn.steps));
    });
}

#[inline(never)]
fn churn_object_pool<'p>(
    pool: &'p object_pool::Pool<Particle>,
    live: &mut [Option<ObjectPoolGuard<'p>>],
    steps: &[Step],
) {
    for step in steps {
        let key = &mut live[step.position];
        // Dropping the guard moves the object back as it is: object-pool does not reset. The
        // new object's fields are all written below, so no reset is needed to be equivalent.
        drop(black_box(key.take()));
        let mut p = pool.try_pull().unwrap();
        step.spawn.write(&mut p);
        *key = Some(black_box(p));
    }
}

// ---------------------------------------------------------------------------------------------

fn boxed(group: &mut Group<'_>, churn: &Churn) {
    let mut live: Vec<Option<Box<Particle>>> = (churn.initial.iter())
        .map(|s| Some(Box::new(s.particle())))
        .collect();
    for _ in 0..CHECKED {
        churn_box(&mut live, &churn.steps);
    }
    let sum = sum_x(live.iter().map(|p| &**p.as_ref().unwrap()));
    check("box", churn, live.iter().flatten().count(), sum);
    group.bench_function("box", |b| b.iter(|| churn_box(&mut live, &churn.steps)));
}

#[inline(never)]
fn churn_box(live: &mut [Option<Box<Particle>>], steps: &[Step]) {
    for step in steps {
        let key = &mut live[step.position];
        drop(black_box(key.take()));
        *key = Some(black_box(Box::new(step.spawn.particle())));
    }
}

// ---------------------------------------------------------------------------------------------

fn bumpalo(group: &mut Group<'_>, churn: &Churn) {
    // A bump arena cannot free one object: it allocates the iteration's 1024 objects and frees
    // them all at once with `reset()`, which keeps its chunk for the next round.
    let mut bump = Bump::with_capacity(CHURN_STEPS * size_of::<Particle>());
    churn_bumpalo(&mut bump, &churn.steps);
    let allocated = bump.allocated_bytes();
    for _ in 0..CHECKED {
        churn_bumpalo(&mut bump, &churn.steps);
    }
    assert_eq!(bump.allocated_bytes(), allocated, "bumpalo: grew a chunk");
    group.bench_function("bumpalo", |b| {
        b.iter(|| churn_bumpalo(&mut bump, &churn.steps));
    });
}

#[inline(never)]
fn churn_bumpalo(bump: &mut Bump, steps: &[Step]) {
    for step in steps {
        black_box(bump.alloc(step.spawn.particle()));
    }
    bump.reset();
}

// ---------------------------------------------------------------------------------------------

fn seed_scan(group: &mut Group<'_>, churn: &Churn) {
    let mut pool = SeedScanPool::new(CHURN_CAPACITY);
    let mut live: Vec<usize> = (churn.initial.iter())
        .map(|s| pool.create(|p| s.write(p)).unwrap())
        .collect();
    for _ in 0..CHECKED {
        churn_seed_scan(&mut pool, &mut live, &churn.steps);
    }
    let sum = sum_x(live.iter().map(|&i| pool.get(i).unwrap()));
    check("seed_scan", churn, pool.len(), sum);
    group.bench_function("seed_scan", |b| {
        b.iter(|| churn_seed_scan(&mut pool, &mut live, &churn.steps));
    });
}

#[inline(never)]
fn churn_seed_scan(pool: &mut SeedScanPool, live: &mut [usize], steps: &[Step]) {
    for step in steps {
        let key = &mut live[step.position];
        pool.release(black_box(*key));
        *key = black_box(pool.create(|p| step.spawn.write(p)).unwrap());
    }
}

// ---------------------------------------------------------------------------------------------

fn seed_free_list(group: &mut Group<'_>, churn: &Churn) {
    let mut pool = SeedFreeListPool::new(CHURN_CAPACITY);
    let mut live: Vec<usize> = (churn.initial.iter())
        .map(|s| pool.create(|p| s.write(p)).unwrap())
        .collect();
    for _ in 0..CHECKED {
        churn_seed_free_list(&mut pool, &mut live, &churn.steps);
    }
    let sum = sum_x(live.iter().map(|&i| pool.get(i).unwrap()));
    check("seed_free_list", churn, pool.len(), sum);
    group.bench_function("seed_free_list", |b| {
        b.iter(|| churn_seed_free_list(&mut pool, &mut live, &churn.steps));
    });
}

#[inline(never)]
fn churn_seed_free_list(pool: &mut SeedFreeListPool, live: &mut [usize], steps: &[Step]) {
    for step in steps {
        let key = &mut live[step.position];
        pool.release(black_box(*key));
        *key = black_box(pool.create(|p| step.spawn.write(p)).unwrap());
    }
}

// ---------------------------------------------------------------------------------------------

fn vec(group: &mut Group<'_>, churn: &Churn) {
    // The objects themselves are the dense list: a step swap-removes the one at the position
    // and pushes the new one. It moves objects, so its live set differs from the other peers'
    // (same count, same work).
    let mut live: Vec<Particle> = Vec::with_capacity(CHURN_CAPACITY);
    live.extend(churn.initial.iter().map(common::Spawn::particle));
    for _ in 0..CHECKED {
        churn_vec(&mut live, &churn.steps);
    }
    assert_eq!(live.len(), CHURN_LIVE, "vec: live objects");
    group.bench_function("vec", |b| b.iter(|| churn_vec(&mut live, &churn.steps)));
    assert_eq!(live.capacity(), CHURN_CAPACITY, "vec grew");
}

#[inline(never)]
fn churn_vec(live: &mut Vec<Particle>, steps: &[Step]) {
    for step in steps {
        black_box(live.swap_remove(black_box(step.position)));
        live.push(step.spawn.particle());
    }
}

criterion_group! {
    name = benches;
    config = common::config();
    targets = churn
}
criterion_main!(benches);
