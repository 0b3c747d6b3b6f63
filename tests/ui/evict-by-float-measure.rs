//! An `evict_by` measure must be totally ordered: return `pooling::TotalOrder(volume)` for a float.

use pooling::Pooled;

#[derive(Pooled)]
#[pool(size = 16, on_full = evict, evict_by = Voice::loudness)]
struct Voice {
    loudness: f32,
}

impl Voice {
    fn loudness(&self) -> f32 {
        self.loudness
    }
}

fn main() {}
