//! `evict_by` takes a function or closure from `&T` to the importance.

use pooling::Pooled;

#[derive(Pooled)]
#[pool(size = 16, on_full = evict, evict_by = 3)]
struct Voice {
    volume: u32,
}

fn main() {}
