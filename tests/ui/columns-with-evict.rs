//! A column pool keeps no whole object for an `evict_by` measure to rank.

use pooling::Pooled;

#[derive(Pooled)]
#[pool(size = 64, layout = columns, on_full = evict, evict_by = |v: &Voice| v.volume)]
struct Voice {
    volume: u32,
}

fn main() {}
