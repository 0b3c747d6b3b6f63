//! Iterate: 10,000 slots, all created, then a fixed random subset released, leaving 10%, 50% or
//! 90% live; one criterion iteration sums `frames_left` over every live object (`workload::sum`).
//!
//! The sum is of an integer field: a sum of floats is a chain of dependent additions (about
//! 0.8 ns each here), a floor that every dense peer would hit and that would hide the cost of the
//! container, which is what this measures. Benchmark ids are `iterate/<peer>/<percent live>`.

use criterion::{BenchmarkId, Criterion, criterion_group, criterion_main};
use pooling_benches::particle::{Particle, ParticlePool};
use pooling_benches::peers::scattered_boxes;
use pooling_benches::seed::{SeedFreeListPool, SeedScanPool};
use pooling_benches::{CAPACITY, Container, Group, Occupancy, workload};
use slotmap::{DenseSlotMap, SlotMap};
use std::hint::black_box;

fn iterate(c: &mut Criterion) {
    let mut group = c.benchmark_group("iterate");
    let g = &mut group;
    for percent in [10, 50, 90] {
        let o = &Occupancy::new(percent);
        bench(
            g,
            o,
            workload::occupy(o, ParticlePool::with_capacity(CAPACITY)).0,
        );
        bench(
            g,
            o,
            workload::occupy(o, slab::Slab::with_capacity(CAPACITY)).0,
        );
        bench(
            g,
            o,
            workload::occupy(o, SlotMap::with_capacity(CAPACITY)).0,
        );
        bench(
            g,
            o,
            workload::occupy(o, DenseSlotMap::with_capacity(CAPACITY)).0,
        );
        bench(
            g,
            o,
            workload::occupy(o, thunderdome::Arena::with_capacity(CAPACITY)).0,
        );
        bench(g, o, workload::occupy(o, SeedScanPool::new(CAPACITY)).0);
        bench(g, o, workload::occupy(o, SeedFreeListPool::new(CAPACITY)).0);
        bench(
            g,
            o,
            workload::dense(o, Vec::<Particle>::with_capacity(CAPACITY)).0,
        );
        bench(g, o, workload::occupied(o, scattered_boxes(o).0));
    }
    group.finish();
}

/// Measures a peer that `workload::occupied` checked.
fn bench<P: Container>(group: &mut Group<'_>, occupancy: &Occupancy, peer: P) {
    let id = BenchmarkId::new(P::NAME, occupancy.percent);
    group.bench_function(id, move |b| b.iter(|| workload::sum(black_box(&peer))));
}

criterion_group! {
    name = benches;
    config = pooling_benches::config();
    targets = iterate
}
criterion_main!(benches);
