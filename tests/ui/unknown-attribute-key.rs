//! Only the documented keys are accepted: a misspelled one is an error, not silently ignored.

use pooling::Pooled;

#[derive(Pooled)]
#[pool(size = 256, capacity = 512)]
struct Particle {
    x: f64,
    #[pool(default = 1.0)]
    scale: f32,
}

fn main() {}
