//! Iterate: 10,000 slots, all created, then a fixed random subset released, leaving 10%, 50% or
//! 90% live; one criterion iteration sums `frames_left` over every live object.
//!
//! The sum is of an integer field: a sum of floats is a chain of dependent additions (about
//! 0.8 ns each here), a floor that every dense peer would hit and that would hide the cost of the
//! container, which is what this measures.
//!
//! Benchmark ids are `iterate/<peer>/<percent live>`. The dense `Vec` holds only the live
//! objects; `box` is a `Vec<Box<Particle>>` of the live ones, allocated in slot order.

mod common;

use common::particle::{Particle, ParticlePool};
use common::seed::{SeedFreeListPool, SeedScanPool};
use common::{Group, Occupancy, occupied};
use criterion::{BenchmarkId, Criterion, criterion_group, criterion_main};
use slotmap::{DefaultKey, DenseSlotMap, SlotMap};
use std::hint::black_box;

fn iterate(c: &mut Criterion) {
    let mut group = c.benchmark_group("iterate");
    for percent in [10, 50, 90] {
        let occupancy = Occupancy::new(percent);
        let peers = Peers {
            occupancy: &occupancy,
            expected: occupancy.expected_sum(),
        };

        let (pool, _) = occupied::pooled(&occupancy);
        peers.bench(&mut group, "pooled", || sum_pooled(black_box(&pool)));
        let (slab, _) = occupied::slab(&occupancy);
        peers.bench(&mut group, "slab", || sum_slab(black_box(&slab)));
        let (map, _) = occupied::slotmap(&occupancy);
        peers.bench(&mut group, "slotmap", || sum_slotmap(black_box(&map)));
        let (map, _) = occupied::dense_slotmap(&occupancy);
        peers.bench(&mut group, "dense_slotmap", || {
            sum_dense_slotmap(black_box(&map))
        });
        let (arena, _) = occupied::thunderdome(&occupancy);
        peers.bench(&mut group, "thunderdome", || {
            sum_thunderdome(black_box(&arena))
        });
        let (pool, _) = occupied::seed_scan(&occupancy);
        peers.bench(&mut group, "seed_scan", || sum_seed_scan(black_box(&pool)));
        let (pool, _) = occupied::seed_free_list(&occupancy);
        peers.bench(&mut group, "seed_free_list", || {
            sum_seed_free_list(black_box(&pool))
        });
        let vec = occupied::vec(&occupancy);
        peers.bench(&mut group, "vec", || sum_vec(black_box(&vec)));
        let boxes = occupied::boxes(&occupancy);
        peers.bench(&mut group, "box", || sum_box(black_box(&boxes)));
    }
    group.finish();
}

struct Peers<'a> {
    occupancy: &'a Occupancy,
    expected: u64,
}

impl Peers<'_> {
    /// Checks once, outside the timing, that the peer sums the same live objects, then measures.
    fn bench(&self, group: &mut Group<'_>, peer: &str, mut sum: impl FnMut() -> u64) {
        let percent = self.occupancy.percent;
        assert_eq!(
            sum(),
            self.expected,
            "{peer} at {percent}%: sum of frames_left"
        );
        group.bench_function(BenchmarkId::new(peer, percent), |b| b.iter(&mut sum));
    }
}

#[inline(never)]
fn sum_pooled(pool: &ParticlePool) -> u64 {
    let mut sum = 0u64;
    for p in pool.values() {
        sum += u64::from(p.frames_left);
    }
    black_box(sum)
}

#[inline(never)]
fn sum_slab(slab: &slab::Slab<Particle>) -> u64 {
    let mut sum = 0u64;
    for (_, p) in slab {
        sum += u64::from(p.frames_left);
    }
    black_box(sum)
}

#[inline(never)]
fn sum_slotmap(map: &SlotMap<DefaultKey, Particle>) -> u64 {
    let mut sum = 0u64;
    for p in map.values() {
        sum += u64::from(p.frames_left);
    }
    black_box(sum)
}

#[inline(never)]
fn sum_dense_slotmap(map: &DenseSlotMap<DefaultKey, Particle>) -> u64 {
    let mut sum = 0u64;
    for p in map.values() {
        sum += u64::from(p.frames_left);
    }
    black_box(sum)
}

#[inline(never)]
fn sum_thunderdome(arena: &thunderdome::Arena<Particle>) -> u64 {
    let mut sum = 0u64;
    for (_, p) in arena {
        sum += u64::from(p.frames_left);
    }
    black_box(sum)
}

#[inline(never)]
fn sum_seed_scan(pool: &SeedScanPool) -> u64 {
    let mut sum = 0u64;
    for p in pool.iter() {
        sum += u64::from(p.frames_left);
    }
    black_box(sum)
}

#[inline(never)]
fn sum_seed_free_list(pool: &SeedFreeListPool) -> u64 {
    let mut sum = 0u64;
    for p in pool.iter() {
        sum += u64::from(p.frames_left);
    }
    black_box(sum)
}

#[inline(never)]
fn sum_vec(vec: &[Particle]) -> u64 {
    let mut sum = 0u64;
    for p in vec {
        sum += u64::from(p.frames_left);
    }
    black_box(sum)
}

#[inline(never)]
fn sum_box(boxes: &[Box<Particle>]) -> u64 {
    let mut sum = 0u64;
    for p in boxes {
        sum += u64::from(p.frames_left);
    }
    black_box(sum)
}

criterion_group! {
    name = benches;
    config = common::config();
    targets = iterate
}
criterion_main!(benches);
