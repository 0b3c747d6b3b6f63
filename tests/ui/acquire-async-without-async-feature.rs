//! Waiting for a free slot (`acquire_async`, `acquire_owned_async`) comes with the `async` feature.

use pooling::Pooled;
use std::sync::Arc;

#[derive(Pooled)]
#[pool(size = 16, sync)]
struct Buffer {
    bytes: Vec<u8>,
}

fn main() {
    let buffers = Arc::new(BufferPool::new());
    let _waiting = buffers.acquire_owned_async(|_| {});
}
