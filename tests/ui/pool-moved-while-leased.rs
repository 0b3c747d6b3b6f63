//! A pool cannot be moved while a lease is out: move it before, or after the leases are dropped.

use pooling::Pooled;

#[derive(Pooled)]
#[pool(size = 4)]
struct Scratch {
    points: Vec<[f32; 3]>,
}

fn main() {
    let pool = ScratchPool::new();
    let lease = pool.acquire(|_| {}).unwrap();
    let moved = pool;
    drop(lease);
    drop(moved);
}
