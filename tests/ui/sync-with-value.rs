//! `sync` is a flag, not a key with a value.

use pooling::Pooled;

#[derive(Pooled)]
#[pool(size = 64, sync = true)]
struct Job {
    id: u64,
}

fn main() {}
