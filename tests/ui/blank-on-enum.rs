//! `blank` goes on a variant, not on the enum.

use pooling::Pooled;

#[derive(Pooled)]
#[pool(size = 8, blank)]
enum Projectile {
    Spent,
    Arrow { x: f64 },
}

fn main() {}
