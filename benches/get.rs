//! Get: 10,000 slots at 50% random occupancy; one criterion iteration looks up `LOOKUPS`
//! (10,000) random live keys and sums their `frames_left` (`workload::get`).
//!
//! The positions into the list of live keys come from the shared sequence; each peer resolves
//! them to its own keys before measuring, so that every loop reads its keys from a plain array.
//! For the dense `Vec` and `Vec<Box<_>>` a key is a position, for the seed pools a slot index.

use criterion::{Criterion, criterion_group, criterion_main};
use pooling_benches::particle::{Particle, ParticlePool};
use pooling_benches::peer::{self, Peer};
use pooling_benches::peers::scattered_boxes;
use pooling_benches::seed::{SeedFreeListPool, SeedScanPool};
use pooling_benches::{CAPACITY, Group, Lookups, workload};
use slotmap::{DenseSlotMap, SlotMap};
use std::hint::black_box;

fn get(c: &mut Criterion) {
    let l = &Lookups::new();
    let o = &l.occupancy;
    let mut group = c.benchmark_group("get");
    let g = &mut group;
    bench(
        g,
        l,
        workload::occupy(o, ParticlePool::with_capacity(CAPACITY)),
    );
    bench(
        g,
        l,
        workload::occupy(o, slab::Slab::with_capacity(CAPACITY)),
    );
    bench(g, l, workload::occupy(o, SlotMap::with_capacity(CAPACITY)));
    bench(
        g,
        l,
        workload::occupy(o, DenseSlotMap::with_capacity(CAPACITY)),
    );
    bench(
        g,
        l,
        workload::occupy(o, thunderdome::Arena::with_capacity(CAPACITY)),
    );
    let mut sharded = sharded_slab::Pool::new();
    let live = peer::occupy(o, &mut sharded);
    bench(g, l, (sharded, live));
    bench(g, l, workload::occupy(o, SeedScanPool::new(CAPACITY)));
    bench(g, l, workload::occupy(o, SeedFreeListPool::new(CAPACITY)));
    bench(
        g,
        l,
        workload::dense(o, Vec::<Particle>::with_capacity(CAPACITY)),
    );
    bench(g, l, scattered_boxes(o));
    group.finish();
}

/// Checks that the peer finds the same objects (`workload::lookups`), then measures.
fn bench<P: Peer>(group: &mut Group<'_>, lookups: &Lookups, (peer, live): (P, Vec<P::Key>))
where
    P::Key: Copy,
{
    let keys = workload::lookups(lookups, &peer, &live);
    group.bench_function(P::NAME, |b| {
        b.iter(|| workload::get(black_box(&peer), &keys));
    });
}

criterion_group! {
    name = benches;
    config = pooling_benches::config();
    targets = get
}
criterion_main!(benches);
