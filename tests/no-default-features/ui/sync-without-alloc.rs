//! A `sync` pool keeps its slots on the heap by default, which needs the `alloc` feature.

use pooling::Pooled;

#[derive(Pooled)]
#[pool(size = 16, sync)]
struct Job {
    id: u64,
}

fn main() {}
