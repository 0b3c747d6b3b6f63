//! `reset = <value>` must have the field's type.

use pooling::Pooled;

#[derive(Pooled)]
#[pool(size = 256)]
struct Particle {
    #[pool(reset = "big")]
    scale: f32,
}

fn main() {}
