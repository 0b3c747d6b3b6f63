//! `name` takes the pool type's name itself, not a string.

use pooling::Pooled;

#[derive(Pooled)]
#[pool(size = 256, name = "Sparks")]
struct Particle {
    x: f64,
}

fn main() {}
