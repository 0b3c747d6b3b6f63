//! Pooled objects cannot borrow: they live as long as their pool. Hold owned data, an `Option<Rc<T>>` or a `Handle`.

use pooling::Pooled;

struct Level {
    gravity: f64,
}

#[derive(Pooled)]
#[pool(size = 256)]
struct Particle<'level> {
    level: Option<&'level Level>,
}

fn main() {}
