//! An enum needs its blank variant, the one every object is reset to: mark it `#[pool(blank)]`.

use pooling::Pooled;

#[derive(Pooled)]
#[pool(size = 256)]
enum Projectile {
    Arrow { x: f64 },
    Fireball { x: f64, radius: f64 },
}

fn main() {}
