//! A raw pointer has no blank state: hold a `Handle`, an index, or mark the field `#[pool(reset = ...)]`.

use pooling::Pooled;

#[derive(Pooled)]
#[pool(size = 8)]
struct Node {
    parent: *const Node,
}

fn main() {}
