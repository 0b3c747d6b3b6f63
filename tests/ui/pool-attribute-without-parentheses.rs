//! The attribute takes its settings in parentheses: `#[pool(size = 256)]`.

use pooling::Pooled;

#[derive(Pooled)]
#[pool]
struct Particle {
    x: f64,
}

fn main() {}
