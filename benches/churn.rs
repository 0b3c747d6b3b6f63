//! Churn: 1024 slots held at 512 live; each step releases one random live object and creates
//! one in its place. One criterion iteration is `CHURN_STEPS` (1024) steps (`workload::churn`).
//! `churn_24`: the same steps on a 24-byte object (`small`), for pooling, slab and slotmap.

use criterion::{Criterion, criterion_group, criterion_main};
use pooling_benches::particle::{Particle, ParticlePool};
use pooling_benches::peers::Boxes;
use pooling_benches::seed::{SeedFreeListPool, SeedScanPool};
use pooling_benches::small::{self, Mote, MotePool, SmallPeer};
use pooling_benches::{CHURN_CAPACITY, Churn, Group, Release, workload};
use slotmap::{DenseSlotMap, SlotMap};

fn churn(c: &mut Criterion) {
    let churn = Churn::new();
    let mut group = c.benchmark_group("churn");
    let g = &mut group;
    bench(g, &churn, ParticlePool::new());
    bench(g, &churn, slab::Slab::with_capacity(CHURN_CAPACITY));
    bench(g, &churn, SlotMap::with_capacity(CHURN_CAPACITY));
    bench(g, &churn, DenseSlotMap::with_capacity(CHURN_CAPACITY));
    bench(g, &churn, thunderdome::Arena::with_capacity(CHURN_CAPACITY));
    bench(g, &churn, sharded_slab::Pool::<Particle>::new());
    let lifeguard = lifeguard::Pool::<Particle>::with_size(CHURN_CAPACITY);
    bench(g, &churn, &lifeguard);
    let object_pool = object_pool::Pool::new(CHURN_CAPACITY, Particle::default);
    bench(g, &churn, &object_pool);
    bench(g, &churn, Boxes);
    bench(g, &churn, SeedScanPool::new(CHURN_CAPACITY));
    bench(g, &churn, SeedFreeListPool::new(CHURN_CAPACITY));
    group.finish();

    let mut group = c.benchmark_group("churn_24");
    let g = &mut group;
    bench_small(g, &churn, MotePool::new());
    bench_small(g, &churn, slab::Slab::<Mote>::with_capacity(CHURN_CAPACITY));
    bench_small(g, &churn, SlotMap::<_, Mote>::with_capacity(CHURN_CAPACITY));
    bench_small(
        g,
        &churn,
        DenseSlotMap::<_, Mote>::with_capacity(CHURN_CAPACITY),
    );
    group.finish();
}

/// The small churn (`small::churn`), checked and measured as `bench` does the particle's.
fn bench_small<P: SmallPeer>(group: &mut Group<'_>, churn: &Churn, peer: P) {
    let (mut peer, mut live) = small::churned(churn, peer);
    group.bench_function(P::NAME, |b| {
        b.iter(|| small::churn(&mut peer, &mut live, &churn.steps));
    });
}

/// Checks the peer outside the timing (`workload::churned`), then measures.
fn bench<P: Release>(group: &mut Group<'_>, churn: &Churn, peer: P) {
    let (mut peer, mut live) = workload::churned(churn, peer);
    group.bench_function(P::NAME, |b| {
        b.iter(|| workload::churn(&mut peer, &mut live, &churn.steps));
    });
}

criterion_group! {
    name = benches;
    config = pooling_benches::config();
    targets = churn
}
criterion_main!(benches);
