//! A `Lender` stays on its thread (it is not `Sync`), and so do its leases: take a lender on each thread from a pool of its own, or share a `SyncPool` (`#[pool(size = N, sync)]`).

use pooling::Pooled;

#[derive(Pooled)]
#[pool(size = 16)]
struct Buffer {
    bytes: Vec<u8>,
}

fn main() {
    let mut pool = BufferPool::new();
    let lender = pool.lender();
    std::thread::scope(|s| {
        s.spawn(|| drop(lender.acquire(|_| {})));
    });
}
