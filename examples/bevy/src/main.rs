//! A `bevy_ecs` app that keeps its particles in a pool, as a `Resource` (the `bevy` feature of
//! `pooling`: the pool type itself, no newtype): one system spawns them,
//! one animates them and releases the dead, and two systems that only read the pool run in
//! parallel on bevy's multi-threaded executor after them. It runs a fixed number of frames,
//! checks the readers' figures against the writers', and exits.
//!
//! `cargo run --release -p pooling-bevy [-- FRAMES]`
#![allow(
    clippy::needless_pass_by_value,
    reason = "bevy hands systems their parameters by value"
)]

use bevy_ecs::prelude::*;
use bevy_ecs::schedule::MultiThreadedExecutor;
use pooling::Pooled;
use std::collections::HashSet;
use std::sync::Mutex;
use std::thread::{self, ThreadId};

#[derive(Pooled)]
#[pool(size = 4096)]
struct Spark {
    pos: [f32; 2],
    vel: [f32; 2],
    frames_left: u32,
}

/// What the writing systems did.
#[derive(Resource, Default)]
struct Totals {
    frames: u32,
    spawned: usize,
    died: usize,
    /// The number of live sparks after each frame's animation, summed over the frames.
    live_summed: usize,
}

/// What the first reader saw.
#[derive(Resource, Default)]
struct Census {
    frames: u32,
    seen: usize,
}

/// What the second reader saw.
#[derive(Resource, Default)]
struct Extent {
    frames: u32,
    farthest: f32,
}

/// The threads the readers ran on.
static READER_THREADS: Mutex<Option<HashSet<ThreadId>>> = Mutex::new(None);

fn ran_on_this_thread() {
    let mut threads = READER_THREADS.lock().unwrap();
    threads
        .get_or_insert_with(HashSet::new)
        .insert(thread::current().id());
}

fn spawn(mut sparks: ResMut<SparkPool>, mut totals: ResMut<Totals>) {
    totals.frames += 1;
    let frame = totals.frames;
    for k in 0..64u32 {
        let seed = frame
            .wrapping_mul(2_654_435_761)
            .wrapping_add(k.wrapping_mul(40_503));
        #[expect(clippy::cast_precision_loss, reason = "small whole numbers")]
        let unit = |bits: u32| (seed >> bits & 0xff) as f32 / 128.0 - 1.0;
        let spawned = sparks.try_create(|s| {
            s.pos = [0.0, 0.0];
            s.vel = [unit(0), unit(8)];
            s.frames_left = 20 + seed % 40;
        });
        if spawned.is_ok() {
            totals.spawned += 1;
        }
    }
}

// ANCHOR: systems
fn animate(mut sparks: ResMut<SparkPool>, mut totals: ResMut<Totals>) {
    let before = sparks.len();
    sparks.retain(|s| {
        s.vel[1] -= 0.01;
        s.pos[0] += s.vel[0];
        s.pos[1] += s.vel[1];
        s.frames_left -= 1;
        s.frames_left > 0
    });
    totals.died += before - sparks.len();
    totals.live_summed += sparks.len();
}

/// Reads the pool only: counts the live sparks.
fn census(sparks: Res<SparkPool>, mut census: ResMut<Census>) {
    ran_on_this_thread();
    census.frames += 1;
    census.seen += sparks.values().count();
}
// ANCHOR_END: systems

/// Reads the pool only: how far the sparks have flown.
fn extent(sparks: Res<SparkPool>, mut extent: ResMut<Extent>) {
    ran_on_this_thread();
    extent.frames += 1;
    let farthest = (sparks.values())
        .map(|s| s.pos[0].hypot(s.pos[1]))
        .fold(0.0, f32::max);
    extent.farthest = extent.farthest.max(farthest);
}

fn main() {
    let frames: u32 = std::env::args()
        .nth(1)
        .map_or(300, |arg| arg.parse().expect("FRAMES is a number"));
    let mut world = World::new();
    // The pool is a resource as it is: `pooling`'s `bevy` feature.
    world.insert_resource(SparkPool::new());
    world.init_resource::<Totals>();
    world.init_resource::<Census>();
    world.init_resource::<Extent>();

    let mut schedule = Schedule::default();
    schedule.set_executor(MultiThreadedExecutor::new());
    schedule.add_systems((spawn, animate).chain());
    // Both only read the pool and write resources of their own: bevy may run them at once.
    schedule.add_systems((census, extent).after(animate));

    for _ in 0..frames {
        schedule.run(&mut world);
    }

    let totals = world.resource::<Totals>();
    let (census, extent) = (world.resource::<Census>(), world.resource::<Extent>());
    let sparks = world.resource::<SparkPool>();
    assert_eq!(totals.frames, frames);
    assert_eq!(
        (census.frames, extent.frames),
        (frames, frames),
        "the readers ran every frame"
    );
    assert_eq!(
        census.seen, totals.live_summed,
        "the census saw what the writers left"
    );
    assert_eq!(sparks.len(), totals.spawned - totals.died);
    assert!(totals.died > 0 && !sparks.is_empty());
    assert!(extent.farthest > 0.0);
    let threads = READER_THREADS
        .lock()
        .unwrap()
        .as_ref()
        .map_or(0, HashSet::len);
    println!(
        "{frames} frames: {} spawned, {} died, {} live; the readers saw {} sparks in all \
         (farthest {:.1}) on {threads} thread(s)",
        totals.spawned,
        totals.died,
        sparks.len(),
        census.seen,
        extent.farthest,
    );
    println!("{sparks:?}");
}
