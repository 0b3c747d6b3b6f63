//! Each struct attribute is given once.

use pooling::Pooled;

#[derive(Pooled)]
#[pool(size = 256)]
#[pool(size = 512)]
struct Particle {
    x: f64,
}

fn main() {}
