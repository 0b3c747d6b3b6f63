//! `groups_mut` hands a kernel free slots too: a `Vec` field is not reset at reuse, so a push there would stay.

use pooling::Pooled;

#[derive(Pooled)]
#[pool(size = 256)]
struct Particle {
    x: f32,
    trail: Vec<(f32, f32)>,
}

fn main() {
    let mut pool = ParticlePool::new();
    for (_, group) in pool.groups_mut() {
        group[0].trail.push((0.0, 0.0));
    }
}
