//! While a lease is out its lender holds the pool: `get_mut` needs the pool. Drop the lease and the lender first, or read through the lender.

use pooling::Pooled;

#[derive(Pooled)]
#[pool(size = 4)]
struct Scratch {
    points: Vec<[f32; 3]>,
}

fn main() {
    let mut pool = ScratchPool::new();
    let handle = pool.create(|_| {}).unwrap();
    let lender = pool.lender();
    let lease = lender.acquire(|_| {}).unwrap();
    pool.get_mut(handle).unwrap().points.clear();
    drop(lease);
}
