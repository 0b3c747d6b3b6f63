//! `#[derive(Pooled)]` works on structs: put the enum in a field and reset it with `#[pool(reset = ...)]`.

use pooled::Pooled;

#[derive(Pooled)]
#[pool(size = 256)]
enum Projectile {
    Arrow { x: f64 },
    Fireball { x: f64, radius: f64 },
}

fn main() {}
