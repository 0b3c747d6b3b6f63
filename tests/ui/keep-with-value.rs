//! `keep` takes no value.

use pooling::Pooled;

#[derive(Pooled)]
#[pool(size = 256)]
struct Particle {
    #[pool(keep = true)]
    texture: u32,
}

fn main() {}
