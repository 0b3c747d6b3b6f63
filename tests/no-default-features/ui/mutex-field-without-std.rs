//! `pooling` resets `HashMap`, `Mutex` and the other types only `std` has with its `std` feature.

use pooling::Pooled;
use std::sync::Mutex;

#[derive(Pooled)]
#[pool(size = 16, storage = inline)]
struct Connection {
    log: Mutex<u32>,
}

fn main() {}
