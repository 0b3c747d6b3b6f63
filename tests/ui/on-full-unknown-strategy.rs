//! `on_full` is one of `fail`, `panic`, `evict` and `grow`.

use pooling::Pooled;

#[derive(Pooled)]
#[pool(size = 256, on_full = recycle)]
struct Particle {
    x: f64,
}

fn main() {}
