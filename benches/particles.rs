//! Particle frame: the seed's particle system in 10,000 slots. One criterion iteration is one
//! frame: spawn a burst of `BURST` (200) particles from the shared sequence (lifetimes 20..60;
//! what does not fit is skipped), animate every live particle (`x += vx`, `y += vy`,
//! `frames_left -= 1`) and release the dead.
//!
//! Every peer runs `WARM_UP_FRAMES` (100) frames before measuring, reaching the steady state
//! (about 8,000 live), and must then hold exactly the same particles as the others.

mod common;

use common::particle::{Particle, ParticlePool};
use common::seed::{SeedFreeListPool, SeedScanPool};
use common::{Bursts, CAPACITY, Group, Spawn, WARM_UP_FRAMES, sum_x};
use criterion::{Criterion, criterion_group, criterion_main};
use slotmap::{DefaultKey, DenseSlotMap, SlotMap};
use std::hint::black_box;

fn particles(c: &mut Criterion) {
    let bursts = Bursts::new();
    let mut group = c.benchmark_group("particles");
    let mut peers = Peers {
        bursts: &bursts,
        after_warm_up: None,
    };

    let mut pool = ParticlePool::with_capacity(CAPACITY);
    peers.bench(&mut group, "pooled", &mut pool, frame_pooled, |pool| {
        (pool.len(), sum_x(pool.iter().map(|(_, p)| p)))
    });

    let mut slab = slab::Slab::with_capacity(CAPACITY);
    peers.bench(&mut group, "slab", &mut slab, frame_slab, |slab| {
        (slab.len(), sum_x(slab.iter().map(|(_, p)| p)))
    });

    let mut map = SlotMap::with_capacity(CAPACITY);
    peers.bench(&mut group, "slotmap", &mut map, frame_slotmap, |map| {
        (map.len(), sum_x(map.values()))
    });

    let mut map = DenseSlotMap::with_capacity(CAPACITY);
    peers.bench(
        &mut group,
        "dense_slotmap",
        &mut map,
        frame_dense_slotmap,
        |map| (map.len(), sum_x(map.values())),
    );

    let mut arena = thunderdome::Arena::with_capacity(CAPACITY);
    peers.bench(
        &mut group,
        "thunderdome",
        &mut arena,
        frame_thunderdome,
        |arena| (arena.len(), sum_x(arena.iter().map(|(_, p)| p))),
    );

    let mut pool = SeedScanPool::new(CAPACITY);
    peers.bench(
        &mut group,
        "seed_scan",
        &mut pool,
        frame_seed_scan,
        |pool| (pool.len(), sum_x(pool.iter())),
    );

    let mut pool = SeedFreeListPool::new(CAPACITY);
    peers.bench(
        &mut group,
        "seed_free_list",
        &mut pool,
        frame_seed_free_list,
        |pool| (pool.len(), sum_x(pool.iter())),
    );

    let mut vec = Vec::with_capacity(CAPACITY);
    peers.bench(&mut group, "vec", &mut vec, frame_vec, |vec| {
        (vec.len(), sum_x(vec))
    });

    let mut boxes = Vec::with_capacity(CAPACITY);
    peers.bench(&mut group, "box", &mut boxes, frame_box, |boxes| {
        (boxes.len(), sum_x(boxes.iter().map(|p| &**p)))
    });

    group.finish();
}

struct Peers<'a> {
    bursts: &'a Bursts,
    /// The first peer's live count and sum of `x` after warming up: every peer must match it.
    after_warm_up: Option<(usize, f64)>,
}

impl Peers<'_> {
    /// Warms the peer up outside the timing, checks its state (`state`: live count and sum of
    /// `x`) against the first peer's, then measures one `frame` per iteration, each frame with
    /// the next burst of the sequence.
    fn bench<C>(
        &mut self,
        group: &mut Group<'_>,
        peer: &str,
        container: &mut C,
        frame: impl Fn(&mut C, &[Spawn]),
        state: impl Fn(&C) -> (usize, f64),
    ) {
        let bursts = self.bursts;
        for n in 0..WARM_UP_FRAMES {
            frame(container, bursts.burst(n));
        }
        let warm = state(container);
        let expected = *self.after_warm_up.get_or_insert(warm);
        assert_eq!(warm, expected, "{peer}: (live, sum of x) after warming up");
        assert!(warm.0 > CAPACITY / 2, "{peer}: not warmed up: {warm:?}");
        let mut n = WARM_UP_FRAMES;
        group.bench_function(peer, |b| {
            b.iter(|| {
                frame(container, bursts.burst(n));
                n += 1;
            });
        });
        let (live, _) = state(container);
        assert!(live <= CAPACITY, "{peer}: over capacity");
    }
}

// ---------------------------------------------------------------------------------------------

#[inline(never)]
fn frame_pooled(pool: &mut ParticlePool, burst: &[Spawn]) {
    for spawn in burst {
        let Ok(handle) = pool.create(|p| spawn.write(p)) else {
            break; // full: the rest of the burst does not fit
        };
        black_box(handle);
    }
    pool.retain(|p| !p.animate());
}

#[inline(never)]
fn frame_slab(slab: &mut slab::Slab<Particle>, burst: &[Spawn]) {
    for spawn in burst {
        if slab.len() == CAPACITY {
            break;
        }
        black_box(slab.insert(spawn.particle()));
    }
    slab.retain(|_, p| !p.animate());
}

#[inline(never)]
fn frame_slotmap(map: &mut SlotMap<DefaultKey, Particle>, burst: &[Spawn]) {
    for spawn in burst {
        if map.len() == CAPACITY {
            break;
        }
        black_box(map.insert(spawn.particle()));
    }
    map.retain(|_, p| !p.animate());
}

#[inline(never)]
fn frame_dense_slotmap(map: &mut DenseSlotMap<DefaultKey, Particle>, burst: &[Spawn]) {
    for spawn in burst {
        if map.len() == CAPACITY {
            break;
        }
        black_box(map.insert(spawn.particle()));
    }
    map.retain(|_, p| !p.animate());
}

#[inline(never)]
fn frame_thunderdome(arena: &mut thunderdome::Arena<Particle>, burst: &[Spawn]) {
    for spawn in burst {
        if arena.len() == CAPACITY {
            break;
        }
        black_box(arena.insert(spawn.particle()));
    }
    arena.retain(|_, p| !p.animate());
}

#[inline(never)]
fn frame_seed_scan(pool: &mut SeedScanPool, burst: &[Spawn]) {
    for spawn in burst {
        let Some(index) = pool.create(|p| spawn.write(p)) else {
            break;
        };
        black_box(index);
    }
    pool.animate();
}

#[inline(never)]
fn frame_seed_free_list(pool: &mut SeedFreeListPool, burst: &[Spawn]) {
    for spawn in burst {
        let Some(index) = pool.create(|p| spawn.write(p)) else {
            break;
        };
        black_box(index);
    }
    pool.animate();
}

#[inline(never)]
fn frame_vec(vec: &mut Vec<Particle>, burst: &[Spawn]) {
    for spawn in burst {
        if vec.len() == CAPACITY {
            break;
        }
        vec.push(spawn.particle());
    }
    vec.retain_mut(|p| !p.animate());
}

#[inline(never)]
#[expect(
    clippy::vec_box,
    reason = "the `box` peer: one heap allocation per object"
)]
fn frame_box(boxes: &mut Vec<Box<Particle>>, burst: &[Spawn]) {
    for spawn in burst {
        if boxes.len() == CAPACITY {
            break;
        }
        boxes.push(Box::new(spawn.particle()));
    }
    boxes.retain_mut(|p| !p.animate());
}

criterion_group! {
    name = benches;
    config = common::config();
    targets = particles
}
criterion_main!(benches);
