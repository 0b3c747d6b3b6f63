//! While a lease is out its lender holds the pool: `retain` needs the pool. Drop the lease and the lender first.

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
    pool.retain(|s| !s.points.is_empty());
    drop(lease);
}
