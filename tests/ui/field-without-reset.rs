use pooled::Pooled;

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
