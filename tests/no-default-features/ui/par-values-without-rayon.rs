//! The parallel walks (`par_values`, `par_iter`, `par_retain`, ...) come with the `rayon` feature.

use pooling::Pooled;

#[derive(Pooled)]
#[pool(size = 16, storage = inline)]
struct Spark {
    heat: u32,
}

fn main() {
    let sparks = SparkPool::new();
    let _ = sparks.par_values();
}
