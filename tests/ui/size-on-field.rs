//! `size` is a struct attribute.

use pooling::Pooled;

#[derive(Pooled)]
#[pool(size = 256)]
struct Particle {
    #[pool(size = 4)]
    trail: Vec<(f64, f64)>,
}

fn main() {}
