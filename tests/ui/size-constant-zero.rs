//! `size` given as a constant is checked too, when the compiler evaluates it.

use pooling::Pooled;

const MAX_PARTICLES: usize = 0;

#[derive(Pooled)]
#[pool(size = MAX_PARTICLES)]
struct Particle {
    x: f64,
}

fn main() {
    let _pool = ParticlePool::new();
}
