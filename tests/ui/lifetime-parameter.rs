use pooled::Pooled;

struct Level {
    gravity: f64,
}

#[derive(Pooled)]
#[pool(size = 256)]
struct Particle<'level> {
    level: Option<&'level Level>,
}

fn main() {}
