//! Every field's type needs a reset: derive `pooling::Reset` for it, or choose another strategy for the field.

use pooling::Pooled;

struct Sprite {
    frame: u32,
}

#[derive(Pooled)]
#[pool(size = 8)]
struct Enemy {
    health: u32,
    sprite: Sprite,
}

fn main() {}
