//! `evict_by` only means something with `on_full = evict`.

use pooling::Pooled;

#[derive(Pooled)]
#[pool(size = 16, evict_by = Voice::volume)]
struct Voice {
    volume: u32,
}

impl Voice {
    fn volume(&self) -> u32 {
        self.volume
    }
}

fn main() {}
