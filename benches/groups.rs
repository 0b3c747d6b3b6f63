//! Groups (issue 31): the loops a user writes over 200,000 live 32-byte springs (8 `f32`s),
//! each beside the same loop over a `Vec<Spring>` in the same run, and the plain churn loop
//! beside slotmap's and slab's.
//!
//! - `kernel`: one pass of `v += (o - x) * k; x += v * dt; scale = 1 / (1 + |v|)`, which the
//!   compiler vectorizes across springs over a slice;
//! - `sub_steps`: sixteen such passes a spring per frame (compute-bound), sequential and
//!   with rayon;
//! - `burst`: 2,000 creates into the 2,000 holes that releases at random positions left, after
//!   an update that touched every spring, against 2,000 `Vec::push`es after the same update
//!   (only the creates and pushes are timed, per object);
//! - `burst_empty`: 2,000 creates by one `create_many` into a fresh pool of 2,000 slots (its
//!   free list in index order, as benches/callgrind.rs's `burst`), against 2,000 `Vec::push`es
//!   into a `Vec` with room (each made before the clock starts); with `BURST_TRIALS=N`, `N`
//!   trials of the two alternated in one process instead, their ratio's median and quartiles;
//! - `frame`: the seed's particle frame at 200,000 springs: one pass of the kernel, ageing, the
//!   1 % that reach `LIFE` culled, and as many born again; a `Vec` with rayon (`par_iter_mut`,
//!   `retain`, `extend`) against the pool (`par_retain`, `create_many`), and both sequential;
//! - `churn_plain`: 1,024 slots half full, a 24-byte object: release then create at a random
//!   position, as a user writes it, against slotmap's `remove` + `insert` and slab's.
//!
//! `cargo bench -p pooling-benches --bench groups`. Before measuring, every peer runs the same
//! frames from the same start and must hold the same springs, bit for bit.

use criterion::{Criterion, criterion_group, criterion_main};
use pooling::{Handle, Pooled};
use pooling_benches::{Group, interleave};
use rayon::prelude::*;
use std::hint::black_box;
use std::time::{Duration, Instant};

/// Springs in every frame.
const SPRINGS: usize = 200_000;
/// Springs in the large burst's pool: 64 MiB of them, more than the caches hold.
const BIG: usize = 2_000_000;
/// Holes a burst fills, and pushes the `Vec` makes.
const BURST: usize = 2_000;
/// Frames a spring lives: with ages staggered, 1 % die each frame.
const LIFE: f32 = 100.0;
const K: f32 = 0.5;
const DT: f32 = 0.01;

/// 32 bytes: a position, a velocity, the origin it is pulled to, a scale and an age.
#[derive(Pooled, Clone, Copy, Debug, Default, PartialEq)]
#[pool(size = 200_000)]
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

const _: () = assert!(size_of::<Spring>() == 32);

impl Spring {
    /// The `n`th spring of the start.
    fn nth(n: usize) -> Self {
        #[expect(clippy::cast_precision_loss, reason = "small whole numbers")]
        let at = |k: usize| ((n * k) % 1000) as f32 / 100.0 - 5.0;
        Self {
            x: at(7),
            y: at(13),
            ox: at(31),
            oy: at(37),
            ..Self::default()
        }
    }

    /// One pass of the kernel.
    #[inline]
    fn step(&mut self) {
        self.vx += (self.ox - self.x) * K;
        self.vy += (self.oy - self.y) * K;
        self.x += self.vx * DT;
        self.y += self.vy * DT;
        self.scale = 1.0 / (1.0 + (self.vx * self.vx + self.vy * self.vy).sqrt());
        self.age += DT;
    }

    /// A frame of the seed's particle system: one pass, a frame older; true while it lives.
    #[inline]
    fn live_frame(&mut self) -> bool {
        self.step();
        self.scale += 1.0;
        self.scale < LIFE
    }

    /// The `n`th spring born in a frame, its age (in `scale`, which the frame keeps) zero.
    fn born(n: usize) -> Self {
        Self {
            scale: 0.0,
            ..Self::nth(n)
        }
    }

    /// The `n`th spring of a frame's start: ages staggered so that 1 % die each frame.
    fn aged(n: usize) -> Self {
        #[expect(clippy::cast_precision_loss, reason = "below 100")]
        let age = (n % 100) as f32;
        Self {
            scale: age,
            ..Self::nth(n)
        }
    }

    /// Sixteen passes.
    #[inline]
    fn sub_steps(&mut self) {
        for _ in 0..16 {
            self.step();
        }
    }

    fn bits(&self) -> [u32; 8] {
        [
            self.x, self.y, self.vx, self.vy, self.ox, self.oy, self.scale, self.age,
        ]
        .map(f32::to_bits)
    }
}

fn start_vec() -> Vec<Spring> {
    start_vec_of(SPRINGS)
}

fn start_vec_of(springs: usize) -> Vec<Spring> {
    (0..springs).map(Spring::nth).collect()
}

fn start_pool() -> SpringPool {
    start_pool_of(SPRINGS)
}

fn start_pool_of(springs: usize) -> SpringPool {
    let mut pool = SpringPool::with_capacity(springs);
    for n in 0..springs {
        pool.try_create(|s| *s = Spring::nth(n))
            .expect("room for every spring");
    }
    pool
}

fn sorted<'a>(springs: impl Iterator<Item = &'a Spring>) -> Vec<[u32; 8]> {
    let mut all: Vec<_> = springs.map(Spring::bits).collect();
    all.sort_unstable();
    all
}

// One function per loop, as a user writes it.

fn vec_kernel(springs: &mut [Spring]) {
    for s in springs {
        s.step();
    }
}

fn pool_for_each(pool: &mut SpringPool) {
    pool.values_mut().for_each(Spring::step);
}

fn pool_for(pool: &mut SpringPool) {
    for s in pool.values_mut() {
        s.step();
    }
}

fn pool_runs(pool: &mut SpringPool) {
    for run in pool.runs_mut() {
        for s in run {
            s.step();
        }
    }
}

fn vec_sub_steps(springs: &mut [Spring]) {
    springs.iter_mut().for_each(Spring::sub_steps);
}

fn vec_par_sub_steps(springs: &mut [Spring]) {
    springs.par_iter_mut().for_each(Spring::sub_steps);
}

fn pool_sub_steps(pool: &mut SpringPool) {
    pool.values_mut().for_each(Spring::sub_steps);
}

fn pool_for_sub_steps(pool: &mut SpringPool) {
    for s in pool.values_mut() {
        s.sub_steps();
    }
}

fn pool_par_sub_steps(pool: &mut SpringPool) {
    pool.par_values_mut().for_each(Spring::sub_steps);
}

fn frame_vec() -> Vec<Spring> {
    (0..SPRINGS).map(Spring::aged).collect()
}

fn frame_pool() -> SpringPool {
    let mut pool = SpringPool::new();
    pool.create_many(SPRINGS, |n, s| *s = Spring::aged(n));
    pool
}

fn vec_frame(springs: &mut Vec<Spring>) {
    springs.retain_mut(Spring::live_frame);
    let born = SPRINGS - springs.len();
    springs.extend((0..born).map(Spring::born));
}

/// rayon has no `par_retain` for a `Vec`: the frame in parallel, then a sequential `retain`.
fn vec_par_frame(springs: &mut Vec<Spring>) {
    springs.par_iter_mut().for_each(|s| {
        s.live_frame();
    });
    springs.retain(|s| s.scale < LIFE);
    let born = SPRINGS - springs.len();
    springs.extend((0..born).map(Spring::born));
}

fn pool_frame(pool: &mut SpringPool) {
    pool.retain(Spring::live_frame);
    pool.create_many(SPRINGS - pool.len(), |n, s| *s = Spring::born(n));
}

fn pool_par_frame(pool: &mut SpringPool) {
    pool.par_retain(Spring::live_frame);
    pool.create_many(SPRINGS - pool.len(), |n, s| *s = Spring::born(n));
}

/// Three frames of each loop from the same start hold the same springs.
fn check() {
    let run_vec = |frame: fn(&mut [Spring])| {
        let mut springs = start_vec();
        (0..3).for_each(|_| frame(&mut springs));
        sorted(springs.iter())
    };
    let run_pool = |frame: fn(&mut SpringPool)| {
        let mut pool = start_pool();
        (0..3).for_each(|_| frame(&mut pool));
        sorted(pool.values())
    };
    let expected = run_vec(vec_kernel);
    for frame in [pool_for_each, pool_for, pool_runs] {
        assert_eq!(run_pool(frame), expected);
    }
    let expected = run_vec(vec_sub_steps);
    assert_eq!(run_vec(vec_par_sub_steps), expected);
    for frame in [pool_sub_steps, pool_for_sub_steps, pool_par_sub_steps] {
        assert_eq!(run_pool(frame), expected);
    }
    let mut springs = frame_vec();
    (0..3).for_each(|_| vec_frame(&mut springs));
    let expected = sorted(springs.iter());
    let mut springs = frame_vec();
    (0..3).for_each(|_| vec_par_frame(&mut springs));
    assert_eq!(sorted(springs.iter()), expected);
    for frame in [pool_frame, pool_par_frame] {
        let mut pool = frame_pool();
        (0..3).for_each(|_| frame(&mut pool));
        assert_eq!(sorted(pool.values()), expected);
    }
}

/// The positions a burst frees: `BURST` distinct ones, spread at random over the springs.
fn holes(springs: usize) -> Vec<usize> {
    let mut rng = fastrand::Rng::with_seed(pooling_benches::SEED);
    let mut all: Vec<usize> = (0..springs).collect();
    rng.shuffle(&mut all);
    all.truncate(BURST);
    all
}

/// `iters` bursts, each after releasing the springs at `holes` and an update of every spring;
/// only `burst`, which creates as many springs as there are holes and records their handles
/// in order, is timed.
fn pool_bursts(
    iters: u64,
    holes: &[usize],
    springs: usize,
    mut burst: impl FnMut(&mut SpringPool, usize, &mut Vec<Handle<Spring>>),
) -> Duration {
    let mut pool = start_pool_of(springs);
    let mut handles: Vec<Handle<Spring>> = pool.iter().map(|(h, _)| h).collect();
    let mut made = Vec::with_capacity(holes.len());
    let mut timed = Duration::ZERO;
    for _ in 0..iters {
        for &at in holes {
            pool.release(handles[at]).expect("live");
        }
        pool_for_each(&mut pool);
        made.clear();
        let start = Instant::now();
        burst(&mut pool, holes.len(), &mut made);
        timed += start.elapsed();
        assert_eq!(made.len(), holes.len(), "a hole for each");
        for (&at, &handle) in holes.iter().zip(&made) {
            handles[at] = handle;
        }
    }
    timed
}

/// A burst of `create`s, one per hole.
fn create_loop(pool: &mut SpringPool, count: usize, made: &mut Vec<Handle<Spring>>) {
    for n in 0..count {
        made.push(pool.create(|s| *s = Spring::nth(n)).expect("a hole"));
    }
}

/// A burst of one `create_many`.
fn create_many(pool: &mut SpringPool, count: usize, made: &mut Vec<Handle<Spring>>) {
    pool.create_many_with_handle(count, |n, handle, s| {
        *s = Spring::nth(n);
        made.push(handle);
    });
}

/// The same for a `Vec`: as many springs removed from its end, the update, then the pushes.
fn vec_bursts(iters: u64, len: usize) -> Duration {
    let mut springs = start_vec_of(len);
    let mut timed = Duration::ZERO;
    for _ in 0..iters {
        springs.truncate(len - BURST);
        vec_kernel(&mut springs);
        timed += timed_pushes(&mut springs);
    }
    timed
}

/// A burst as a user writes it with a `Vec`: `BURST` pushes, timed.
fn timed_pushes(springs: &mut Vec<Spring>) -> Duration {
    let start = Instant::now();
    for n in 0..BURST {
        springs.push(Spring::nth(n));
    }
    let timed = start.elapsed();
    black_box(&springs);
    timed
}

/// A 24-byte object, as a user's churn loop has it.
#[derive(Pooled, Clone, Copy, Debug, Default)]
#[pool(size = 1024)]
struct Blob {
    id: u64,
    dx: f32,
    ttl: u32,
    tag: u64,
}

const _: () = assert!(size_of::<Blob>() == 24);

/// Churn steps per iteration, at positions drawn once.
const STEPS: usize = 1024;

fn churn_positions() -> Vec<usize> {
    let mut rng = fastrand::Rng::with_seed(pooling_benches::SEED);
    (0..STEPS).map(|_| rng.usize(..512)).collect()
}

fn updates(c: &mut Criterion) {
    check();

    let mut group = c.benchmark_group("kernel");
    bench(&mut group, "vec_for", start_vec(), |s| vec_kernel(s));
    bench(&mut group, "pooling_for_each", start_pool(), pool_for_each);
    bench(&mut group, "pooling_for", start_pool(), pool_for);
    bench(&mut group, "pooling_runs_mut", start_pool(), pool_runs);
    group.finish();

    let mut group = c.benchmark_group("sub_steps");
    bench(&mut group, "vec_for_each", start_vec(), |s| {
        vec_sub_steps(s);
    });
    bench(&mut group, "pooling_for_each", start_pool(), pool_sub_steps);
    bench(&mut group, "pooling_for", start_pool(), pool_for_sub_steps);
    bench(&mut group, "vec_rayon_par_iter_mut", start_vec(), |s| {
        vec_par_sub_steps(s);
    });
    bench(
        &mut group,
        "pooling_par_values_mut",
        start_pool(),
        pool_par_sub_steps,
    );
    group.finish();

    let mut group = c.benchmark_group("frame");
    bench(&mut group, "vec_retain", frame_vec(), vec_frame);
    bench(&mut group, "pooling_retain", frame_pool(), pool_frame);
    bench(
        &mut group,
        "vec_rayon_par_iter_mut_retain",
        frame_vec(),
        vec_par_frame,
    );
    bench(
        &mut group,
        "pooling_par_retain",
        frame_pool(),
        pool_par_frame,
    );
    group.finish();
}

fn bursts(c: &mut Criterion) {
    if let Some(trials) = std::env::var("BURST_TRIALS")
        .ok()
        .and_then(|n| n.parse().ok())
    {
        interleaved_empty_bursts(trials);
        return;
    }
    for (name, springs) in [("burst", SPRINGS), ("burst_2m", BIG)] {
        let holes = holes(springs);
        let mut group = c.benchmark_group(name);
        group.bench_function("vec_push", |b| {
            b.iter_custom(|iters| vec_bursts(iters, springs));
        });
        group.bench_function("pooling_create", |b| {
            b.iter_custom(|iters| pool_bursts(iters, &holes, springs, create_loop));
        });
        group.bench_function("pooling_create_many", |b| {
            b.iter_custom(|iters| pool_bursts(iters, &holes, springs, create_many));
        });
        group.finish();
    }
    let mut group = c.benchmark_group("burst_empty");
    group.bench_function("vec_push", |b| b.iter_custom(empty_vec_bursts));
    group.bench_function("pooling_create_many", |b| {
        b.iter_custom(empty_pool_bursts);
    });
    group.finish();
}

/// `iters` bursts of `create_many` into a fresh pool of `BURST` slots (built before the clock
/// starts), its free list in index order: as benches/callgrind.rs's `burst` case.
fn empty_pool_bursts(iters: u64) -> Duration {
    let mut timed = Duration::ZERO;
    for _ in 0..iters {
        let mut pool = SpringPool::with_capacity(BURST);
        let start = Instant::now();
        let made = pool.create_many(BURST, |n, s| *s = Spring::nth(n));
        timed += start.elapsed();
        assert_eq!(made, BURST);
        black_box(&pool);
    }
    timed
}

/// The same for a `Vec` with room for them, made before the clock starts.
fn empty_vec_bursts(iters: u64) -> Duration {
    let mut timed = Duration::ZERO;
    for _ in 0..iters {
        timed += timed_pushes(&mut Vec::with_capacity(BURST));
    }
    timed
}

/// With `BURST_TRIALS=N`, instead of the criterion groups: `N` trials of one `burst_empty` of
/// each loop, in alternating order; the median and quartiles of their ratio.
fn interleaved_empty_bursts(trials: usize) {
    let (mut pool, mut vec) = (Vec::with_capacity(trials), Vec::with_capacity(trials));
    for trial in 0..trials {
        if trial % 2 == 0 {
            pool.push(empty_pool_bursts(1).as_secs_f64());
            vec.push(empty_vec_bursts(1).as_secs_f64());
        } else {
            vec.push(empty_vec_bursts(1).as_secs_f64());
            pool.push(empty_pool_bursts(1).as_secs_f64());
        }
    }
    println!(
        "burst_empty, {trials} interleaved trials: create_many / Vec::push {}",
        interleave::ratio(&pool, &vec)
    );
}

fn churn_plain(c: &mut Criterion) {
    let positions = churn_positions();
    let mut group = c.benchmark_group("churn_plain");
    {
        let mut pool = BlobPool::new();
        let mut live: Vec<_> = (0..512)
            .map(|i| pool.create(|b| b.id = i).unwrap())
            .collect();
        group.bench_function("pooling", |b| {
            b.iter(|| {
                for (i, &at) in positions.iter().enumerate() {
                    pool.release(black_box(live[at])).unwrap();
                    live[at] = pool
                        .create(|b| {
                            b.id = i as u64;
                            b.dx = 1.0;
                            b.ttl = 5;
                        })
                        .unwrap();
                }
            });
        });
    }
    {
        let mut map = slotmap::SlotMap::<slotmap::DefaultKey, Blob>::with_capacity(1024);
        let mut live: Vec<_> = (0..512)
            .map(|i| {
                map.insert(Blob {
                    id: i,
                    ..Blob::default()
                })
            })
            .collect();
        group.bench_function("slotmap", |b| {
            b.iter(|| {
                for (i, &at) in positions.iter().enumerate() {
                    map.remove(black_box(live[at]));
                    live[at] = map.insert(Blob {
                        id: i as u64,
                        dx: 1.0,
                        ttl: 5,
                        tag: 0,
                    });
                }
            });
        });
    }
    {
        let mut slab = slab::Slab::<Blob>::with_capacity(1024);
        let mut live: Vec<_> = (0..512)
            .map(|i| {
                slab.insert(Blob {
                    id: i,
                    ..Blob::default()
                })
            })
            .collect();
        group.bench_function("slab", |b| {
            b.iter(|| {
                for (i, &at) in positions.iter().enumerate() {
                    slab.remove(black_box(live[at]));
                    live[at] = slab.insert(Blob {
                        id: i as u64,
                        dx: 1.0,
                        ttl: 5,
                        tag: 0,
                    });
                }
            });
        });
    }
    group.finish();
}

/// One frame per iteration, on the peer's state as the frames before left it.
fn bench<P>(group: &mut Group<'_>, name: &str, mut peer: P, mut frame: impl FnMut(&mut P)) {
    group.bench_function(name, |b| b.iter(|| frame(&mut peer)));
}

criterion_group! {
    name = benches;
    config = pooling_benches::config();
    targets = updates, bursts, churn_plain
}
criterion_main!(benches);
