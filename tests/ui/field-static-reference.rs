//! A reference has no blank state: own the data, or mark the field `#[pool(reset = ...)]`.

use pooling::Pooled;

#[derive(Pooled)]
#[pool(size = 256)]
struct Label {
    text: &'static str,
}

fn main() {}
