//! `keep` is a field attribute.

use pooling::Pooled;

#[derive(Pooled)]
#[pool(size = 256, keep)]
struct Particle {
    x: f64,
}

fn main() {}
