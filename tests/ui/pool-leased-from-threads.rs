//! A `Pool` lends only through its `Lender`, which holds it mutably, on one thread: for a pool that threads lease from at once, make it `#[pool(size = N, sync)]`.

use pooling::Pooled;

#[derive(Pooled)]
#[pool(size = 16)]
struct Buffer {
    bytes: Vec<u8>,
}

fn main() {
    let pool = BufferPool::new();
    std::thread::scope(|s| {
        for _ in 0..4 {
            s.spawn(|| {
                let mut buffer = pool.acquire(|_| {}).unwrap();
                buffer.bytes.push(1);
            });
        }
    });
}
