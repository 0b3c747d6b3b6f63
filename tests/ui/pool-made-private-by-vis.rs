//! `vis` sets the pool type's visibility: `vis = ""` keeps it private to the struct's module.

mod effects {
    use pooling::Pooled;

    #[derive(Pooled)]
    #[pool(size = 256, vis = "")]
    pub struct Particle {
        pub x: f64,
    }
}

fn main() {
    let _pool = effects::ParticlePool::new();
}
