//! `on_full` needs a strategy.

use pooling::Pooled;

#[derive(Pooled)]
#[pool(size = 256, on_full)]
struct Particle {
    x: f64,
}

fn main() {}
