//! Handles are typed by the object they name: a `Handle<Bullet>` cannot release an `Enemy`.

use pooling::Pooled;

#[derive(Pooled)]
#[pool(size = 8)]
struct Bullet {
    damage: u32,
}

#[derive(Pooled)]
#[pool(size = 8)]
struct Enemy {
    health: u32,
}

fn main() {
    let mut bullets = BulletPool::new();
    let mut enemies = EnemyPool::new();
    let bullet = bullets.create(|_| {}).unwrap();
    enemies.release(bullet).unwrap();
}
