use pooled::Pooled;

#[derive(Pooled)]
#[pool(size = 256)]
struct Particle {
    #[pool(reset)]
    scale: f32,
}

fn main() {}
