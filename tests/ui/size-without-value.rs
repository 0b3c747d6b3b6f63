//! `size` needs a value.

use pooled::Pooled;

#[derive(Pooled)]
#[pool(size)]
struct Particle {
    x: f64,
}

fn main() {}
