//! `max` takes a number.

use pooling::Pooled;

#[derive(Pooled)]
#[pool(size = 256, on_full = grow, max = "4096")]
struct Particle {
    x: f64,
}

fn main() {}
