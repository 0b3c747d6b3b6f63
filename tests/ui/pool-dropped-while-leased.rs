//! A pool cannot be dropped while a lease is out: drop the leases first.

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
    drop(pool);
    drop(lease);
}
