//! `groups_mut` hands a kernel free slots too: a `keep` field would carry what it writes there into the next object.

use pooling::Pooled;

#[derive(Pooled)]
#[pool(size = 256, layout = columns)]
struct Particle {
    x: f32,
    #[pool(keep)]
    hits: u32,
}

fn main() {
    let mut pool = ParticlePool::new();
    for (_, group) in pool.groups_mut() {
        group.hits.fill(1);
    }
}
