//! A growing pool starts at `size` and grows up to `max`, so `max` cannot be smaller.

use pooling::Pooled;

#[derive(Pooled)]
#[pool(size = 256, on_full = grow, max = 128)]
struct Particle {
    x: f64,
}

fn main() {}
