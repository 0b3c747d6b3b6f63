//! A pool cannot be dropped while a lease is out: drop the leases first.

use pooling::Pooled;

#[derive(Pooled)]
#[pool(size = 4)]
struct Scratch {
    points: Vec<[f32; 3]>,
}

fn main() {
    let pool = ScratchPool::new();
    let lease = pool.acquire(|_| {}).unwrap();
    drop(pool);
    drop(lease);
}
