//! A `Lease` stays on the thread of its lender (it is not `Send`): to hand an object to another thread, lend it from a `SyncPool` (`#[pool(size = N, sync)]`), whose leases are `Send`.

use pooling::Pooled;

#[derive(Pooled)]
#[pool(size = 16)]
struct Buffer {
    bytes: Vec<u8>,
}

fn main() {
    let mut pool = BufferPool::new();
    let lender = pool.lender();
    let mut lease = lender.acquire(|_| {}).unwrap();
    std::thread::scope(|s| {
        s.spawn(move || lease.bytes.push(1));
    });
}
