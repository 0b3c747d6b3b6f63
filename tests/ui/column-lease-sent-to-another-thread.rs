//! A `ColumnLease` stays on the thread of its lender, as a `Lease` does: to hand a row to another thread, copy it out, or lend objects from a `SyncPool` (`#[pool(size = N, sync)]`).

use pooling::Pooled;

#[derive(Pooled)]
#[pool(size = 16, layout = columns)]
struct Buffer {
    bytes: Vec<u8>,
}

fn main() {
    let mut pool = BufferPool::new();
    let lender = pool.lender();
    let mut lease = lender.acquire(|_| {}).unwrap();
    std::thread::scope(|s| {
        s.spawn(move || lease.row_mut().bytes.push(1));
    });
}
