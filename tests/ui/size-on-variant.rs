//! `size` goes on the enum, not on a variant.

use pooling::Pooled;

#[derive(Pooled)]
#[pool(size = 256)]
enum Projectile {
    #[pool(blank, size = 8)]
    Spent,
    Arrow { x: f64 },
}

fn main() {}
