//! A hand-written `Inline<N, W>` needs `W = N.div_ceil(64)`: the words of occupancy bits for `N`
//! slots (the derive computes it).

use pooled::{Fail, Inline, Pool, Pooled};

#[derive(Pooled)]
#[pool(size = 100)]
struct Particle {
    x: f64,
}

type Particles = Pool<Particle, Fail, Inline<100, 1>>;

static PARTICLES: std::sync::Mutex<Particles> = std::sync::Mutex::new(Particles::new());

fn main() {
    let _ = &PARTICLES;
}
