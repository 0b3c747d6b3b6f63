//! Heavy reuse: an object holding a 4 KiB `Vec<u8>`, a `String` and an `Option<Rc<Owner>>`.
//! One criterion iteration (`workload::reuse`) acquires 16 objects (held at once), fills each
//! (4096 bytes into the buffer from a static source, a short name into the string, the owner
//! into the option), then releases all 16.
//!
//! A pool that resets in place keeps the buffers' capacity, so after the first round it
//! allocates nothing. So do slab and slotmap's maps as a user who reuses heavy objects keeps
//! them (`Recycling`: removed objects cleared and kept for the next insert), so that their
//! figures are the containers', not the allocator's; `box` builds a fresh object with fresh
//! buffers every time, and is the one peer whose figure is the allocator's.

use criterion::{Criterion, criterion_group, criterion_main};
use pooling_benches::particle::{Heavy, HeavyPool, NAMES, Owner};
use pooling_benches::reuse::{Fresh, Recycling};
use pooling_benches::{Group, Reuse, workload};
use slotmap::{DenseSlotMap, SlotMap};
use std::rc::Rc;

/// Objects held at once.
const HELD: usize = NAMES.len();

fn reuse(c: &mut Criterion) {
    let owner = &Rc::new(Owner { name: "emitter" });
    let mut group = c.benchmark_group("reuse");
    let g = &mut group;
    bench(g, owner, HeavyPool::new());
    bench(g, owner, &HeavyPool::new().lender());
    bench(g, owner, Fresh);
    bench(g, owner, sharded_slab::Pool::<Heavy>::new());
    bench(g, owner, &lifeguard::Pool::<Heavy>::with_size(HELD));
    bench(g, owner, &object_pool::Pool::new(HELD, Heavy::default));
    bench(
        g,
        owner,
        Recycling::new(slab::Slab::<Heavy>::with_capacity(HELD), HELD),
    );
    bench(g, owner, Recycling::new(SlotMap::with_capacity(HELD), HELD));
    bench(
        g,
        owner,
        Recycling::new(DenseSlotMap::with_capacity(HELD), HELD),
    );
    group.finish();
}

/// Checks before and after the timing that a round lets every reference to the owner go.
fn bench<R: Reuse>(group: &mut Group<'_>, owner: &Rc<Owner>, mut peer: R) {
    let mut held = Vec::with_capacity(HELD);
    workload::check_reuse(&mut peer, &mut held, owner);
    group.bench_function(R::NAME, |b| {
        b.iter(|| workload::reuse(&mut peer, &mut held, owner));
    });
    workload::check_reuse(&mut peer, &mut held, owner);
}

criterion_group! {
    name = benches;
    config = pooling_benches::config();
    targets = reuse
}
criterion_main!(benches);
