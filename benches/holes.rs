//! Holes (issue 39): updates of 200,000 objects of 8 `f32` at 100 %, 90 % and 50 % live, the
//! released ones chosen at random from a fixed seed, each pool beside its peers holding the
//! same live objects, in one run:
//!
//! - `objects/<live %>`: the 6-field ballistic kernel (`vy -= g dt; vx, vz *= drag;
//!   x += vx dt` ...) through the default layout's `values_mut().for_each`, `iter_mut()`'s and
//!   a `for` loop over `values_mut()` (`pooling_for`: the iterator's `next`, not `fold`),
//!   and over whole groups of slots (`groups_mut`, free ones included), against a `Vec` of
//!   the live objects (`iter_mut().for_each`), slab's and slotmap's;
//! - `columns/<live %>`: the same kernel over a column pool through `runs_mut` (a slice
//!   kernel), `groups_mut` (the slice kernel over whole groups of slots, free ones included)
//!   and through its rows (`values_mut().for_each`), against `soa_derive` holding the live
//!   objects (the same slice kernel) and the `Vec`;
//! - `retain/<live %>`: the kernel and a test (`age += dt; age < life`, which keeps every
//!   object) in one `retain`, against `values_mut().for_each` of the kernel then a `retain` of
//!   the test, and the `Vec`'s `retain_mut`; the same for a column pool's row closures;
//! - `par_frame/<live %>`: a frame of sixteen sub-steps of the kernel, ageing, 1 % dying and as
//!   many born again: `par_retain` + `create_many` against a `Vec` under rayon (`par_iter_mut`,
//!   `retain`, `extend`), and the sequential `retain` against the `Vec`'s `retain_mut`; in the
//!   interleaved mode one frame of each per trial (`HOLES_PAR_FRAME_ONLY=1`: the parallel
//!   loops alone);
//! - `par_update/<live %>`: the kernel on every core, `par_values_mut().for_each` and
//!   `par_iter_mut().for_each`, against rayon's `par_iter_mut` over a `Vec` of the live objects;
//! - `seed_frame`: the seed's particle frame (`benches/particles.rs`'s workload: bursts of 200
//!   `create`s, `retain` with the seed's kernel, 10,000 slots) beside slab and slotmap; in the
//!   interleaved mode (`HOLES_TRIALS=N`) one frame of each peer per trial, `N * 20` trials
//!   (`HOLES_SEED_FRAME_ONLY=1`: the frame alone).
//!
//! `cargo bench -p pooling-benches --bench holes`. Every loop is a function of its own, never
//! inlined, as a user's system would be. Before measuring, every peer runs each loop from the
//! same start and must hold the same objects, bit for bit.

use criterion::{BenchmarkId, Criterion, criterion_group};
use pooling::Pooled;
use pooling_benches::particle::ParticlePool;
use pooling_benches::{Bursts, CAPACITY, Container, Group, interleave, workload};
use rayon::prelude::*;
use slotmap::{DefaultKey, SlotMap};
use soa_derive::StructOfArray;
use std::hint::black_box;

/// Slots of every pool, and objects of every peer at 100 % live.
const OBJECTS: usize = 200_000;
/// The occupancies measured, in percent of `OBJECTS` live.
const LIVE: [usize; 3] = [100, 90, 50];
const G: f32 = 9.81;
const DT: f32 = 0.01;
const DRAG: f32 = 0.999;
/// A frame's objects live this many frames: with ages staggered, 1 % die each frame.
const LIFE: f32 = 100.0;

/// 32 bytes: a position, a velocity, an age and a lifetime.
#[derive(Pooled, StructOfArray, Clone, Copy, Debug, Default, PartialEq)]
#[pool(size = 200_000)]
struct Shell {
    x: f32,
    y: f32,
    z: f32,
    vx: f32,
    vy: f32,
    vz: f32,
    age: f32,
    life: f32,
}

const _: () = assert!(size_of::<Shell>() == 32);

/// The same object kept as columns.
#[derive(Pooled)]
#[pool(size = 200_000, layout = columns)]
struct ShellColumns {
    x: f32,
    y: f32,
    z: f32,
    vx: f32,
    vy: f32,
    vz: f32,
    age: f32,
    life: f32,
}

impl Shell {
    /// The `n`th object: positions and velocities spread, ages staggered over `LIFE` frames.
    #[expect(clippy::cast_precision_loss, reason = "small whole numbers")]
    fn nth(n: usize) -> Self {
        let at = |k: usize| ((n * k) % 1000) as f32 / 100.0 - 5.0;
        Self {
            x: at(7),
            y: at(13),
            z: at(17),
            vx: at(31),
            vy: at(37),
            vz: at(41),
            age: (n % 100) as f32,
            life: LIFE,
        }
    }

    /// The ballistic kernel: six of the eight fields.
    #[inline]
    fn kernel(&mut self) {
        self.vy -= G * DT;
        self.vx *= DRAG;
        self.vz *= DRAG;
        self.x += self.vx * DT;
        self.y += self.vy * DT;
        self.z += self.vz * DT;
    }

    /// The test `retain` keeps by: a frame older, and alive while younger than its life (every
    /// object of the update benches has an infinite one).
    #[inline]
    fn ages(&mut self) -> bool {
        self.age += 1.0;
        self.age < self.life
    }

    /// A frame's work: sixteen sub-steps of the kernel, then the test.
    #[inline]
    fn frame(&mut self) -> bool {
        for _ in 0..16 {
            self.kernel();
        }
        self.ages()
    }

    fn bits(&self) -> [u32; 8] {
        [
            self.x, self.y, self.z, self.vx, self.vy, self.vz, self.age, self.life,
        ]
        .map(f32::to_bits)
    }
}

/// Every peer of a bench, holding the same live objects: `OBJECTS` made in order, then those
/// at the positions `holes` gives released (a random `100 - live` % of them).
struct Peers {
    vec: Vec<Shell>,
    soa: ShellVec,
    slab: slab::Slab<Shell>,
    slotmap: SlotMap<DefaultKey, Shell>,
    pool: ShellPool,
    columns: ShellColumnsPool,
}

/// The positions released for `live` % live: a seeded shuffle's first `100 - live` %.
fn holes(live: usize) -> Vec<usize> {
    let mut rng = fastrand::Rng::with_seed(pooling_benches::SEED ^ live as u64);
    let mut all: Vec<usize> = (0..OBJECTS).collect();
    rng.shuffle(&mut all);
    all.truncate(OBJECTS * (100 - live) / 100);
    all
}

fn peers(percent: usize, life: f32) -> Peers {
    let objects: Vec<Shell> = (0..OBJECTS)
        .map(|n| Shell {
            life,
            ..Shell::nth(n)
        })
        .collect();
    let mut dead = vec![false; OBJECTS];
    for at in holes(percent) {
        dead[at] = true;
    }
    let mut peers = Peers {
        vec: Vec::new(),
        soa: ShellVec::new(),
        slab: slab::Slab::with_capacity(OBJECTS),
        slotmap: SlotMap::with_capacity(OBJECTS),
        pool: ShellPool::new(),
        columns: ShellColumnsPool::new(),
    };
    let mut handles = Vec::with_capacity(OBJECTS);
    for object in &objects {
        let s = *object;
        let keys = (
            peers.slab.insert(s),
            peers.slotmap.insert(s),
            peers.pool.create(|p| *p = s).expect("room"),
            (peers.columns)
                .create(|c| {
                    (*c.x, *c.y, *c.z, *c.vx) = (s.x, s.y, s.z, s.vx);
                    (*c.vy, *c.vz, *c.age, *c.life) = (s.vy, s.vz, s.age, s.life);
                })
                .expect("room"),
        );
        handles.push(keys);
    }
    for ((object, keys), &dead) in objects.iter().zip(handles).zip(&dead) {
        if dead {
            peers.slab.remove(keys.0);
            peers.slotmap.remove(keys.1);
            peers.pool.release(keys.2).expect("live");
            peers.columns.release(keys.3).expect("live");
        } else {
            peers.vec.push(*object);
            peers.soa.push(*object);
        }
    }
    peers
}

fn row(c: &ShellColumnsRef<'_>) -> Shell {
    Shell {
        x: *c.x,
        y: *c.y,
        z: *c.z,
        vx: *c.vx,
        vy: *c.vy,
        vz: *c.vz,
        age: *c.age,
        life: *c.life,
    }
}

impl Peers {
    /// Each peer's live objects as bits, in slot order (each keeps its objects in order).
    fn contents(&self) -> [Vec<[u32; 8]>; 6] {
        let soa = (0..self.soa.len()).map(|i| {
            let s = self.soa.index(i);
            Shell {
                x: *s.x,
                y: *s.y,
                z: *s.z,
                vx: *s.vx,
                vy: *s.vy,
                vz: *s.vz,
                age: *s.age,
                life: *s.life,
            }
            .bits()
        });
        [
            self.vec.iter().map(Shell::bits).collect(),
            soa.collect(),
            self.slab.iter().map(|(_, s)| s.bits()).collect(),
            self.slotmap.values().map(Shell::bits).collect(),
            self.pool.values().map(Shell::bits).collect(),
            self.columns.values().map(|c| row(&c).bits()).collect(),
        ]
    }

    fn assert_same(&self, what: &str) {
        let [vec, rest @ ..] = self.contents();
        for (peer, contents) in ["soa", "slab", "slotmap", "pool", "columns"]
            .iter()
            .zip(rest)
        {
            assert!(contents == vec, "{what}: {peer} differs from the `Vec`");
        }
    }
}

// One function per loop, as a user writes it.

#[inline(never)]
fn vec_kernel(vec: &mut [Shell]) {
    vec.iter_mut().for_each(Shell::kernel);
}

#[inline(never)]
fn slab_kernel(slab: &mut slab::Slab<Shell>) {
    slab.iter_mut().for_each(|(_, s)| s.kernel());
}

#[inline(never)]
fn slotmap_kernel(map: &mut SlotMap<DefaultKey, Shell>) {
    map.values_mut().for_each(Shell::kernel);
}

#[inline(never)]
fn pool_values_kernel(pool: &mut ShellPool) {
    pool.values_mut().for_each(Shell::kernel);
}

/// The kernel on every core: rayon over the `Vec`'s live objects, and over the pool's slots.
#[inline(never)]
fn vec_par_kernel(vec: &mut [Shell]) {
    vec.par_iter_mut().for_each(Shell::kernel);
}

#[inline(never)]
fn pool_par_values_kernel(pool: &mut ShellPool) {
    pool.par_values_mut().for_each(Shell::kernel);
}

#[inline(never)]
fn pool_par_iter_kernel(pool: &mut ShellPool) {
    pool.par_iter_mut().for_each(|(_, s)| s.kernel());
}

#[inline(never)]
fn pool_iter_kernel(pool: &mut ShellPool) {
    pool.iter_mut().for_each(|(_, s)| s.kernel());
}

#[inline(never)]
fn pool_for_kernel(pool: &mut ShellPool) {
    for s in pool.values_mut() {
        s.kernel();
    }
}

/// `soa_derive`'s `Vec` per field, each cut to one length so that the loop has no bounds checks.
#[inline(never)]
fn soa_kernel(soa: &mut ShellVec) {
    let n = soa.x.len();
    let (x, y, z) = (&mut soa.x[..n], &mut soa.y[..n], &mut soa.z[..n]);
    let (vx, vy, vz) = (&mut soa.vx[..n], &mut soa.vy[..n], &mut soa.vz[..n]);
    for i in 0..n {
        vy[i] -= G * DT;
        vx[i] *= DRAG;
        vz[i] *= DRAG;
        x[i] += vx[i] * DT;
        y[i] += vy[i] * DT;
        z[i] += vz[i] * DT;
    }
}

/// The same slice kernel over each run of a column pool (its README's kernel path).
#[inline(never)]
fn columns_runs_kernel(pool: &mut ShellColumnsPool) {
    for run in pool.runs_mut() {
        let n = run.x.len();
        let (x, y, z) = (&mut run.x[..n], &mut run.y[..n], &mut run.z[..n]);
        let (vx, vy, vz) = (&mut run.vx[..n], &mut run.vy[..n], &mut run.vz[..n]);
        for i in 0..n {
            vy[i] -= G * DT;
            vx[i] *= DRAG;
            vz[i] *= DRAG;
            x[i] += vx[i] * DT;
            y[i] += vy[i] * DT;
            z[i] += vz[i] * DT;
        }
    }
}

/// The same slice kernel over each group of slots of a column pool, free ones included (the
/// kernel path for plain types): no mask, as the kernel only updates.
#[inline(never)]
fn columns_groups_kernel(pool: &mut ShellColumnsPool) {
    for (_, group) in pool.groups_mut() {
        let n = group.x.len();
        let (x, y, z) = (&mut group.x[..n], &mut group.y[..n], &mut group.z[..n]);
        let (vx, vy, vz) = (&mut group.vx[..n], &mut group.vy[..n], &mut group.vz[..n]);
        for i in 0..n {
            vy[i] -= G * DT;
            vx[i] *= DRAG;
            vz[i] *= DRAG;
            x[i] += vx[i] * DT;
            y[i] += vy[i] * DT;
            z[i] += vz[i] * DT;
        }
    }
}

/// The kernel over each group of slots of a pool, free ones included.
#[inline(never)]
fn pool_groups_kernel(pool: &mut ShellPool) {
    for (_, group) in pool.groups_mut() {
        group.iter_mut().for_each(Shell::kernel);
    }
}

/// The kernel on a column pool's row: a reference to each field.
#[inline]
fn row_kernel(s: &mut ShellColumnsMut<'_>) {
    *s.vy -= G * DT;
    *s.vx *= DRAG;
    *s.vz *= DRAG;
    *s.x += *s.vx * DT;
    *s.y += *s.vy * DT;
    *s.z += *s.vz * DT;
}

#[inline(never)]
fn columns_rows_kernel(pool: &mut ShellColumnsPool) {
    pool.values_mut().for_each(|mut s| row_kernel(&mut s));
}

#[inline(never)]
fn vec_retain(vec: &mut Vec<Shell>) {
    vec.retain_mut(|s| {
        s.kernel();
        s.ages()
    });
}

#[inline(never)]
fn pool_retain(pool: &mut ShellPool) {
    pool.retain(|s| {
        s.kernel();
        s.ages()
    });
}

#[inline(never)]
fn pool_for_each_then_retain(pool: &mut ShellPool) {
    pool.values_mut().for_each(Shell::kernel);
    pool.retain(Shell::ages);
}

#[inline(never)]
fn columns_retain(pool: &mut ShellColumnsPool) {
    pool.retain(|mut s| {
        row_kernel(&mut s);
        *s.age += 1.0;
        *s.age < *s.life
    });
}

#[inline(never)]
fn columns_runs_then_retain(pool: &mut ShellColumnsPool) {
    columns_runs_kernel(pool);
    pool.retain(|s| {
        *s.age += 1.0;
        *s.age < *s.life
    });
}

/// The `n`th object born in a frame: a fresh `nth`, age zero.
fn born(n: usize) -> Shell {
    Shell {
        age: 0.0,
        ..Shell::nth(n)
    }
}

#[inline(never)]
fn vec_frame(vec: &mut Vec<Shell>, live: usize) {
    vec.retain_mut(Shell::frame);
    let born_count = live - vec.len();
    vec.extend((0..born_count).map(born));
}

/// rayon has no `par_retain` for a `Vec`: the frame in parallel, then a sequential `retain`.
#[inline(never)]
fn vec_par_frame(vec: &mut Vec<Shell>, live: usize) {
    vec.par_iter_mut().for_each(|s| {
        s.frame();
    });
    vec.retain(|s| s.age < s.life);
    let born_count = live - vec.len();
    vec.extend((0..born_count).map(born));
}

#[inline(never)]
fn pool_frame(pool: &mut ShellPool, live: usize) {
    pool.retain(Shell::frame);
    pool.create_many(live - pool.len(), |n, s| *s = born(n));
}

#[inline(never)]
fn pool_par_frame(pool: &mut ShellPool, live: usize) {
    pool.par_retain(Shell::frame);
    pool.create_many(live - pool.len(), |n, s| *s = born(n));
}

/// Three passes of every loop from the same start leave every peer with the same objects.
fn check() {
    for live in LIVE {
        let mut p = peers(live, f32::INFINITY);
        for _ in 0..3 {
            vec_kernel(&mut p.vec);
            soa_kernel(&mut p.soa);
            slab_kernel(&mut p.slab);
            slotmap_kernel(&mut p.slotmap);
            pool_values_kernel(&mut p.pool);
            columns_runs_kernel(&mut p.columns);
        }
        p.assert_same("kernel");
        let mut p = peers(live, f32::INFINITY);
        for _ in 0..3 {
            vec_kernel(&mut p.vec);
            soa_kernel(&mut p.soa);
            slab_kernel(&mut p.slab);
            slotmap_kernel(&mut p.slotmap);
            pool_iter_kernel(&mut p.pool);
            columns_rows_kernel(&mut p.columns);
        }
        p.assert_same("iter_mut, rows");
        let mut p = peers(live, f32::INFINITY);
        for _ in 0..3 {
            vec_kernel(&mut p.vec);
            soa_kernel(&mut p.soa);
            slab_kernel(&mut p.slab);
            slotmap_kernel(&mut p.slotmap);
            pool_for_kernel(&mut p.pool);
            columns_rows_kernel(&mut p.columns);
        }
        p.assert_same("for");
        let mut p = peers(live, f32::INFINITY);
        for _ in 0..3 {
            vec_kernel(&mut p.vec);
            soa_kernel(&mut p.soa);
            slab_kernel(&mut p.slab);
            slotmap_kernel(&mut p.slotmap);
            pool_groups_kernel(&mut p.pool);
            columns_groups_kernel(&mut p.columns);
        }
        p.assert_same("groups_mut");
        let mut p = peers(live, f32::INFINITY);
        let mut iter_pool = p.pool.clone();
        for _ in 0..3 {
            vec_par_kernel(&mut p.vec);
            soa_kernel(&mut p.soa);
            slab_kernel(&mut p.slab);
            slotmap_kernel(&mut p.slotmap);
            pool_par_values_kernel(&mut p.pool);
            pool_par_iter_kernel(&mut iter_pool);
            columns_runs_kernel(&mut p.columns);
        }
        p.assert_same("par_values_mut");
        assert!(
            iter_pool.values().eq(p.pool.values()),
            "par_iter_mut differs"
        );

        // `retain` with a life of `LIFE`: after three passes, those aged 97 and up are gone.
        let mut p = peers(live, LIFE);
        let mut q = peers(live, LIFE);
        for _ in 0..3 {
            vec_retain(&mut p.vec);
            pool_retain(&mut p.pool);
            columns_retain(&mut p.columns);
            pool_for_each_then_retain(&mut q.pool);
            columns_runs_then_retain(&mut q.columns);
        }
        let expected: Vec<[u32; 8]> = p.vec.iter().map(Shell::bits).collect();
        let [.., pool, columns] = p.contents();
        let [.., pool_then, columns_then] = q.contents();
        assert!(expected.len() < p.soa.len(), "retain released some");
        for (name, contents) in [
            ("pool", pool),
            ("columns", columns),
            ("pool then", pool_then),
            ("columns then", columns_then),
        ] {
            assert!(contents == expected, "retain: {name} differs");
        }

        // Frames: the same objects, in any order (each peer puts the newborn elsewhere).
        let count = OBJECTS * live / 100;
        let sorted = |mut all: Vec<[u32; 8]>| {
            all.sort_unstable();
            all
        };
        let mut vec = peers(live, LIFE).vec;
        let mut par_vec = vec.clone();
        let mut p = peers(live, LIFE);
        let mut q = peers(live, LIFE);
        for _ in 0..3 {
            vec_frame(&mut vec, count);
            vec_par_frame(&mut par_vec, count);
            pool_frame(&mut p.pool, count);
            pool_par_frame(&mut q.pool, count);
        }
        let expected = sorted(vec.iter().map(Shell::bits).collect());
        assert!(sorted(par_vec.iter().map(Shell::bits).collect()) == expected);
        assert!(sorted(p.pool.values().map(Shell::bits).collect()) == expected);
        assert!(sorted(q.pool.values().map(Shell::bits).collect()) == expected);
    }
}

/// One call per iteration, on the peer's state as the iterations before left it.
fn bench<P>(group: &mut Group<'_>, name: &str, live: usize, peer: &mut P, run: fn(&mut P)) {
    group.bench_with_input(BenchmarkId::new(name, live), &live, |b, _| {
        b.iter(|| run(black_box(&mut *peer)));
    });
}

fn updates(c: &mut Criterion) {
    check();
    for live in LIVE {
        let mut p = peers(live, f32::INFINITY);
        let mut group = c.benchmark_group("objects");
        bench(&mut group, "vec_for_each", live, &mut p.vec, |v| {
            vec_kernel(v);
        });
        bench(
            &mut group,
            "pooling_values_mut",
            live,
            &mut p.pool,
            pool_values_kernel,
        );
        bench(
            &mut group,
            "pooling_iter_mut",
            live,
            &mut p.pool,
            pool_iter_kernel,
        );
        bench(
            &mut group,
            "pooling_for",
            live,
            &mut p.pool,
            pool_for_kernel,
        );
        bench(
            &mut group,
            "pooling_groups_mut",
            live,
            &mut p.pool,
            pool_groups_kernel,
        );
        bench(&mut group, "slab", live, &mut p.slab, slab_kernel);
        bench(&mut group, "slotmap", live, &mut p.slotmap, slotmap_kernel);
        group.finish();

        let mut group = c.benchmark_group("columns");
        bench(&mut group, "soa_derive", live, &mut p.soa, soa_kernel);
        bench(&mut group, "vec_for_each", live, &mut p.vec, |v| {
            vec_kernel(v);
        });
        bench(
            &mut group,
            "pooling_runs_mut",
            live,
            &mut p.columns,
            columns_runs_kernel,
        );
        bench(
            &mut group,
            "pooling_groups_mut",
            live,
            &mut p.columns,
            columns_groups_kernel,
        );
        bench(
            &mut group,
            "pooling_rows",
            live,
            &mut p.columns,
            columns_rows_kernel,
        );
        group.finish();

        let mut group = c.benchmark_group("retain");
        bench(&mut group, "vec_retain_mut", live, &mut p.vec, vec_retain);
        bench(&mut group, "pooling_retain", live, &mut p.pool, pool_retain);
        bench(
            &mut group,
            "pooling_for_each_then_retain",
            live,
            &mut p.pool,
            pool_for_each_then_retain,
        );
        bench(
            &mut group,
            "columns_retain",
            live,
            &mut p.columns,
            columns_retain,
        );
        bench(
            &mut group,
            "columns_runs_then_retain",
            live,
            &mut p.columns,
            columns_runs_then_retain,
        );
        group.finish();
    }
}

fn frames(c: &mut Criterion) {
    for live in LIVE {
        let mut group = c.benchmark_group("par_update");
        let Peers { mut vec, pool, .. } = peers(live, f32::INFINITY);
        let (mut pool, mut iter_pool) = (pool, peers(live, f32::INFINITY).pool);
        group.bench_with_input(
            BenchmarkId::new("vec_rayon_par_iter_mut", live),
            &live,
            |b, _| {
                b.iter(|| vec_par_kernel(&mut vec));
            },
        );
        group.bench_with_input(
            BenchmarkId::new("pooling_par_values_mut", live),
            &live,
            |b, _| {
                b.iter(|| pool_par_values_kernel(&mut pool));
            },
        );
        group.bench_with_input(
            BenchmarkId::new("pooling_par_iter_mut", live),
            &live,
            |b, _| {
                b.iter(|| pool_par_iter_kernel(&mut iter_pool));
            },
        );
        group.finish();
    }
    for live in LIVE {
        let count = OBJECTS * live / 100;
        let mut group = c.benchmark_group("par_frame");
        let Peers { mut vec, pool, .. } = peers(live, LIFE);
        let (mut par_vec, mut par_pool) = (vec.clone(), peers(live, LIFE).pool);
        let mut pool = pool;
        group.bench_with_input(BenchmarkId::new("vec_retain_mut", live), &live, |b, _| {
            b.iter(|| vec_frame(&mut vec, count));
        });
        group.bench_with_input(BenchmarkId::new("pooling_retain", live), &live, |b, _| {
            b.iter(|| pool_frame(&mut pool, count));
        });
        group.bench_with_input(
            BenchmarkId::new("vec_rayon_par_iter_mut_retain", live),
            &live,
            |b, _| b.iter(|| vec_par_frame(&mut par_vec, count)),
        );
        group.bench_with_input(
            BenchmarkId::new("pooling_par_retain", live),
            &live,
            |b, _| {
                b.iter(|| pool_par_frame(&mut par_pool, count));
            },
        );
        group.finish();
    }

    let bursts = Bursts::new();
    let mut group = c.benchmark_group("seed_frame");
    seed_frame(&mut group, &bursts, ParticlePool::with_capacity(CAPACITY));
    seed_frame(&mut group, &bursts, slab::Slab::with_capacity(CAPACITY));
    seed_frame(&mut group, &bursts, SlotMap::with_capacity(CAPACITY));
    group.finish();
}

/// The seed's frame, warmed up to its steady state (and checked there against a `Vec`).
fn seed_frame<P: Container>(group: &mut Group<'_>, bursts: &Bursts, mut peer: P) {
    let mut n = workload::warm_up(bursts, &mut peer);
    group.bench_function(P::NAME, |b| {
        b.iter(|| {
            workload::frame(&mut peer, bursts.burst(n));
            n += 1;
        });
    });
}

criterion_group! {
    name = benches;
    config = pooling_benches::config();
    targets = updates, frames
}

/// A row of the interleaved mode: its name, the row it is a ratio to, and its loop.
type Row = (&'static str, &'static str, fn(&mut Peers));

/// The update and `retain` rows, each against its peer in the goals.
const ROWS: [Row; 15] = [
    ("objects/vec_for_each", "objects/vec_for_each", |p| {
        vec_kernel(&mut p.vec);
    }),
    ("objects/pooling_iter_mut", "objects/vec_for_each", |p| {
        pool_iter_kernel(&mut p.pool);
    }),
    ("objects/pooling_values_mut", "objects/vec_for_each", |p| {
        pool_values_kernel(&mut p.pool);
    }),
    ("objects/pooling_for", "objects/vec_for_each", |p| {
        pool_for_kernel(&mut p.pool);
    }),
    ("objects/pooling_groups_mut", "objects/vec_for_each", |p| {
        pool_groups_kernel(&mut p.pool);
    }),
    ("objects/slotmap", "objects/vec_for_each", |p| {
        slotmap_kernel(&mut p.slotmap);
    }),
    ("columns/soa_derive", "columns/soa_derive", |p| {
        soa_kernel(&mut p.soa);
    }),
    ("columns/pooling_runs_mut", "columns/soa_derive", |p| {
        columns_runs_kernel(&mut p.columns);
    }),
    ("columns/pooling_groups_mut", "columns/soa_derive", |p| {
        columns_groups_kernel(&mut p.columns);
    }),
    ("columns/pooling_rows", "columns/pooling_runs_mut", |p| {
        columns_rows_kernel(&mut p.columns);
    }),
    ("retain/vec_retain_mut", "retain/vec_retain_mut", |p| {
        vec_retain(&mut p.vec);
    }),
    (
        "retain/pooling_for_each_then_retain",
        "retain/pooling_for_each_then_retain",
        |p| pool_for_each_then_retain(&mut p.pool),
    ),
    (
        "retain/pooling_retain",
        "retain/pooling_for_each_then_retain",
        |p| pool_retain(&mut p.pool),
    ),
    (
        "retain/columns_runs_then_retain",
        "retain/columns_runs_then_retain",
        |p| columns_runs_then_retain(&mut p.columns),
    ),
    (
        "retain/columns_retain",
        "retain/columns_runs_then_retain",
        |p| columns_retain(&mut p.columns),
    ),
];

/// The interleaved mode (`HOLES_TRIALS=N`): every row timed side by side
/// ([`interleave::trials`]), each against its peer.
fn interleaved(trials: usize) {
    for live in LIVE {
        let mut p = peers(live, f32::INFINITY);
        let times = interleave::trials(ROWS.len(), trials, |at| (ROWS[at].2)(black_box(&mut p)));
        for (k, (name, peer, _)) in ROWS.iter().enumerate() {
            let of = ROWS.iter().position(|(n, ..)| n == peer).expect("a row");
            println!(
                "{name}/{live:<3} {:>9.1} us  {} x {peer}",
                interleave::micros(&times[k]),
                interleave::ratio(&times[k], &times[of]),
            );
        }
    }
}

/// The seed's frame in the interleaved mode: each peer on its own frames from the same steady
/// state, against slab's and slotmap's in the same trials.
fn interleaved_seed_frame(trials: usize) {
    struct Seed<P> {
        peer: P,
        frame: usize,
    }
    impl<P: Container> Seed<P> {
        fn new(bursts: &Bursts, mut peer: P) -> Self {
            let frame = workload::warm_up(bursts, &mut peer);
            Self { peer, frame }
        }
        fn frame(&mut self, bursts: &Bursts) {
            workload::frame(black_box(&mut self.peer), bursts.burst(self.frame));
            self.frame += 1;
        }
    }
    let bursts = Bursts::new();
    let mut pooling = Seed::new(&bursts, ParticlePool::with_capacity(CAPACITY));
    let mut slab = Seed::new(&bursts, slab::Slab::with_capacity(CAPACITY));
    let mut slotmap = Seed::new(&bursts, SlotMap::with_capacity(CAPACITY));
    let times = interleave::trials(3, trials, |at| match at {
        0 => pooling.frame(&bursts),
        1 => slab.frame(&bursts),
        _ => slotmap.frame(&bursts),
    });
    for (k, name) in ["pooling", "slab", "slotmap"].into_iter().enumerate() {
        println!(
            "seed_frame/{name:<8} {:>7.1} us  {} x slab  {} x slotmap",
            interleave::micros(&times[k]),
            interleave::ratio(&times[k], &times[1]),
            interleave::ratio(&times[k], &times[2]),
        );
    }
}

/// The parallel loops in the interleaved mode: at each occupancy, the kernel on every core
/// (`par_values_mut`, `par_iter_mut`) against rayon over a `Vec`, then each of the four frame
/// loops on a state of its own, one frame a call, against the `Vec`'s loop of the same kind.
fn interleaved_par_frame(trials: usize) {
    for live in LIVE {
        let mut vec = peers(live, f32::INFINITY).vec;
        let (mut pool, mut iter_pool) = (
            peers(live, f32::INFINITY).pool,
            peers(live, f32::INFINITY).pool,
        );
        let times = interleave::trials(3, trials, |at| match at {
            0 => vec_par_kernel(&mut vec),
            1 => pool_par_values_kernel(&mut pool),
            _ => pool_par_iter_kernel(&mut iter_pool),
        });
        for (k, name) in [(1, "pooling_par_values_mut"), (2, "pooling_par_iter_mut")] {
            println!(
                "par_update/{name}/{live:<3} {:>9.1} us  {} x vec_rayon_par_iter_mut",
                interleave::micros(&times[k]),
                interleave::ratio(&times[k], &times[0]),
            );
        }
    }
    for live in LIVE {
        let count = OBJECTS * live / 100;
        let (mut vec, mut par_vec) = (peers(live, LIFE).vec, peers(live, LIFE).vec);
        let (mut pool, mut par_pool) = (peers(live, LIFE).pool, peers(live, LIFE).pool);
        let times = interleave::trials(4, trials, |at| match at {
            0 => vec_frame(&mut vec, count),
            1 => pool_frame(&mut pool, count),
            2 => vec_par_frame(&mut par_vec, count),
            _ => pool_par_frame(&mut par_pool, count),
        });
        for (k, name, of) in [
            (1, "pooling_retain", "vec_retain_mut"),
            (3, "pooling_par_retain", "vec_rayon_par_iter_mut_retain"),
        ] {
            println!(
                "par_frame/{name}/{live:<3} {:>9.1} us  {} x {of}",
                interleave::micros(&times[k]),
                interleave::ratio(&times[k], &times[k - 1]),
            );
        }
    }
}

fn main() {
    if let Ok(trials) = std::env::var("HOLES_TRIALS") {
        let trials = trials.parse().expect("HOLES_TRIALS: a number of trials");
        let only = |name| std::env::var_os(name).is_some();
        let (seed, par) = (only("HOLES_SEED_FRAME_ONLY"), only("HOLES_PAR_FRAME_ONLY"));
        if !seed && !par {
            interleaved(trials);
        }
        if !seed {
            interleaved_par_frame(trials);
        }
        if !par {
            interleaved_seed_frame(trials * 20);
        }
        return;
    }
    benches();
    Criterion::default().configure_from_args().final_summary();
}
