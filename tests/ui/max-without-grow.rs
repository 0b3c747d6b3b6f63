//! `max` limits growth: it needs `on_full = grow`.

use pooling::Pooled;

#[derive(Pooled)]
#[pool(size = 256, max = 4096)]
struct Particle {
    x: f64,
}

fn main() {}
