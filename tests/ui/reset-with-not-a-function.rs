//! `reset_with` takes a function called as `f(&mut field)`; for a value, use `reset = <value>`.

use pooling::Pooled;

#[derive(Pooled)]
#[pool(size = 256)]
struct Particle {
    #[pool(reset_with = [0, 0, 0, 255])]
    tint: [u8; 4],
}

fn main() {}
