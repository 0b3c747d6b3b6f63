//! A heap pool (the default storage) needs the `alloc` feature: turn it on, or keep the slots inside the pool with `storage = inline`.

use pooling::Pooled;

#[derive(Pooled)]
#[pool(size = 64)]
struct Particle {
    x: f32,
    frames_left: u32,
}

fn main() {
    let _particles = ParticlePool::new();
}
