//! A pool needs its size: the number of objects it builds up front.

use pooling::Pooled;

#[derive(Pooled)]
struct Particle {
    x: f64,
}

fn main() {}
