//! A pool cannot be moved while a lease is out: move it before, or after the leases are dropped.

use pooling::Pooled;

#[derive(Pooled)]
#[pool(size = 4)]
struct Scratch {
    points: Vec<[f32; 3]>,
}

fn main() {
    let mut pool = ScratchPool::new();
    let lender = pool.lender();
    let lease = lender.acquire(|_| {}).unwrap();
    let moved = pool;
    drop(lease);
    drop(moved);
}
