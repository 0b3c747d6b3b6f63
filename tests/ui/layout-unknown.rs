//! `layout` is `objects` (the default) or `columns`.

use pooling::Pooled;

#[derive(Pooled)]
#[pool(size = 64, layout = soa)]
struct Particle {
    x: f32,
}

fn main() {}
