//! `max` given as a constant is checked too, when the compiler evaluates it.

use pooling::Pooled;

const MOST_PARTICLES: usize = 128;

#[derive(Pooled)]
#[pool(size = 256, on_full = grow, max = MOST_PARTICLES)]
struct Particle {
    x: f64,
}

fn main() {}
