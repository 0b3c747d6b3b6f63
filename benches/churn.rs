//! Churn: 1024 slots held at 512 live; each step releases one random live object and creates
//! one in its place. One criterion iteration is `CHURN_STEPS` (1024) steps (`workload::churn`).
//! `churn_24`: the same steps on a 24-byte object (`small`), for pooling, slab and slotmap.
//!
//! `CHURN_TRIALS=N cargo bench -p pooling-benches --bench churn`: instead of criterion, N trials
//! of pooling, slab and slotmap side by side (`interleave`), each trial one iteration of each in
//! a shuffled order, every peer's time over slab's and slotmap's in the same trial.

use criterion::{Criterion, criterion_group};
use pooling_benches::particle::{Particle, ParticlePool};
use pooling_benches::peers::Boxes;
use pooling_benches::seed::{SeedFreeListPool, SeedScanPool};
use pooling_benches::small::{self, Mote, MotePool, SmallPeer};
use pooling_benches::{CHURN_CAPACITY, Churn, Group, Release, interleave, workload};
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

/// The interleaved mode (`CHURN_TRIALS=N`), for both objects.
fn interleaved(trials: usize) {
    /// One peer's churn from its checked steady state.
    fn peer<P: Release>(churn: &Churn, peer: P) -> impl FnMut() + use<'_, P> {
        let (mut peer, mut live) = workload::churned(churn, peer);
        move || workload::churn(&mut peer, &mut live, &churn.steps)
    }
    fn small_peer<P: SmallPeer>(churn: &Churn, peer: P) -> impl FnMut() + use<'_, P> {
        let (mut peer, mut live) = small::churned(churn, peer);
        move || small::churn(&mut peer, &mut live, &churn.steps)
    }
    fn report(group: &str, mut runs: [Box<dyn FnMut() + '_>; 3], trials: usize) {
        let times = interleave::trials(3, trials, |at| runs[at]());
        for (k, name) in ["pooling", "slab", "slotmap"].into_iter().enumerate() {
            println!(
                "{group}/{name:<8} {:>6.2} us  {} x slab  {} x slotmap",
                interleave::micros(&times[k]),
                interleave::ratio(&times[k], &times[1]),
                interleave::ratio(&times[k], &times[2]),
            );
        }
    }
    let churn = Churn::new();
    let runs: [Box<dyn FnMut()>; 3] = [
        Box::new(peer(&churn, ParticlePool::new())),
        Box::new(peer(&churn, slab::Slab::with_capacity(CHURN_CAPACITY))),
        Box::new(peer(&churn, SlotMap::with_capacity(CHURN_CAPACITY))),
    ];
    report("churn", runs, trials);
    let runs: [Box<dyn FnMut()>; 3] = [
        Box::new(small_peer(&churn, MotePool::new())),
        Box::new(small_peer(
            &churn,
            slab::Slab::<Mote>::with_capacity(CHURN_CAPACITY),
        )),
        Box::new(small_peer(
            &churn,
            SlotMap::<_, Mote>::with_capacity(CHURN_CAPACITY),
        )),
    ];
    report("churn_24", runs, trials);
}

criterion_group! {
    name = benches;
    config = pooling_benches::config();
    targets = churn
}

fn main() {
    if let Ok(trials) = std::env::var("CHURN_TRIALS") {
        interleaved(trials.parse().expect("CHURN_TRIALS: a number of trials"));
        return;
    }
    benches();
    Criterion::default().configure_from_args().final_summary();
}
