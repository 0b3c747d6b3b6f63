//! A pool shared across threads cannot grow without locks: size it up front.

use pooling::Pooled;

#[derive(Pooled)]
#[pool(size = 64, sync, on_full = grow)]
struct Job {
    id: u64,
}

fn main() {}
