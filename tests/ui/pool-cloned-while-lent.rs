//! A pool cannot be read (cloned, saved, iterated) while its lender lends from it: finish with the leases and the lender first, or read through the lender.

use pooling::Pooled;

#[derive(Pooled, Clone)]
#[pool(size = 16)]
struct Buffer {
    bytes: Vec<u8>,
}

fn main() {
    let mut pool = BufferPool::new();
    let lender = pool.lender();
    let lease = lender.acquire(|_| {}).unwrap();
    let snapshot = pool.clone();
    let _kept = lease.into_handle();
    drop(snapshot);
}
