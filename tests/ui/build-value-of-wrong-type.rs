//! `build = <expr>` must have the field's type.

use pooling::Pooled;

#[derive(Pooled)]
#[pool(size = 16)]
struct Buffer {
    #[pool(build = [0u8; 4096])]
    bytes: Vec<u8>,
}

fn main() {}
