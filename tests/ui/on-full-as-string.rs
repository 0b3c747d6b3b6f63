//! `on_full` takes a bare word.

use pooling::Pooled;

#[derive(Pooled)]
#[pool(size = 256, on_full = "grow")]
struct Particle {
    x: f64,
}

fn main() {}
