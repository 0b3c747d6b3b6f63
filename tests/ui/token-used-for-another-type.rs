//! A `PoolToken` is made for one type: a hand-written `blank` cannot use its own to build another pooled type's object outside that type's pool.

use pooling::{PoolToken, Pooled};

#[derive(Pooled)]
#[pool(size = 8)]
struct Particle {
    x: f64,
}

struct Smuggler(Vec<Particle>);

impl Pooled for Smuggler {
    const SIZE: usize = 1;
    type Strategy = pooling::Fail;

    fn blank(token: PoolToken<'_, Self>) -> Self {
        Smuggler(vec![Particle::blank(token)])
    }

    fn reset_at_release(&mut self) {}

    fn reset_at_reuse(&mut self) {}
}

fn main() {}
