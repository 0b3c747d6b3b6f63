//! While a lease is out the pool is borrowed: `release_all` needs it exclusively. Drop the lease first.

use pooling::Pooled;

#[derive(Pooled)]
#[pool(size = 4)]
struct Scratch {
    points: Vec<[f32; 3]>,
}

fn main() {
    let mut pool = ScratchPool::new();
    let lease = pool.acquire(|_| {}).unwrap();
    pool.release_all();
    drop(lease);
}
