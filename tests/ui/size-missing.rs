use pooled::Pooled;

#[derive(Pooled)]
struct Particle {
    x: f64,
}

fn main() {}
