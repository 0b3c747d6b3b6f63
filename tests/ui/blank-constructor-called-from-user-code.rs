//! The blank constructor takes a `PoolToken`, which only the pool can make: create objects with `pool.create(|p| ...)`.

use pooling::{PoolToken, Pooled};

#[derive(Pooled)]
#[pool(size = 8)]
struct Particle {
    x: f64,
}

fn main() {
    let _outside_any_pool = Particle::blank(PoolToken {});
}
