//! `vis` takes a visibility.

use pooled::Pooled;

#[derive(Pooled)]
#[pool(size = 256, vis = public)]
struct Particle {
    x: f64,
}

fn main() {}
