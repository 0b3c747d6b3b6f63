//! A field is reset one way or kept: choose one.

use pooling::Pooled;

#[derive(Pooled)]
#[pool(size = 256)]
struct Particle {
    #[pool(keep, reset = 1.0)]
    scale: f32,
}

fn main() {}
