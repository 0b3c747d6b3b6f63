//! `keep` goes on a field of the blank variant, not on a variant.

use pooling::Pooled;

#[derive(Pooled)]
#[pool(size = 8)]
enum Projectile {
    #[pool(blank)]
    Spent,
    #[pool(keep)]
    Arrow { x: f64 },
}

fn main() {}
