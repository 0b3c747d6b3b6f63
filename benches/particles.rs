//! Particle frame: the seed's particle system in 10,000 slots. One criterion iteration is one
//! frame (`workload::frame`): spawn a burst of `BURST` (200) particles from the shared sequence
//! (lifetimes 20..60; what does not fit is skipped), animate every live particle (`x += vx`,
//! `y += vy`, `frames_left -= 1`) and release the dead.
//!
//! Every peer runs `WARM_UP_FRAMES` (100) frames before measuring, reaching the steady state
//! (about 8,000 live), and must then hold exactly the same particles as the dense `Vec`.

use criterion::{Criterion, criterion_group, criterion_main};
use pooling_benches::particle::{Particle, ParticlePool};
use pooling_benches::seed::{SeedFreeListPool, SeedScanPool};
use pooling_benches::{Bursts, CAPACITY, Container, Group, workload};
use slotmap::{DenseSlotMap, SlotMap};

fn particles(c: &mut Criterion) {
    let bursts = &Bursts::new();
    let mut group = c.benchmark_group("particles");
    let g = &mut group;
    bench(g, bursts, ParticlePool::with_capacity(CAPACITY));
    bench(g, bursts, slab::Slab::with_capacity(CAPACITY));
    bench(g, bursts, SlotMap::with_capacity(CAPACITY));
    bench(g, bursts, DenseSlotMap::with_capacity(CAPACITY));
    bench(g, bursts, thunderdome::Arena::with_capacity(CAPACITY));
    bench(g, bursts, SeedScanPool::new(CAPACITY));
    bench(g, bursts, SeedFreeListPool::new(CAPACITY));
    bench(g, bursts, Vec::<Particle>::with_capacity(CAPACITY));
    bench(g, bursts, Vec::<Box<Particle>>::with_capacity(CAPACITY));
    group.finish();
}

/// Warms the peer up and checks it (`workload::warm_up`), then measures one frame per
/// iteration, each with the next burst of the sequence.
fn bench<P: Container>(group: &mut Group<'_>, bursts: &Bursts, mut peer: P) {
    let mut n = workload::warm_up(bursts, &mut peer);
    group.bench_function(P::NAME, |b| {
        b.iter(|| {
            workload::frame(&mut peer, bursts.burst(n));
            n += 1;
        });
    });
    assert!(peer.len() <= CAPACITY, "{}: over capacity", P::NAME);
}

criterion_group! {
    name = benches;
    config = pooling_benches::config();
    targets = particles
}
criterion_main!(benches);
