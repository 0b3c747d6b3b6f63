//! A field attribute is given once.

use pooling::Pooled;

#[derive(Pooled)]
#[pool(size = 256)]
struct Particle {
    #[pool(reset = 1.0)]
    #[pool(reset = 2.0)]
    scale: f32,
}

fn main() {}
