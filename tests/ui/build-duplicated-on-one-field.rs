//! `build` is given once: one expression builds the field.

use pooling::Pooled;

#[derive(Pooled)]
#[pool(size = 16, sync)]
struct Buffer {
    #[pool(build = Vec::with_capacity(4096))]
    #[pool(build = Vec::with_capacity(65_536))]
    bytes: Vec<u8>,
}

fn main() {}
