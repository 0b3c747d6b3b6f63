//! A column pool has no whole object to lend: `get` gives a row of references, one per field.

use pooling::Pooled;

#[derive(Pooled)]
#[pool(size = 64, layout = columns)]
struct Particle {
    x: f32,
    y: f32,
}

fn main() {
    let mut pool = ParticlePool::new();
    let p = pool.create(|p| *p.x = 1.0).unwrap();
    let particle: &Particle = pool.get(p).unwrap();
    let _ = particle.y;
}
