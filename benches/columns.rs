//! Columns (issue 33): kernels over a few fields of 200,000 live objects, a column pool
//! (`layout = columns`, through `runs_mut`) beside a `Vec` of structs, `soa_derive`'s
//! `SpringVec`, a `bevy_ecs` table (`QueryState::iter_mut`, the fields split into
//! components as a bevy user splits them) and the default layout, in one run; then churn and
//! `get` in both layouts.
//!
//! - `kernel6`: `v += (o - x) * k; x += v * dt` over 6 of a 32-byte spring's 8 `f32`s;
//! - `kernel2`: `x += vx * dt` over 2 fields of a 64-byte object;
//! - `churn`: 1,024 slots half full, a 24-byte object, release then create at a random
//!   position; `get`: a field of 512 live objects read through their handles, at random.
//!
//! `cargo bench -p pooling-benches --bench columns`. Before measuring, every peer runs the
//! kernels from the same start and must hold the same values, bit for bit. Each kernel is a
//! function of its own, never inlined, as a system of a user's would be: inlined into
//! criterion's closure, a kernel's loop came out a fifth slower or faster with changes made
//! elsewhere in the crate (issue 33's second part: `kernel2` 17.0 -> 20.9 us in the bench,
//! 16.8 us either way as a function of its own).

use bevy_ecs::prelude::{Component, World};
use bevy_ecs::query::QueryState;
use criterion::{Criterion, criterion_group, criterion_main};
use pooling::{Handle, Pooled};
use pooling_benches::Group;
use soa_derive::StructOfArray;
use std::hint::black_box;

const OBJECTS: usize = 200_000;
const K: f32 = 0.5;
const DT: f32 = 0.01;

/// The start of every peer's `n`th object: positions and origins spread, the rest zero.
#[expect(clippy::cast_precision_loss, reason = "small whole numbers")]
fn at(n: usize, k: usize) -> f32 {
    ((n * k) % 1000) as f32 / 100.0 - 5.0
}

/// 32 bytes: a position, a velocity, the origin it is pulled to, a scale and an age.
#[derive(Clone, Copy, Default, StructOfArray)]
struct Spring {
    x: f32,
    y: f32,
    vx: f32,
    vy: f32,
    ox: f32,
    oy: f32,
    scale: f32,
    age: f32,
}

#[derive(Pooled)]
#[pool(size = 200_000, layout = columns)]
struct SpringColumns {
    x: f32,
    y: f32,
    vx: f32,
    vy: f32,
    ox: f32,
    oy: f32,
    scale: f32,
    age: f32,
}

#[derive(Pooled, Clone, Copy, Default)]
#[pool(size = 200_000)]
struct SpringObject {
    x: f32,
    y: f32,
    vx: f32,
    vy: f32,
    ox: f32,
    oy: f32,
    scale: f32,
    age: f32,
}

#[derive(Component)]
struct Position {
    x: f32,
    y: f32,
}

#[derive(Component)]
struct Velocity {
    vx: f32,
    vy: f32,
}

#[derive(Component)]
struct Origin {
    ox: f32,
    oy: f32,
}

// Spawned beside the others, as a particle's other fields are, but no kernel reads it.
#[expect(dead_code, reason = "the table's fourth column")]
#[derive(Component)]
struct Looks {
    scale: f32,
    age: f32,
}

/// 64 bytes, of which `kernel2` reads 8.
#[derive(Clone, Copy, Default, StructOfArray)]
struct Wide {
    x: f32,
    vx: f32,
    rest: [f32; 14],
}

#[derive(Pooled)]
#[pool(size = 200_000, layout = columns)]
struct WideColumns {
    x: f32,
    vx: f32,
    rest: [f32; 14],
}

#[derive(Pooled, Clone, Copy, Default)]
#[pool(size = 200_000)]
struct WideObject {
    x: f32,
    vx: f32,
    rest: [f32; 14],
}

const _: () = assert!(size_of::<Wide>() == 64 && size_of::<Spring>() == 32);

#[derive(Component)]
struct Motion {
    x: f32,
    vx: f32,
}

#[expect(dead_code, reason = "the table's other column")]
#[derive(Component)]
struct Rest([f32; 14]);

/// Every peer of a kernel, built with the same objects.
struct Springs {
    vec: Vec<Spring>,
    soa: SpringVec,
    world: World,
    query: QueryState<(
        &'static mut Position,
        &'static mut Velocity,
        &'static Origin,
    )>,
    objects: SpringObjectPool,
    columns: SpringColumnsPool,
}

fn spring(n: usize) -> Spring {
    Spring {
        x: at(n, 7),
        y: at(n, 13),
        ox: at(n, 31),
        oy: at(n, 37),
        ..Spring::default()
    }
}

fn springs() -> Springs {
    let vec: Vec<Spring> = (0..OBJECTS).map(spring).collect();
    let mut soa = SpringVec::with_capacity(OBJECTS);
    let mut world = World::new();
    let mut objects = SpringObjectPool::new();
    let mut columns = SpringColumnsPool::new();
    for s in &vec {
        soa.push(*s);
        world.spawn((
            Position { x: s.x, y: s.y },
            Velocity { vx: s.vx, vy: s.vy },
            Origin { ox: s.ox, oy: s.oy },
            Looks {
                scale: s.scale,
                age: s.age,
            },
        ));
        let Spring {
            x,
            y,
            vx,
            vy,
            ox,
            oy,
            scale,
            age,
        } = *s;
        objects
            .create(|o| {
                *o = SpringObject {
                    x,
                    y,
                    vx,
                    vy,
                    ox,
                    oy,
                    scale,
                    age,
                };
            })
            .expect("room");
        columns
            .create(|c| {
                (*c.x, *c.y, *c.vx, *c.vy) = (x, y, vx, vy);
                (*c.ox, *c.oy, *c.scale, *c.age) = (ox, oy, scale, age);
            })
            .expect("room");
    }
    let query = world.query();
    Springs {
        vec,
        soa,
        world,
        query,
        objects,
        columns,
    }
}

#[inline(never)]
fn vec_kernel6(springs: &mut [Spring]) {
    for s in springs {
        s.vx += (s.ox - s.x) * K;
        s.vy += (s.oy - s.y) * K;
        s.x += s.vx * DT;
        s.y += s.vy * DT;
    }
}

/// The slices' own loop: `soa_derive`'s `SpringVec` is a `Vec` per field.
#[inline(never)]
fn soa_kernel6(soa: &mut SpringVec) {
    let n = soa.x.len();
    let (x, y, vx, vy) = (
        &mut soa.x[..n],
        &mut soa.y[..n],
        &mut soa.vx[..n],
        &mut soa.vy[..n],
    );
    let (ox, oy) = (&soa.ox[..n], &soa.oy[..n]);
    for i in 0..n {
        vx[i] += (ox[i] - x[i]) * K;
        vy[i] += (oy[i] - y[i]) * K;
        x[i] += vx[i] * DT;
        y[i] += vy[i] * DT;
    }
}

type SpringQuery = QueryState<(
    &'static mut Position,
    &'static mut Velocity,
    &'static Origin,
)>;

#[inline(never)]
fn bevy_kernel6(world: &mut World, query: &mut SpringQuery) {
    for (mut p, mut v, o) in query.iter_mut(world) {
        v.vx += (o.ox - p.x) * K;
        v.vy += (o.oy - p.y) * K;
        p.x += v.vx * DT;
        p.y += v.vy * DT;
    }
}

#[inline(never)]
fn objects_kernel6(pool: &mut SpringObjectPool) {
    pool.values_mut().for_each(|s| {
        s.vx += (s.ox - s.x) * K;
        s.vy += (s.oy - s.y) * K;
        s.x += s.vx * DT;
        s.y += s.vy * DT;
    });
}

/// The default layout through its runs, each a slice of objects: the `Vec`'s loop, a run at a
/// time.
#[inline(never)]
fn objects_runs_kernel6(pool: &mut SpringObjectPool) {
    for run in pool.runs_mut() {
        for s in run {
            s.vx += (s.ox - s.x) * K;
            s.vy += (s.oy - s.y) * K;
            s.x += s.vx * DT;
            s.y += s.vy * DT;
        }
    }
}

/// A run's slices, cut to one length so that the loop has no bounds checks: the same loop as
/// `soa_derive`'s.
#[inline(never)]
fn columns_kernel6(pool: &mut SpringColumnsPool) {
    for run in pool.runs_mut() {
        let n = run.x.len();
        let (x, y, vx, vy) = (
            &mut run.x[..n],
            &mut run.y[..n],
            &mut run.vx[..n],
            &mut run.vy[..n],
        );
        let (ox, oy) = (&run.ox[..n], &run.oy[..n]);
        for i in 0..n {
            vx[i] += (ox[i] - x[i]) * K;
            vy[i] += (oy[i] - y[i]) * K;
            x[i] += vx[i] * DT;
            y[i] += vy[i] * DT;
        }
    }
}

/// Each peer's `(x, vx)` bits, in spawn order.
fn spring_bits(s: &mut Springs) -> [Vec<(u32, u32)>; 5] {
    let bits = |x: f32, vx: f32| (x.to_bits(), vx.to_bits());
    let mut bevy: Vec<_> = s
        .query
        .iter(&s.world)
        .map(|(p, v, _)| bits(p.x, v.vx))
        .collect();
    bevy.sort_unstable();
    let mut vec: Vec<_> = s.vec.iter().map(|s| bits(s.x, s.vx)).collect();
    vec.sort_unstable();
    let soa = s.soa.x.iter().zip(&s.soa.vx).map(|(&x, &vx)| bits(x, vx));
    let objects = s.objects.values().map(|o| bits(o.x, o.vx));
    let columns = s.columns.values().map(|c| bits(*c.x, *c.vx));
    let mut soa: Vec<_> = soa.collect();
    soa.sort_unstable();
    let mut objects: Vec<_> = objects.collect();
    objects.sort_unstable();
    let mut columns: Vec<_> = columns.collect();
    columns.sort_unstable();
    [vec, soa, bevy, objects, columns]
}

/// Every peer of `kernel2`.
struct Wides {
    vec: Vec<Wide>,
    soa: WideVec,
    world: World,
    query: QueryState<&'static mut Motion>,
    objects: WideObjectPool,
    columns: WideColumnsPool,
}

fn wides() -> Wides {
    let mut vec = Vec::with_capacity(OBJECTS);
    let mut soa = WideVec::with_capacity(OBJECTS);
    let mut world = World::new();
    let mut objects = WideObjectPool::new();
    let mut columns = WideColumnsPool::new();
    for n in 0..OBJECTS {
        let (x, vx, rest) = (at(n, 7), at(n, 13), [at(n, 31); 14]);
        vec.push(Wide { x, vx, rest });
        soa.push(Wide { x, vx, rest });
        world.spawn((Motion { x, vx }, Rest(rest)));
        objects
            .create(|o| *o = WideObject { x, vx, rest })
            .expect("room");
        columns
            .create(|c| (*c.x, *c.vx, *c.rest) = (x, vx, rest))
            .expect("room");
    }
    let query = world.query();
    Wides {
        vec,
        soa,
        world,
        query,
        objects,
        columns,
    }
}

#[inline(never)]
fn vec_kernel2(wides: &mut [Wide]) {
    for w in wides {
        w.x += w.vx * DT;
    }
}

#[inline(never)]
fn soa_kernel2(soa: &mut WideVec) {
    for (x, vx) in soa.x.iter_mut().zip(&soa.vx) {
        *x += vx * DT;
    }
}

#[inline(never)]
fn bevy_kernel2(world: &mut World, query: &mut QueryState<&'static mut Motion>) {
    for mut m in query.iter_mut(world) {
        m.x += m.vx * DT;
    }
}

#[inline(never)]
fn objects_kernel2(pool: &mut WideObjectPool) {
    pool.values_mut().for_each(|w| w.x += w.vx * DT);
}

#[inline(never)]
fn columns_kernel2(pool: &mut WideColumnsPool) {
    for run in pool.runs_mut() {
        for (x, vx) in run.x.iter_mut().zip(&*run.vx) {
            *x += vx * DT;
        }
    }
}

fn wide_sums(w: &mut Wides) -> [f64; 5] {
    let sum = |xs: &mut dyn Iterator<Item = f32>| xs.map(f64::from).sum::<f64>();
    [
        sum(&mut w.vec.iter().map(|w| w.x)),
        sum(&mut w.soa.x.iter().copied()),
        sum(&mut w.query.iter(&w.world).map(|m| m.x)),
        sum(&mut w.objects.values().map(|o| o.x)),
        sum(&mut w.columns.values().map(|c| *c.x)),
    ]
}

/// Each kernel, three passes by every peer: all hold the same values.
fn check() {
    let mut s = springs();
    for _ in 0..3 {
        vec_kernel6(&mut s.vec);
        soa_kernel6(&mut s.soa);
        bevy_kernel6(&mut s.world, &mut s.query);
        objects_kernel6(&mut s.objects);
        columns_kernel6(&mut s.columns);
    }
    let [vec, rest @ ..] = spring_bits(&mut s);
    assert!(rest.iter().all(|peer| *peer == vec), "kernel6 peers differ");

    let mut w = wides();
    for _ in 0..3 {
        vec_kernel2(&mut w.vec);
        soa_kernel2(&mut w.soa);
        bevy_kernel2(&mut w.world, &mut w.query);
        objects_kernel2(&mut w.objects);
        columns_kernel2(&mut w.columns);
    }
    let [vec, rest @ ..] = wide_sums(&mut w);
    assert!(
        rest.iter().all(|&sum| sum.to_bits() == vec.to_bits()),
        "kernel2 peers differ"
    );
}

fn kernels(c: &mut Criterion) {
    check();
    let mut group = c.benchmark_group("kernel6");
    let mut s = springs();
    group.bench_function("vec_for", |b| b.iter(|| vec_kernel6(&mut s.vec)));
    group.bench_function("soa_derive", |b| b.iter(|| soa_kernel6(&mut s.soa)));
    group.bench_function("bevy_query_iter_mut", |b| {
        b.iter(|| bevy_kernel6(&mut s.world, &mut s.query));
    });
    group.bench_function("pooling_objects_for_each", |b| {
        b.iter(|| objects_kernel6(&mut s.objects));
    });
    group.bench_function("pooling_objects_runs_mut", |b| {
        b.iter(|| objects_runs_kernel6(&mut s.objects));
    });
    group.bench_function("pooling_columns_runs_mut", |b| {
        b.iter(|| columns_kernel6(&mut s.columns));
    });
    group.finish();
    drop(s);

    let mut group = c.benchmark_group("kernel2");
    let mut w = wides();
    group.bench_function("vec_for", |b| b.iter(|| vec_kernel2(&mut w.vec)));
    group.bench_function("soa_derive", |b| b.iter(|| soa_kernel2(&mut w.soa)));
    group.bench_function("bevy_query_iter_mut", |b| {
        b.iter(|| bevy_kernel2(&mut w.world, &mut w.query));
    });
    group.bench_function("pooling_objects_for_each", |b| {
        b.iter(|| objects_kernel2(&mut w.objects));
    });
    group.bench_function("pooling_columns_runs_mut", |b| {
        b.iter(|| columns_kernel2(&mut w.columns));
    });
    group.finish();
}

/// 24 bytes, in both layouts.
#[derive(Pooled)]
#[pool(size = 1024)]
struct Blob {
    id: u64,
    dx: f32,
    ttl: u32,
    tag: u64,
}

#[derive(Pooled)]
#[pool(size = 1024, layout = columns)]
struct BlobColumns {
    id: u64,
    dx: f32,
    ttl: u32,
    tag: u64,
}

/// Churn steps per iteration, and `get`s, at positions drawn once.
const STEPS: usize = 1024;

fn positions() -> Vec<usize> {
    let mut rng = fastrand::Rng::with_seed(pooling_benches::SEED);
    (0..STEPS).map(|_| rng.usize(..512)).collect()
}

fn blob_pools() -> (
    BlobPool,
    Vec<Handle<Blob>>,
    BlobColumnsPool,
    Vec<Handle<BlobColumns>>,
) {
    let mut objects = BlobPool::new();
    let mut columns = BlobColumnsPool::new();
    let a = (0..512u64)
        .map(|i| objects.create(|b| b.id = i).expect("room"))
        .collect();
    let b = (0..512u64)
        .map(|i| columns.create(|b| *b.id = i).expect("room"))
        .collect();
    (objects, a, columns, b)
}

fn churn_and_get(c: &mut Criterion) {
    let at = positions();
    let mut group: Group<'_> = c.benchmark_group("columns_churn");
    let (mut objects, mut a, mut columns, mut b) = blob_pools();
    group.bench_function("pooling_objects", |bench| {
        bench.iter(|| {
            for (i, &k) in (0u64..).zip(&at) {
                objects.release(black_box(a[k])).expect("live");
                a[k] = objects
                    .create(|b| {
                        b.id = i;
                        b.dx = 1.0;
                        b.ttl = 5;
                    })
                    .expect("room");
            }
        });
    });
    group.bench_function("pooling_columns", |bench| {
        bench.iter(|| {
            for (i, &k) in (0u64..).zip(&at) {
                columns.release(black_box(b[k])).expect("live");
                b[k] = columns
                    .create(|b| {
                        *b.id = i;
                        *b.dx = 1.0;
                        *b.ttl = 5;
                    })
                    .expect("room");
            }
        });
    });
    group.finish();

    let mut group = c.benchmark_group("columns_get");
    group.bench_function("pooling_objects", |bench| {
        bench.iter(|| {
            at.iter()
                .map(|&k| objects.get(black_box(a[k])).map_or(0.0, |b| b.dx))
                .sum::<f32>()
        });
    });
    group.bench_function("pooling_columns", |bench| {
        bench.iter(|| {
            at.iter()
                .map(|&k| columns.get(black_box(b[k])).map_or(0.0, |b| *b.dx))
                .sum::<f32>()
        });
    });
    group.finish();
}

criterion_group! {
    name = benches;
    config = pooling_benches::config();
    targets = kernels, churn_and_get
}
criterion_main!(benches);
