//! An `Instant` has no blank value: reset it to `Instant::now()` with `reset`, build it once with `build` and `keep`, or hold an `Option<Instant>`.

use pooling::Pooled;
use std::time::Instant;

#[derive(Pooled)]
#[pool(size = 64)]
struct Session {
    id: u64,
    last_seen: Instant,
}

fn main() {}
