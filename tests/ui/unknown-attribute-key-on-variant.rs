//! A variant takes only `blank`.

use pooling::Pooled;

#[derive(Pooled)]
#[pool(size = 8)]
enum Projectile {
    #[pool(default)]
    Spent,
    Arrow { x: f64 },
}

fn main() {}
