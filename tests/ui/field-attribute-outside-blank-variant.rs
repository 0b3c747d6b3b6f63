//! Field attributes go in the blank variant only: the other variants' fields are dropped at release, never reset.

use pooling::Pooled;

#[derive(Pooled)]
#[pool(size = 8)]
enum Projectile {
    #[pool(blank)]
    Spent,
    Missile {
        #[pool(keep)]
        fuel: f32,
        #[pool(reset_with = Vec::clear)]
        trail: Vec<(f32, f32)>,
    },
}

fn main() {}
