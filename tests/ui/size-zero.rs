//! A pool needs at least one slot.

use pooled::Pooled;

#[derive(Pooled)]
#[pool(size = 0)]
struct Particle {
    x: f64,
}

fn main() {}
