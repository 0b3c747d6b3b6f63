//! `name` is a struct attribute.

use pooling::Pooled;

#[derive(Pooled)]
#[pool(size = 256)]
struct Particle {
    #[pool(name = Sparks)]
    x: f64,
}

fn main() {}
