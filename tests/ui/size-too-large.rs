use pooled::Pooled;

#[derive(Pooled)]
#[pool(size = 5_000_000_000)]
struct Particle {
    x: f64,
}

fn main() {}
