//! A hand-written `Inline<N, W>` needs `W = N.div_ceil(64)`, which the derive computes.
//! (`W` is the number of 64-bit words of occupancy bits for `N` slots.)

use pooling::{Fail, Inline, Pool, Pooled};

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
