//! Heavy reuse: an object holding a 4 KiB `Vec<u8>`, a `String` and an `Option<Rc<Owner>>`.
//! One criterion iteration acquires 16 objects (held at once), fills each (4096 bytes into the
//! buffer from a static source, a short name into the string, the owner into the option), then
//! releases all 16.
//!
//! A pool that resets in place keeps the buffers' capacity, so after the first round it
//! allocates nothing; the peers that build fresh objects allocate both buffers every time.

mod common;

use common::Group;
use common::particle::{Heavy, HeavyPool, NAMES, Owner};
use criterion::{Criterion, criterion_group, criterion_main};
use pooled::{Handle, Lease};
use slotmap::{DefaultKey, SlotMap};
use std::hint::black_box;
use std::rc::Rc;

/// Objects held at once.
const HELD: usize = NAMES.len();

fn reuse(c: &mut Criterion) {
    let owner = Rc::new(Owner { name: "emitter" });
    let mut group = c.benchmark_group("reuse");

    let mut pool = HeavyPool::new();
    let mut held = Vec::with_capacity(HELD);
    bench(&mut group, "pooled", &owner, |owner| {
        reuse_pooled(&mut pool, &mut held, owner);
    });

    let pool = HeavyPool::new();
    let mut held = Vec::with_capacity(HELD);
    bench(&mut group, "pooled_lease", &owner, |owner| {
        reuse_pooled_lease(&pool, &mut held, owner);
    });

    let mut held = Vec::with_capacity(HELD);
    bench(&mut group, "box", &owner, |owner| {
        reuse_box(&mut held, owner);
    });

    let pool = sharded_slab::Pool::new();
    let mut held = Vec::with_capacity(HELD);
    bench(&mut group, "sharded_slab", &owner, |owner| {
        reuse_sharded_slab(&pool, &mut held, owner);
    });

    let pool = lifeguard::Pool::with_size(HELD);
    let mut held = Vec::with_capacity(HELD);
    bench(&mut group, "lifeguard", &owner, |owner| {
        reuse_lifeguard(&pool, &mut held, owner);
    });

    let pool = object_pool::Pool::new(HELD, Heavy::default);
    let mut held = Vec::with_capacity(HELD);
    bench(&mut group, "object_pool", &owner, |owner| {
        reuse_object_pool(&pool, &mut held, owner);
    });

    let mut map = SlotMap::with_capacity(HELD);
    let mut held = Vec::with_capacity(HELD);
    bench(&mut group, "slotmap", &owner, |owner| {
        reuse_slotmap(&mut map, &mut held, owner);
    });

    group.finish();
}

/// Checks once, outside the timing, that a round lets every reference to the owner go (all 16
/// objects were released and reset, or dropped), then measures.
fn bench(group: &mut Group<'_>, peer: &str, owner: &Rc<Owner>, mut round: impl FnMut(&Rc<Owner>)) {
    round(owner);
    assert_eq!(
        Rc::strong_count(owner),
        1,
        "{peer}: an object kept its owner"
    );
    group.bench_function(peer, |b| b.iter(|| round(owner)));
    assert_eq!(
        Rc::strong_count(owner),
        1,
        "{peer}: an object kept its owner"
    );
}

#[inline(never)]
fn reuse_pooled(pool: &mut HeavyPool, held: &mut Vec<Handle<Heavy>>, owner: &Rc<Owner>) {
    for name in NAMES {
        held.push(black_box(pool.create(|h| h.fill(name, owner)).unwrap()));
    }
    for handle in held.drain(..) {
        pool.release(black_box(handle)).unwrap();
    }
}

#[inline(never)]
fn reuse_pooled_lease<'p>(
    pool: &'p HeavyPool,
    held: &mut Vec<Lease<'p, Heavy>>,
    owner: &Rc<Owner>,
) {
    for name in NAMES {
        held.push(black_box(pool.acquire(|h| h.fill(name, owner)).unwrap()));
    }
    // Each lease gives its object back, reset, as it drops.
    held.clear();
}

/// Fresh allocation: a new `Box` with new, empty buffers every time, all dropped at release.
#[inline(never)]
#[expect(
    clippy::vec_box,
    reason = "the `box` peer: one heap allocation per object"
)]
fn reuse_box(held: &mut Vec<Box<Heavy>>, owner: &Rc<Owner>) {
    for name in NAMES {
        let mut object = Box::new(Heavy::default());
        object.fill(name, owner);
        held.push(black_box(object));
    }
    held.clear();
}

#[inline(never)]
fn reuse_sharded_slab(pool: &sharded_slab::Pool<Heavy>, held: &mut Vec<usize>, owner: &Rc<Owner>) {
    for name in NAMES {
        held.push(black_box(
            pool.create_with(|h| h.fill(name, owner)).unwrap(),
        ));
    }
    for key in held.drain(..) {
        // `Clear` empties the buffers, keeping their capacity, and lets the owner go.
        assert!(pool.clear(black_box(key)));
    }
}

#[inline(never)]
fn reuse_lifeguard<'p>(
    pool: &'p lifeguard::Pool<Heavy>,
    held: &mut Vec<lifeguard::Recycled<'p, Heavy>>,
    owner: &Rc<Owner>,
) {
    for name in NAMES {
        let mut object = pool.new();
        object.fill(name, owner);
        held.push(black_box(object));
    }
    // Each guard resets its object (`Recycleable::reset`, keeping capacity) as it drops.
    held.clear();
}

#[inline(never)]
fn reuse_object_pool<'p>(
    pool: &'p object_pool::Pool<Heavy>,
    held: &mut Vec<object_pool::Reusable<'p, Heavy>>,
    owner: &Rc<Owner>,
) {
    for name in NAMES {
        let mut object = pool.try_pull().unwrap();
        object.fill(name, owner);
        held.push(black_box(object));
    }
    // object-pool does not reset: a dropped guard puts its object back as it is, buffers full
    // and owner held. To be equivalent the bench clears each object itself before giving it back.
    for mut object in held.drain(..) {
        object.clear();
    }
}

/// slotmap stores values: each insert is a freshly built object (allocating its buffers), each
/// remove drops it.
#[inline(never)]
fn reuse_slotmap(
    map: &mut SlotMap<DefaultKey, Heavy>,
    held: &mut Vec<DefaultKey>,
    owner: &Rc<Owner>,
) {
    for name in NAMES {
        let mut object = Heavy::default();
        object.fill(name, owner);
        held.push(black_box(map.insert(object)));
    }
    for key in held.drain(..) {
        drop(map.remove(black_box(key)).unwrap());
    }
}

criterion_group! {
    name = benches;
    config = common::config();
    targets = reuse
}
criterion_main!(benches);
