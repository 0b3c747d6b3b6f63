//! While a lease is out the pool is borrowed: `get_mut` needs it exclusively. Drop the lease first.

use pooling::Pooled;

#[derive(Pooled)]
#[pool(size = 4)]
struct Scratch {
    points: Vec<[f32; 3]>,
}

fn main() {
    let mut pool = ScratchPool::new();
    let handle = pool.create(|_| {}).unwrap();
    let lease = pool.acquire(|_| {}).unwrap();
    pool.get_mut(handle).unwrap().points.clear();
    drop(lease);
}
