//! Get: 10,000 slots at 50% random occupancy; one criterion iteration looks up `LOOKUPS`
//! (10,000) random live keys and sums their `frames_left`: an integer, so that no chain of
//! dependent float additions sets a floor under every peer (see `iterate.rs`).
//!
//! The positions into the list of live keys come from the shared sequence; each peer resolves
//! them to its own keys before measuring, so that every loop reads its keys from a plain array.
//! For the dense `Vec` and `Vec<Box<_>>` a key is a position, for the seed pools a slot index.

mod common;

use common::particle::{Particle, ParticlePool};
use common::seed::{SeedFreeListPool, SeedScanPool};
use common::{Group, Lookups, occupied};
use criterion::{Criterion, criterion_group, criterion_main};
use pooled::Handle;
use slotmap::{DefaultKey, DenseSlotMap, SlotMap};
use std::hint::black_box;

fn get(c: &mut Criterion) {
    let lookups = Lookups::new();
    let occupancy = &lookups.occupancy;
    let peers = Peers {
        expected: lookups.expected_sum(),
    };
    let mut group = c.benchmark_group("get");

    let (pool, live) = occupied::pooled(occupancy);
    let keys = lookups.keys(&live);
    peers.bench(&mut group, "pooled", || get_pooled(black_box(&pool), &keys));

    let (slab, live) = occupied::slab(occupancy);
    let keys = lookups.keys(&live);
    peers.bench(&mut group, "slab", || get_slab(black_box(&slab), &keys));

    let (map, live) = occupied::slotmap(occupancy);
    let keys = lookups.keys(&live);
    peers.bench(&mut group, "slotmap", || {
        get_slotmap(black_box(&map), &keys)
    });

    let (map, live) = occupied::dense_slotmap(occupancy);
    let keys = lookups.keys(&live);
    peers.bench(&mut group, "dense_slotmap", || {
        get_dense_slotmap(black_box(&map), &keys)
    });

    let (arena, live) = occupied::thunderdome(occupancy);
    let keys = lookups.keys(&live);
    peers.bench(&mut group, "thunderdome", || {
        get_thunderdome(black_box(&arena), &keys)
    });

    let (pool, live) = occupied::sharded_slab(occupancy);
    let keys = lookups.keys(&live);
    peers.bench(&mut group, "sharded_slab", || {
        get_sharded_slab(black_box(&pool), &keys)
    });

    let (pool, live) = occupied::seed_scan(occupancy);
    let keys = lookups.keys(&live);
    peers.bench(&mut group, "seed_scan", || {
        get_seed_scan(black_box(&pool), &keys)
    });

    let (pool, live) = occupied::seed_free_list(occupancy);
    let keys = lookups.keys(&live);
    peers.bench(&mut group, "seed_free_list", || {
        get_seed_free_list(black_box(&pool), &keys)
    });

    let vec = occupied::vec(occupancy);
    let keys = lookups.keys(&(0..vec.len()).collect::<Vec<_>>());
    peers.bench(&mut group, "vec", || get_vec(black_box(&vec), &keys));

    let boxes = occupied::boxes(occupancy);
    let keys = lookups.keys(&(0..boxes.len()).collect::<Vec<_>>());
    peers.bench(&mut group, "box", || get_box(black_box(&boxes), &keys));

    group.finish();
}

struct Peers {
    expected: u64,
}

impl Peers {
    /// Checks once, outside the timing, that the peer finds the same objects, then measures.
    fn bench(&self, group: &mut Group<'_>, peer: &str, mut sum: impl FnMut() -> u64) {
        assert_eq!(sum(), self.expected, "{peer}: sum of frames_left");
        group.bench_function(peer, |b| b.iter(&mut sum));
    }
}

#[inline(never)]
fn get_pooled(pool: &ParticlePool, keys: &[Handle<Particle>]) -> u64 {
    let mut sum = 0u64;
    for &key in keys {
        if let Some(p) = pool.get(black_box(key)) {
            sum += u64::from(p.frames_left);
        }
    }
    black_box(sum)
}

#[inline(never)]
fn get_slab(slab: &slab::Slab<Particle>, keys: &[usize]) -> u64 {
    let mut sum = 0u64;
    for &key in keys {
        if let Some(p) = slab.get(black_box(key)) {
            sum += u64::from(p.frames_left);
        }
    }
    black_box(sum)
}

#[inline(never)]
fn get_slotmap(map: &SlotMap<DefaultKey, Particle>, keys: &[DefaultKey]) -> u64 {
    let mut sum = 0u64;
    for &key in keys {
        if let Some(p) = map.get(black_box(key)) {
            sum += u64::from(p.frames_left);
        }
    }
    black_box(sum)
}

#[inline(never)]
fn get_dense_slotmap(map: &DenseSlotMap<DefaultKey, Particle>, keys: &[DefaultKey]) -> u64 {
    let mut sum = 0u64;
    for &key in keys {
        if let Some(p) = map.get(black_box(key)) {
            sum += u64::from(p.frames_left);
        }
    }
    black_box(sum)
}

#[inline(never)]
fn get_thunderdome(arena: &thunderdome::Arena<Particle>, keys: &[thunderdome::Index]) -> u64 {
    let mut sum = 0u64;
    for &key in keys {
        if let Some(p) = arena.get(black_box(key)) {
            sum += u64::from(p.frames_left);
        }
    }
    black_box(sum)
}

#[inline(never)]
fn get_sharded_slab(pool: &sharded_slab::Pool<Particle>, keys: &[usize]) -> u64 {
    let mut sum = 0u64;
    for &key in keys {
        // A guard: it counts the reference (atomically) while held.
        if let Some(p) = pool.get(black_box(key)) {
            sum += u64::from(p.frames_left);
        }
    }
    black_box(sum)
}

#[inline(never)]
fn get_seed_scan(pool: &SeedScanPool, keys: &[usize]) -> u64 {
    let mut sum = 0u64;
    for &key in keys {
        if let Some(p) = pool.get(black_box(key)) {
            sum += u64::from(p.frames_left);
        }
    }
    black_box(sum)
}

#[inline(never)]
fn get_seed_free_list(pool: &SeedFreeListPool, keys: &[usize]) -> u64 {
    let mut sum = 0u64;
    for &key in keys {
        if let Some(p) = pool.get(black_box(key)) {
            sum += u64::from(p.frames_left);
        }
    }
    black_box(sum)
}

#[inline(never)]
fn get_vec(vec: &[Particle], keys: &[usize]) -> u64 {
    let mut sum = 0u64;
    for &key in keys {
        if let Some(p) = vec.get(black_box(key)) {
            sum += u64::from(p.frames_left);
        }
    }
    black_box(sum)
}

#[inline(never)]
fn get_box(boxes: &[Box<Particle>], keys: &[usize]) -> u64 {
    let mut sum = 0u64;
    for &key in keys {
        if let Some(p) = boxes.get(black_box(key)) {
            sum += u64::from(p.frames_left);
        }
    }
    black_box(sum)
}

criterion_group! {
    name = benches;
    config = common::config();
    targets = get
}
criterion_main!(benches);
