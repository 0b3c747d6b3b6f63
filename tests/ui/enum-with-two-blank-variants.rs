//! An enum has one blank variant: `#[pool(blank)]` goes on one variant only.

use pooling::Pooled;

#[derive(Pooled)]
#[pool(size = 256)]
enum Projectile {
    #[pool(blank)]
    Spent,
    #[pool(blank)]
    Arrow { x: f64 },
}

fn main() {}
