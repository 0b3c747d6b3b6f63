//! A `reset_with` function takes `&mut` the field's type.

use pooling::Pooled;

fn brighten(tint: &mut [u8; 4]) {
    *tint = [255; 4];
}

#[derive(Pooled)]
#[pool(size = 8)]
struct Sprite {
    #[pool(reset_with = brighten)]
    scale: f32,
}

fn main() {}
