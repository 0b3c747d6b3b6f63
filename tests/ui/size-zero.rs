//! A pool needs at least one slot.

use pooling::Pooled;

#[derive(Pooled)]
#[pool(size = 0)]
struct Particle {
    x: f64,
}

fn main() {}
