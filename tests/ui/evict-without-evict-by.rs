//! `on_full = evict` needs `evict_by` to know which object is least important.

use pooling::Pooled;

#[derive(Pooled)]
#[pool(size = 16, on_full = evict)]
struct Voice {
    volume: u32,
}

fn main() {}
