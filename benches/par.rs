//! Parallel updates (issue 24), and the full update of issue 23 (one sub-step): a frame of 200,000 32-byte bodies, all live, each taking 16
//! spring sub-steps (compute-bound, as game physics is), sequentially and with rayon, on a `Vec`,
//! in `bevy_ecs` and in a pool; and the dying frame, where 1 % of the bodies die each frame (every
//! body lives 100 frames, their ages staggered) and as many are created again.
//!
//! `cargo bench -p pooling-benches --bench par`; the threads are rayon's global pool and bevy's
//! compute pool, one per core each. Before measuring, every peer runs three frames from the
//! same start and must hold the same bodies, bit for bit, as the sequential `Vec`.

use bevy_ecs::prelude::{Component, World};
use criterion::{Criterion, criterion_group, criterion_main};
use pooling::Pooled;
use pooling_benches::Group;
use rayon::prelude::*;

/// Bodies in the frame, all live.
const BODIES: usize = 200_000;
/// Spring sub-steps per body per frame.
const SUB_STEPS: u32 = 16;
/// Frames a body lives: with ages staggered, 1 % die each frame.
const LIFE: u32 = 100;
/// Bodies per piece of `par_chunks_mut`.
const CHUNK: usize = 2048;

/// 32 bytes: a position, a velocity, an age and a lifetime.
#[derive(Pooled, Component, Clone, Copy, Debug, Default, PartialEq)]
#[pool(size = 200_000)]
struct Body {
    pos: [f32; 3],
    vel: [f32; 3],
    age: u32,
    life: u32,
}

const _: () = assert!(size_of::<Body>() == 32);

impl Body {
    /// The `n`th body of the start: spread over a cube, at rest, its age staggered.
    fn nth(n: usize) -> Self {
        #[expect(clippy::cast_precision_loss, reason = "small whole numbers")]
        let at = |k: usize| ((n * k) % 1000) as f32 / 100.0 - 5.0;
        Self {
            pos: [at(7), at(13), at(31)],
            vel: [0.0; 3],
            #[expect(clippy::cast_possible_truncation, reason = "below LIFE")]
            age: (n % LIFE as usize) as u32,
            life: LIFE,
        }
    }

    /// A body created again where one died.
    fn born(&mut self) {
        *self = Self {
            pos: [1.0, -1.0, 0.5],
            vel: [0.0; 3],
            age: 0,
            life: LIFE,
        };
    }

    /// 16 spring sub-steps: pulled to the origin, the step scaled by `1 / (1 + |v|)`.
    #[inline]
    fn step(&mut self) {
        self.sub_steps(SUB_STEPS);
    }

    /// One spring sub-step: the memory-bound kernel of the full update.
    #[inline]
    fn step_once(&mut self) {
        self.sub_steps(1);
    }

    #[inline]
    fn sub_steps(&mut self, n: u32) {
        const K: f32 = 0.5;
        const DT: f32 = 0.01;
        for _ in 0..n {
            for a in 0..3 {
                self.vel[a] -= K * self.pos[a] * DT;
            }
            let speed = self.vel.iter().map(|v| v * v).sum::<f32>().sqrt();
            let scale = 1.0 / (1.0 + speed);
            for a in 0..3 {
                self.pos[a] += self.vel[a] * DT * scale;
            }
        }
    }

    /// A dying frame's step: true while the body lives.
    #[inline]
    fn step_and_age(&mut self) -> bool {
        self.step();
        self.age += 1;
        self.age < self.life
    }

    fn bits(&self) -> [u32; 8] {
        let [px, py, pz] = self.pos.map(f32::to_bits);
        let [vx, vy, vz] = self.vel.map(f32::to_bits);
        [px, py, pz, vx, vy, vz, self.age, self.life]
    }
}

fn start_vec() -> Vec<Body> {
    (0..BODIES).map(Body::nth).collect()
}

fn start_pool() -> BodyPool {
    let mut pool = BodyPool::new();
    for n in 0..BODIES {
        pool.try_create(|b| *b = Body::nth(n))
            .expect("room for every body");
    }
    pool
}

fn start_world() -> World {
    let mut world = World::new();
    world.spawn_batch((0..BODIES).map(Body::nth));
    world
}

/// The bodies as bit patterns, sorted: what every peer must hold alike.
fn sorted<'a>(bodies: impl Iterator<Item = &'a Body>) -> Vec<[u32; 8]> {
    let mut all: Vec<_> = bodies.map(Body::bits).collect();
    all.sort_unstable();
    all
}

// The frames, one function per peer.

fn vec_frame(bodies: &mut [Body]) {
    bodies.iter_mut().for_each(Body::step);
}

fn vec_par_iter_frame(bodies: &mut [Body]) {
    bodies.par_iter_mut().for_each(Body::step);
}

fn vec_par_chunks_frame(bodies: &mut [Body]) {
    (bodies.par_chunks_mut(CHUNK)).for_each(|chunk| chunk.iter_mut().for_each(Body::step));
}

fn bevy_frame(world: &mut World, query: &mut bevy_ecs::query::QueryState<&mut Body>) {
    query.par_iter_mut(world).for_each(|mut body| body.step());
}

fn pool_frame(pool: &mut BodyPool) {
    pool.values_mut().for_each(Body::step);
}

fn pool_par_frame(pool: &mut BodyPool) {
    pool.par_values_mut().for_each(Body::step);
}

fn vec_frame_once(bodies: &mut [Body]) {
    for body in bodies {
        body.step_once();
    }
}

fn pool_frame_once(pool: &mut BodyPool) {
    for body in pool.values_mut() {
        body.step_once();
    }
}

fn pool_for_each_once(pool: &mut BodyPool) {
    pool.values_mut().for_each(Body::step_once);
}

/// The bodies that died, created again at the end.
fn vec_refill(bodies: &mut Vec<Body>) {
    let dead = BODIES - bodies.len();
    bodies.extend((0..dead).map(|_| {
        let mut body = Body::default();
        body.born();
        body
    }));
}

fn vec_dying(bodies: &mut Vec<Body>) {
    bodies.retain_mut(Body::step_and_age);
    vec_refill(bodies);
}

/// rayon has no `par_retain` for a `Vec`: the steps in parallel, then a sequential `retain`.
fn vec_par_dying(bodies: &mut Vec<Body>) {
    bodies.par_iter_mut().for_each(|b| {
        b.step_and_age();
    });
    bodies.retain(|b| b.age < b.life);
    vec_refill(bodies);
}

fn pool_refill(pool: &mut BodyPool) {
    while pool.try_create(Body::born).is_ok() {}
}

fn pool_dying(pool: &mut BodyPool) {
    pool.retain(Body::step_and_age);
    pool_refill(pool);
}

fn pool_par_dying(pool: &mut BodyPool) {
    pool.par_retain(Body::step_and_age);
    pool_refill(pool);
}

/// Three frames of each peer from the same start hold the same bodies.
fn check() {
    let frames = 3;
    let run_vec = |frame: fn(&mut Vec<Body>)| {
        let mut bodies = start_vec();
        (0..frames).for_each(|_| frame(&mut bodies));
        sorted(bodies.iter())
    };
    let run_pool = |frame: fn(&mut BodyPool)| {
        let mut pool = start_pool();
        (0..frames).for_each(|_| frame(&mut pool));
        assert_eq!(pool.len(), BODIES);
        sorted(pool.values())
    };
    let expected = run_vec(|b| vec_frame(b));
    assert_eq!(run_vec(|b| vec_par_iter_frame(b)), expected);
    assert_eq!(run_vec(|b| vec_par_chunks_frame(b)), expected);
    assert_eq!(run_pool(pool_frame), expected);
    assert_eq!(run_pool(pool_par_frame), expected);
    let mut world = start_world();
    let mut query = world.query::<&mut Body>();
    (0..frames).for_each(|_| bevy_frame(&mut world, &mut query));
    assert_eq!(sorted(query.iter(&world)), expected);

    let expected = run_vec(|b| vec_frame_once(b));
    assert_eq!(run_pool(pool_frame_once), expected);
    assert_eq!(run_pool(pool_for_each_once), expected);

    let expected = run_vec(vec_dying);
    assert_eq!(run_vec(vec_par_dying), expected);
    assert_eq!(run_pool(pool_dying), expected);
    assert_eq!(run_pool(pool_par_dying), expected);
}

fn par(c: &mut Criterion) {
    bevy_tasks::ComputeTaskPool::get_or_init(bevy_tasks::TaskPool::default);
    check();

    let mut group = c.benchmark_group("par_frame");
    bench(&mut group, "vec", start_vec(), |b| vec_frame(b));
    bench(&mut group, "vec_rayon_par_iter_mut", start_vec(), |b| {
        vec_par_iter_frame(b);
    });
    bench(&mut group, "vec_rayon_par_chunks_mut", start_vec(), |b| {
        vec_par_chunks_frame(b);
    });
    let mut world = start_world();
    let query = world.query::<&mut Body>();
    bench(
        &mut group,
        "bevy_ecs_par_iter_mut",
        (world, query),
        |(world, query)| bevy_frame(world, query),
    );
    bench(&mut group, "pooling_values_mut", start_pool(), pool_frame);
    bench(
        &mut group,
        "pooling_par_values_mut",
        start_pool(),
        pool_par_frame,
    );
    group.finish();

    // The same bodies, one sub-step: bound by memory rather than arithmetic.
    let mut group = c.benchmark_group("full_update_one_sub_step");
    bench(&mut group, "vec", start_vec(), |b| vec_frame_once(b));
    bench(
        &mut group,
        "pooling_values_mut",
        start_pool(),
        pool_frame_once,
    );
    bench(
        &mut group,
        "pooling_values_mut_for_each",
        start_pool(),
        pool_for_each_once,
    );
    group.finish();

    let mut group = c.benchmark_group("par_dying_frame");
    bench(&mut group, "vec_retain", start_vec(), vec_dying);
    bench(
        &mut group,
        "vec_rayon_par_iter_mut_retain",
        start_vec(),
        vec_par_dying,
    );
    bench(&mut group, "pooling_retain", start_pool(), pool_dying);
    bench(
        &mut group,
        "pooling_par_retain",
        start_pool(),
        pool_par_dying,
    );
    group.finish();
}

/// One frame per iteration, on the peer's state as the frames before left it.
fn bench<P>(group: &mut Group<'_>, name: &str, mut peer: P, mut frame: impl FnMut(&mut P)) {
    group.bench_function(name, |b| b.iter(|| frame(&mut peer)));
}

criterion_group! {
    name = benches;
    config = pooling_benches::config();
    targets = par
}
criterion_main!(benches);
