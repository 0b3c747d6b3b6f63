//! `build` needs the expression that builds the field, such as `build = Vec::with_capacity(4096)`.

use pooling::Pooled;

#[derive(Pooled)]
#[pool(size = 16, sync)]
struct Buffer {
    #[pool(build)]
    bytes: Vec<u8>,
}

fn main() {}
