//! The benchmarks of `pooling` against its peers, as a library that the criterion benches (time)
//! and the callgrind suite (instructions) share: the object types, the seed's two pools, the
//! random workloads (generated once from a fixed seed, so that every peer sees exactly the same
//! sequence), the [`Peer`] and [`Reuse`] traits that every peer implements once, and one generic
//! loop per workload in [`workload`].

// A bench library, not an API: its checks panic by design when peers differ, its workloads are
// built by `new` from the fixed seed, and `len` exists for those checks.
#![allow(
    clippy::missing_panics_doc,
    clippy::new_without_default,
    clippy::len_without_is_empty
)]

pub mod interleave;
pub mod particle;
pub mod peer;
pub mod peers;
pub mod reuse;
pub mod seed;
pub mod small;
pub mod workload;

pub use peer::{Container, Peer, Release};
pub use reuse::Reuse;

use criterion::measurement::WallTime;
use criterion::{BenchmarkGroup, Criterion};
use fastrand::Rng;
use particle::Particle;
use std::time::Duration;

/// The criterion settings of every bench: the full suite runs in a few minutes, and
/// `cargo bench -- --quick` (read by `configure_from_args` in `criterion_group!`) in less.
pub fn config() -> Criterion {
    Criterion::default()
        .sample_size(50)
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(3))
}

/// A workload's criterion group: one benchmark per peer.
pub type Group<'a> = BenchmarkGroup<'a, WallTime>;

/// Every workload's random sequence comes from this seed.
pub const SEED: u64 = 0x5EED_0B1E;

/// What `create` writes into a new particle: every peer gets the same values.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Spawn {
    pub frames_left: u32,
    pub x: f64,
    pub y: f64,
    pub vx: f64,
    pub vy: f64,
}

impl Spawn {
    /// Lifetime 20..60 frames; positions are whole numbers and velocities quarters, so sums of
    /// `x` are exact in any order and every peer's checksum matches bit for bit.
    pub fn random(rng: &mut Rng) -> Self {
        Self {
            frames_left: rng.u32(20..60),
            x: f64::from(rng.i32(-1000..1000)),
            y: f64::from(rng.i32(-1000..1000)),
            vx: f64::from(rng.i32(-8..=8)) / 4.0,
            vy: f64::from(rng.i32(-8..=8)) / 4.0,
        }
    }

    /// Writes every field: for a pool's blank (or, for peers that do not reset, stale) object.
    #[inline]
    pub fn write(&self, p: &mut Particle) {
        p.frames_left = self.frames_left;
        p.x = self.x;
        p.y = self.y;
        p.vx = self.vx;
        p.vy = self.vy;
    }

    /// A new particle by value, for the peers that insert values.
    #[inline]
    pub fn particle(&self) -> Particle {
        Particle {
            frames_left: self.frames_left,
            x: self.x,
            y: self.y,
            vx: self.vx,
            vy: self.vy,
        }
    }
}

fn spawns(rng: &mut Rng, n: usize) -> Vec<Spawn> {
    (0..n).map(|_| Spawn::random(rng)).collect()
}

/// The sum of `x`, the checksum every workload compares across peers.
pub fn sum_x<'a>(particles: impl IntoIterator<Item = &'a Particle>) -> f64 {
    particles.into_iter().map(|p| p.x).sum()
}

// ---------------------------------------------------------------------------------------------
// churn

/// Slots of every churn container.
pub const CHURN_CAPACITY: usize = 1024;
/// Objects live at all times: 50% of `CHURN_CAPACITY`.
pub const CHURN_LIVE: usize = 512;
/// Steps per criterion iteration.
pub const CHURN_STEPS: usize = 1024;

/// One churn step: release the object whose key is at `position` in the list of live keys,
/// create one from `spawn`, and store its key at `position`.
#[derive(Clone, Copy, Debug)]
pub struct Step {
    pub position: usize,
    pub spawn: Spawn,
}

pub struct Churn {
    /// The `CHURN_LIVE` objects created before measuring.
    pub initial: Vec<Spawn>,
    /// The `CHURN_STEPS` steps of one iteration (the same steps every iteration).
    pub steps: Vec<Step>,
}

impl Churn {
    pub fn new() -> Self {
        let mut rng = Rng::with_seed(SEED);
        let initial = spawns(&mut rng, CHURN_LIVE);
        let steps = (0..CHURN_STEPS)
            .map(|_| Step {
                position: rng.usize(..CHURN_LIVE),
                spawn: Spawn::random(&mut rng),
            })
            .collect();
        Self { initial, steps }
    }

    /// The checksum of the live objects after `iterations` iterations, for a peer that keeps
    /// key `i` at position `i` (every peer but the dense `Vec`, which moves objects around).
    pub fn expected_sum(&self, iterations: usize) -> f64 {
        let mut live = self.initial.clone();
        for _ in 0..iterations {
            for step in &self.steps {
                live[step.position] = step.spawn;
            }
        }
        live.iter().map(|s| s.x).sum()
    }
}

// ---------------------------------------------------------------------------------------------
// iterate and get

/// Slots of the iterate, get and particle-frame containers.
pub const CAPACITY: usize = 10_000;

/// `CAPACITY` objects created in order, then a fixed random subset released, leaving
/// `percent`% live.
pub struct Occupancy {
    pub percent: usize,
    /// One per slot, created in slot order.
    pub spawns: Vec<Spawn>,
    /// Slots released after creating all, in random order.
    pub released: Vec<usize>,
    /// Whether each slot stays live.
    pub live: Vec<bool>,
}

impl Occupancy {
    pub fn new(percent: usize) -> Self {
        let mut rng = Rng::with_seed(SEED ^ percent as u64);
        let spawns = spawns(&mut rng, CAPACITY);
        let mut order: Vec<usize> = (0..CAPACITY).collect();
        rng.shuffle(&mut order);
        let released = order[..CAPACITY * (100 - percent) / 100].to_vec();
        let mut live = vec![true; CAPACITY];
        for &slot in &released {
            live[slot] = false;
        }
        Self {
            percent,
            spawns,
            released,
            live,
        }
    }

    /// The live objects' spawns, in slot order: the contents of the dense peers.
    pub fn live_spawns(&self) -> impl Iterator<Item = &Spawn> {
        self.spawns
            .iter()
            .zip(&self.live)
            .filter_map(|(spawn, &live)| live.then_some(spawn))
    }

    pub fn live_count(&self) -> usize {
        self.live.iter().filter(|&&live| live).count()
    }

    pub fn expected_sum(&self) -> u64 {
        self.live_spawns().map(|s| u64::from(s.frames_left)).sum()
    }
}

/// Lookups per criterion iteration of the get workload.
pub const LOOKUPS: usize = 10_000;

/// The get workload: the 50% occupancy, and `LOOKUPS` random positions into the list of live
/// keys (in slot order), the same for every peer.
pub struct Lookups {
    pub occupancy: Occupancy,
    pub positions: Vec<usize>,
}

impl Lookups {
    pub fn new() -> Self {
        let occupancy = Occupancy::new(50);
        let mut rng = Rng::with_seed(SEED ^ 0x6E7);
        let live = occupancy.live_count();
        let positions = (0..LOOKUPS).map(|_| rng.usize(..live)).collect();
        Self {
            occupancy,
            positions,
        }
    }

    /// The peer's key for each lookup, given its live keys in slot order: resolved before
    /// measuring, so the loop reads keys from a plain array for every peer.
    pub fn keys<K: Copy>(&self, live_keys: &[K]) -> Vec<K> {
        assert_eq!(live_keys.len(), self.occupancy.live_count());
        self.positions.iter().map(|&i| live_keys[i]).collect()
    }

    pub fn expected_sum(&self) -> u64 {
        let live: Vec<&Spawn> = self.occupancy.live_spawns().collect();
        self.positions
            .iter()
            .map(|&i| u64::from(live[i].frames_left))
            .sum()
    }
}

// ---------------------------------------------------------------------------------------------
// particle frame

/// Particles spawned per frame (the burst); what does not fit is skipped.
pub const BURST: usize = 200;
/// Frames run before measuring, to reach the steady state (about 8,000 live).
pub const WARM_UP_FRAMES: usize = 100;
/// The bursts repeat after this many frames.
const BURST_CYCLE: usize = 128;

pub struct Bursts {
    spawns: Vec<Spawn>,
}

impl Bursts {
    pub fn new() -> Self {
        let mut rng = Rng::with_seed(SEED ^ 0xF4A3E);
        Self {
            spawns: spawns(&mut rng, BURST * BURST_CYCLE),
        }
    }

    /// The burst of frame `frame`.
    pub fn burst(&self, frame: usize) -> &[Spawn] {
        let start = (frame % BURST_CYCLE) * BURST;
        &self.spawns[start..start + BURST]
    }
}
