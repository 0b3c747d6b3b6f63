//! `reset` needs a value; without the attribute, the field resets through its type's `Reset`.

use pooling::Pooled;

#[derive(Pooled)]
#[pool(size = 256)]
struct Particle {
    #[pool(reset)]
    scale: f32,
}

fn main() {}
