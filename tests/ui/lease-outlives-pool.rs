//! A lease borrows its pool and cannot outlive it: keep the pool alive longer, or turn the lease into a handle.

use pooling::{Lease, Pooled};

#[derive(Pooled)]
#[pool(size = 4)]
struct Scratch {
    points: Vec<[f32; 3]>,
}

fn scratch_buffer() -> Lease<'static, Scratch> {
    let pool = ScratchPool::new();
    pool.acquire(|_| {}).unwrap()
}

fn main() {
    let _ = scratch_buffer();
}
