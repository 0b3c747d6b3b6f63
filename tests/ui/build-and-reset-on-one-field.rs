//! `reset = <expr>` gives the field its first value too, so `build` would be thrown away: keep `build` and reset with `reset_with` or the type's `Reset` (with `keep` or `reset_with`, `build` is fine).

use pooling::Pooled;

#[derive(Pooled)]
#[pool(size = 16)]
struct Buffer {
    #[pool(build = Vec::with_capacity(4096), reset = Vec::new())]
    bytes: Vec<u8>,
}

fn main() {}
