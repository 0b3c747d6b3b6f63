//! `blank` goes on a variant, not on a field.

use pooling::Pooled;

#[derive(Pooled)]
#[pool(size = 8)]
enum Projectile {
    Spent,
    Arrow {
        #[pool(blank)]
        x: f64,
    },
}

fn main() {}
