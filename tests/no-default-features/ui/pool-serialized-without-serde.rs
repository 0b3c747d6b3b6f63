//! Pools and handles serialize with the `serde` feature: serde's own note says to look for it.

use pooling::Pooled;

#[derive(Pooled)]
#[pool(size = 16, storage = inline)]
struct Enemy {
    health: u32,
}

fn save(_: &impl serde::Serialize) {}

fn main() {
    save(&EnemyPool::new());
}
