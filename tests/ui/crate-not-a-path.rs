//! `crate` takes the path at which the `pooling` crate is found, for crates that re-export it.

use pooling::Pooled;

#[derive(Pooled)]
#[pool(size = 256, crate = 3)]
struct Particle {
    x: f64,
}

fn main() {}
