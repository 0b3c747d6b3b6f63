//! `#[derive(Reset)]` takes no struct attributes but `crate`; a pooled struct should not also derive `Reset`.

use pooling::Reset;

#[derive(Reset)]
#[pool(size = 16)]
struct Physics {
    velocity: (f32, f32),
}

fn main() {}
