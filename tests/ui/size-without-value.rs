//! `size` needs a value.

use pooling::Pooled;

#[derive(Pooled)]
#[pool(size)]
struct Particle {
    x: f64,
}

fn main() {}
