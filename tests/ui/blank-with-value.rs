//! `blank` takes no value.

use pooling::Pooled;

#[derive(Pooled)]
#[pool(size = 8)]
enum Projectile {
    #[pool(blank = true)]
    Spent,
    Arrow { x: f64 },
}

fn main() {}
