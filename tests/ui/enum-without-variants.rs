//! An enum with no variants has no values, so no blank object to pool.

use pooling::Pooled;

#[derive(Pooled)]
#[pool(size = 256)]
enum Nothing {}

fn main() {}
