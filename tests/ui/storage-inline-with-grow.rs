//! An inline pool's slots are an array inside the pool: it cannot grow, which needs the heap.

use pooling::Pooled;

#[derive(Pooled)]
#[pool(size = 64, storage = inline, on_full = grow)]
struct Particle {
    x: f64,
}

fn main() {}
