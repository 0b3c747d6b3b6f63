//! A pool needs its size: the number of objects it builds up front.

use pooled::Pooled;

#[derive(Pooled)]
struct Particle {
    x: f64,
}

fn main() {}
