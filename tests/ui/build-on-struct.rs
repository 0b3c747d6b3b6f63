//! `build` is a field attribute: it builds one field.

use pooling::Pooled;

#[derive(Pooled)]
#[pool(size = 16, build = Buffer::new())]
struct Buffer {
    bytes: Vec<u8>,
}

fn main() {}
