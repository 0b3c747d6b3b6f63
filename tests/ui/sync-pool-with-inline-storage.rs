//! A pool shared across threads keeps its slots on the heap: it cannot be inline.

use pooling::Pooled;

#[derive(Pooled)]
#[pool(size = 64, sync, storage = inline)]
struct Job {
    id: u64,
}

fn main() {}
