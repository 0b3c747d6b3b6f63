//! `size` takes a number.

use pooling::Pooled;

#[derive(Pooled)]
#[pool(size = "256")]
struct Particle {
    x: f64,
}

fn main() {}
