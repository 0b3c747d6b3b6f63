//! `pooling` resets `Vec`, `String`, `Box` and the other `alloc` types with its `alloc` feature.

extern crate alloc;

use alloc::vec::Vec;
use pooling::Pooled;

#[derive(Pooled)]
#[pool(size = 16, storage = inline)]
struct Packet {
    bytes: Vec<u8>,
}

fn main() {}
