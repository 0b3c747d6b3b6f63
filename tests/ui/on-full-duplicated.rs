//! Each struct attribute is given once.

use pooling::Pooled;

#[derive(Pooled)]
#[pool(size = 256, on_full = fail, on_full = grow)]
struct Particle {
    x: f64,
}

fn main() {}
