//! Objects never leave their pool: `get` and `get_mut` lend references.

use pooling::Pooled;

#[derive(Pooled)]
#[pool(size = 8)]
struct Particle {
    trail: Vec<(f64, f64)>,
}

fn main() {
    let mut pool = ParticlePool::new();
    let handle = pool.create(|_| {}).unwrap();
    let _escaped: Particle = *pool.get(handle).unwrap();
}
