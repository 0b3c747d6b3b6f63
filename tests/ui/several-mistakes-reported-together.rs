//! Every mistake in the attributes is reported in one compile, and the pool type still exists, so nothing else fails because of them.

use pooling::Pooled;

#[derive(Pooled)]
#[pool(size = 0, colour = "red")]
struct Particle {
    #[pool(keep, reset = 1.0)]
    scale: f32,
    #[pool(size = 4)]
    trail: Vec<(f64, f64)>,
}

fn main() {
    // The pool type still exists, so this line adds no error of its own.
    let _pool = ParticlePool::new();
}
