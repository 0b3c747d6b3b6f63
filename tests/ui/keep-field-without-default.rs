//! A `keep` field is first built with `Default`: the type needs it.

use pooling::Pooled;

struct TextureId(u32);

#[derive(Pooled)]
#[pool(size = 256)]
struct Particle {
    x: f64,
    #[pool(keep)]
    texture: TextureId,
}

fn main() {}
