//! A column pool is not shared across threads by itself: `sync` does not go with it yet.

use pooling::Pooled;

#[derive(Pooled)]
#[pool(size = 64, layout = columns, sync)]
struct Job {
    id: u64,
}

fn main() {}
