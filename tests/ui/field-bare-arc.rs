//! A bare `Arc` has no blank state: hold it as `Option<Arc<T>>`, which the pool sets to `None` at release.

use pooling::Pooled;
use std::sync::Arc;

struct Level;

#[derive(Pooled)]
#[pool(size = 8)]
struct Enemy {
    health: u32,
    level: Arc<Level>,
}

fn main() {}
