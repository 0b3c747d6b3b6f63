//! `vis` takes a visibility.

use pooling::Pooled;

#[derive(Pooled)]
#[pool(size = 256, vis = public)]
struct Particle {
    x: f64,
}

fn main() {}
