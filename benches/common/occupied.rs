//! Containers of `CAPACITY` particles at an `Occupancy`, for the iterate and get workloads: every
//! peer creates the same objects in slot order, then releases the same random subset. Each
//! builder returns the container and the keys of its live objects in slot order.

use super::particle::{Particle, ParticlePool};
use super::seed::{SeedFreeListPool, SeedScanPool};
use super::{CAPACITY, Occupancy, Spawn};
use pooled::Handle;
use slotmap::{DefaultKey, DenseSlotMap, SlotMap};

/// Creates every object, releases the released ones, and returns the live keys in slot order.
fn occupy<C, K: Copy>(
    occupancy: &Occupancy,
    container: &mut C,
    mut create: impl FnMut(&mut C, &Spawn) -> K,
    mut release: impl FnMut(&mut C, K),
) -> Vec<K> {
    let keys: Vec<K> = (occupancy.spawns.iter())
        .map(|spawn| create(container, spawn))
        .collect();
    for &slot in &occupancy.released {
        release(container, keys[slot]);
    }
    (keys.iter().zip(&occupancy.live))
        .filter_map(|(&key, &live)| live.then_some(key))
        .collect()
}

pub(crate) fn pooled(occupancy: &Occupancy) -> (ParticlePool, Vec<Handle<Particle>>) {
    let mut pool = ParticlePool::with_capacity(CAPACITY);
    let keys = occupy(
        occupancy,
        &mut pool,
        |pool, s| pool.create(|p| s.write(p)).unwrap(),
        |pool, h| pool.release(h).unwrap(),
    );
    assert_eq!(pool.len(), occupancy.live_count());
    (pool, keys)
}

pub(crate) fn slab(occupancy: &Occupancy) -> (slab::Slab<Particle>, Vec<usize>) {
    let mut slab = slab::Slab::with_capacity(CAPACITY);
    let keys = occupy(
        occupancy,
        &mut slab,
        |slab, s| slab.insert(s.particle()),
        |slab, k| {
            slab.remove(k);
        },
    );
    assert_eq!(slab.len(), occupancy.live_count());
    (slab, keys)
}

pub(crate) fn slotmap(occupancy: &Occupancy) -> (SlotMap<DefaultKey, Particle>, Vec<DefaultKey>) {
    let mut map = SlotMap::with_capacity(CAPACITY);
    let keys = occupy(
        occupancy,
        &mut map,
        |map, s| map.insert(s.particle()),
        |map, k| {
            map.remove(k).unwrap();
        },
    );
    assert_eq!(map.len(), occupancy.live_count());
    (map, keys)
}

pub(crate) fn dense_slotmap(
    occupancy: &Occupancy,
) -> (DenseSlotMap<DefaultKey, Particle>, Vec<DefaultKey>) {
    let mut map = DenseSlotMap::with_capacity(CAPACITY);
    let keys = occupy(
        occupancy,
        &mut map,
        |map, s| map.insert(s.particle()),
        |map, k| {
            map.remove(k).unwrap();
        },
    );
    assert_eq!(map.len(), occupancy.live_count());
    (map, keys)
}

pub(crate) fn thunderdome(
    occupancy: &Occupancy,
) -> (thunderdome::Arena<Particle>, Vec<thunderdome::Index>) {
    let mut arena = thunderdome::Arena::with_capacity(CAPACITY);
    let keys = occupy(
        occupancy,
        &mut arena,
        |arena, s| arena.insert(s.particle()),
        |arena, k| {
            arena.remove(k).unwrap();
        },
    );
    assert_eq!(arena.len(), occupancy.live_count());
    (arena, keys)
}

pub(crate) fn sharded_slab(occupancy: &Occupancy) -> (sharded_slab::Pool<Particle>, Vec<usize>) {
    let mut pool = sharded_slab::Pool::new();
    let keys = occupy(
        occupancy,
        &mut pool,
        |pool, s| pool.create_with(|p| s.write(p)).unwrap(),
        |pool, k| assert!(pool.clear(k)),
    );
    (pool, keys)
}

pub(crate) fn seed_scan(occupancy: &Occupancy) -> (SeedScanPool, Vec<usize>) {
    let mut pool = SeedScanPool::new(CAPACITY);
    let keys = occupy(
        occupancy,
        &mut pool,
        |pool, s| pool.create(|p| s.write(p)).unwrap(),
        SeedScanPool::release,
    );
    assert_eq!(pool.len(), occupancy.live_count());
    (pool, keys)
}

pub(crate) fn seed_free_list(occupancy: &Occupancy) -> (SeedFreeListPool, Vec<usize>) {
    let mut pool = SeedFreeListPool::new(CAPACITY);
    let keys = occupy(
        occupancy,
        &mut pool,
        |pool, s| pool.create(|p| s.write(p)).unwrap(),
        SeedFreeListPool::release,
    );
    assert_eq!(pool.len(), occupancy.live_count());
    (pool, keys)
}

/// The dense peer holds only the live objects, in slot order; its keys are positions.
pub(crate) fn vec(occupancy: &Occupancy) -> Vec<Particle> {
    let mut vec = Vec::with_capacity(CAPACITY);
    vec.extend(occupancy.live_spawns().map(Spawn::particle));
    vec
}

/// One allocation per object, made in slot order, then the released ones freed: the live boxes
/// sit among the holes the released ones left.
#[expect(
    clippy::vec_box,
    reason = "the `box` peer: one heap allocation per object"
)]
pub(crate) fn boxes(occupancy: &Occupancy) -> Vec<Box<Particle>> {
    let mut all: Vec<Option<Box<Particle>>> = (occupancy.spawns.iter())
        .map(|s| Some(Box::new(s.particle())))
        .collect();
    for &slot in &occupancy.released {
        all[slot] = None;
    }
    all.into_iter().flatten().collect()
}
