//! A column struct takes no generic parameters yet.

use pooling::Pooled;

#[derive(Pooled)]
#[pool(size = 64, layout = columns)]
struct Tagged<T> {
    value: T,
}

fn main() {}
