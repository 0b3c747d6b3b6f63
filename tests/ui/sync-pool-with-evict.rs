//! A pool shared across threads cannot evict: another thread may be reading the object.

use pooling::Pooled;

#[derive(Pooled)]
#[pool(size = 64, sync, on_full = evict, evict_by = |v| v.volume)]
struct Voice {
    volume: u32,
}

fn main() {}
