//! `on_full = grow` adds chunks on the heap, which needs the `alloc` feature: turn it on, or size the pool up front.

use pooling::Pooled;

#[derive(Pooled)]
#[pool(size = 8, on_full = grow)]
struct Enemy {
    health: u32,
}

fn main() {}
