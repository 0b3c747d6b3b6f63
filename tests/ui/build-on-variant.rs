//! `build` goes on a field of the blank variant, not on a variant.

use pooling::Pooled;

#[derive(Pooled)]
#[pool(size = 8)]
enum Message {
    #[pool(blank)]
    Empty,
    #[pool(build = Vec::with_capacity(64))]
    Text { bytes: Vec<u8> },
}

fn main() {}
