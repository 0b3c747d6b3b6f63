//! On an `on_full = panic` pool, `create` returns the handle itself; `try_create` returns a `Result`.

use pooling::{PoolFull, Pooled};

#[derive(Pooled)]
#[pool(size = 1, on_full = panic)]
struct Boss {
    health: u32,
}

fn spawn(pool: &mut BossPool) -> Result<(), PoolFull> {
    // `create` returns the handle itself on a panicking pool; `try_create` returns a `Result`.
    pool.create(|b| b.health = 900)?;
    Ok(())
}

fn main() {}
