//! Slot indices are 32-bit: a pool holds at most 4,294,967,294 objects.

use pooling::Pooled;

#[derive(Pooled)]
#[pool(size = 5_000_000_000)]
struct Particle {
    x: f64,
}

fn main() {}
