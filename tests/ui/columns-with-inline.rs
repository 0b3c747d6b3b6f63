//! A column pool keeps its columns on the heap: `storage = inline` does not go with it yet.

use pooling::Pooled;

#[derive(Pooled)]
#[pool(size = 64, layout = columns, storage = inline)]
struct Particle {
    x: f32,
}

fn main() {}
