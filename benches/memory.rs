//! Memory: for each peer, the heap bytes per slot of a container of 10,000 `Particle`s, built
//! with its `with_capacity`/`new` and filled (10,000 live), and the size of its key or handle.
//! Not a criterion bench: `cargo bench -p pooling-benches --bench memory` prints a markdown table.
//!
//! Heap bytes are the peak (`bytes_max`) that `allocation_counter::measure` sees while the
//! container is built and filled; the allocator's own per-allocation overhead is not counted.
//! The keys are not stored (their size is in the next columns), except where the live objects
//! live in what the caller holds: lifeguard's and object-pool's guards carry their objects, and
//! `Vec<Box<Particle>>` is the container of the boxes.

use bumpalo::Bump;
use pooling::Handle;
use pooling_benches::particle::{Particle, ParticlePool};
use pooling_benches::seed::{SeedFreeListPool, SeedScanPool};
use pooling_benches::{CAPACITY, Occupancy, Spawn};
use slotmap::{DefaultKey, DenseSlotMap, SlotMap};
use std::hint::black_box;

struct Row {
    peer: &'static str,
    bytes: u64,
    allocations: u64,
    key: &'static str,
    key_size: usize,
    option_key_size: usize,
}

/// Measures `fill`, which builds and fills the peer's container; `K` is its key type.
fn measure<K>(peer: &'static str, key: &'static str, fill: impl FnOnce()) -> Row {
    let info = allocation_counter::measure(fill);
    Row {
        peer,
        bytes: info.bytes_max,
        allocations: info.count_total,
        key,
        key_size: size_of::<K>(),
        option_key_size: size_of::<Option<K>>(),
    }
}

fn main() {
    // Every peer gets the same 10,000 objects (a 100% occupancy: nothing released).
    let occupancy = Occupancy::new(100);
    let spawns = &occupancy.spawns;
    assert_eq!(spawns.len(), CAPACITY);

    // sharded-slab registers the thread on first use (a global registry): do it outside.
    let warm = sharded_slab::Pool::<Particle>::new();
    assert!(warm.clear(warm.create_with(|_| {}).unwrap()));
    drop(warm);

    let mut rows = keyed(spawns);
    rows.extend(others(spawns));

    let slots = u64::try_from(CAPACITY).unwrap();
    println!(
        "Heap bytes per slot: 10,000 `Particle`s ({} bytes each) built and filled, peak bytes \
         allocated / 10,000.\n",
        size_of::<Particle>()
    );
    println!("| peer | heap bytes / slot | allocations | key | key bytes | `Option<key>` bytes |");
    println!("|---|---:|---:|---|---:|---:|");
    for row in rows {
        let tenths = row.bytes * 10 / slots;
        println!(
            "| {} | {}.{} | {} | `{}` | {} | {} |",
            row.peer,
            tenths / 10,
            tenths % 10,
            row.allocations,
            row.key,
            row.key_size,
            row.option_key_size,
        );
    }
}

/// The peers that hand out keys or handles into a container they own.
fn keyed(spawns: &[Spawn]) -> Vec<Row> {
    vec![
        measure::<Handle<Particle>>("pooling", "Handle<Particle>", || {
            let mut pool = ParticlePool::with_capacity(CAPACITY);
            for s in spawns {
                black_box(pool.create(|p| s.write(p)).unwrap());
            }
            assert_eq!(pool.len(), CAPACITY);
            black_box(&pool);
        }),
        measure::<usize>("slab", "usize", || {
            let mut slab = slab::Slab::with_capacity(CAPACITY);
            for s in spawns {
                black_box(slab.insert(s.particle()));
            }
            black_box(&slab);
        }),
        measure::<DefaultKey>("slotmap", "DefaultKey", || {
            let mut map = SlotMap::with_capacity(CAPACITY);
            for s in spawns {
                black_box(map.insert(s.particle()));
            }
            black_box(&map);
        }),
        measure::<DefaultKey>("dense_slotmap", "DefaultKey", || {
            let mut map = DenseSlotMap::with_capacity(CAPACITY);
            for s in spawns {
                black_box(map.insert(s.particle()));
            }
            black_box(&map);
        }),
        measure::<thunderdome::Index>("thunderdome", "Index", || {
            let mut arena = thunderdome::Arena::with_capacity(CAPACITY);
            for s in spawns {
                black_box(arena.insert(s.particle()));
            }
            black_box(&arena);
        }),
        measure::<usize>("sharded_slab", "usize", || {
            // No capacity to give: pages are added as needed.
            let pool = sharded_slab::Pool::<Particle>::new();
            for s in spawns {
                black_box(pool.create_with(|p| s.write(p)).unwrap());
            }
            black_box(&pool);
        }),
    ]
}

/// The peers whose objects sit in what the caller holds (guards, boxes, references), the seed's
/// pools and the dense `Vec`.
fn others(spawns: &[Spawn]) -> Vec<Row> {
    vec![
        measure::<lifeguard::Recycled<'_, Particle>>("lifeguard", "Recycled<Particle>", || {
            let pool = lifeguard::Pool::<Particle>::with_size(CAPACITY);
            let mut guards = Vec::with_capacity(CAPACITY);
            for s in spawns {
                let mut p = pool.new();
                s.write(&mut p);
                guards.push(p);
            }
            black_box(&guards);
        }),
        measure::<object_pool::Reusable<'_, Particle>>("object_pool", "Reusable<Particle>", || {
            let pool = object_pool::Pool::new(CAPACITY, Particle::default);
            let mut guards = Vec::with_capacity(CAPACITY);
            for s in spawns {
                let mut p = pool.try_pull().unwrap();
                s.write(&mut p);
                guards.push(p);
            }
            black_box(&guards);
        }),
        measure::<Box<Particle>>("box", "Box<Particle>", || {
            let mut boxes = Vec::with_capacity(CAPACITY);
            for s in spawns {
                boxes.push(Box::new(s.particle()));
            }
            black_box(&boxes);
        }),
        measure::<&mut Particle>("bumpalo", "&mut Particle", || {
            let bump = Bump::with_capacity(CAPACITY * size_of::<Particle>());
            for s in spawns {
                black_box(bump.alloc(s.particle()));
            }
            black_box(&bump);
        }),
        measure::<usize>("seed_scan", "usize", || {
            let mut pool = SeedScanPool::new(CAPACITY);
            for s in spawns {
                black_box(pool.create(|p| s.write(p)).unwrap());
            }
            black_box(&pool);
        }),
        measure::<usize>("seed_free_list", "usize", || {
            let mut pool = SeedFreeListPool::new(CAPACITY);
            for s in spawns {
                black_box(pool.create(|p| s.write(p)).unwrap());
            }
            black_box(&pool);
        }),
        measure::<usize>("vec", "usize", || {
            let mut vec = Vec::with_capacity(CAPACITY);
            vec.extend(spawns.iter().map(Spawn::particle));
            black_box(&vec);
        }),
    ]
}
