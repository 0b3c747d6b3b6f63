//! A lease borrows its pool's lender and cannot outlive it: keep the pool and its lender alive longer, or turn the lease into a handle.

use pooling::{Lease, Pooled};

#[derive(Pooled)]
#[pool(size = 4)]
struct Scratch {
    points: Vec<[f32; 3]>,
}

fn scratch_buffer() -> Lease<'static, Scratch> {
    let mut pool = ScratchPool::new();
    pool.lender().acquire(|_| {}).unwrap()
}

fn main() {
    let _ = scratch_buffer();
}
