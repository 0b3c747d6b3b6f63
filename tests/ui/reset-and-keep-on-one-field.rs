use pooled::Pooled;

#[derive(Pooled)]
#[pool(size = 256)]
struct Particle {
    #[pool(keep, reset = 1.0)]
    scale: f32,
}

fn main() {}
