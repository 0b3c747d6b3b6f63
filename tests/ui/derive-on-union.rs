//! `#[derive(Pooled)]` works on structs: a union's fields cannot be reset one by one.

use pooling::Pooled;

#[derive(Pooled)]
#[pool(size = 256)]
union Bits {
    float: f32,
    int: u32,
}

fn main() {}
