//! `storage` is `heap` or `inline`.

use pooling::Pooled;

#[derive(Pooled)]
#[pool(size = 64, storage = stack)]
struct Particle {
    x: f64,
}

fn main() {}
