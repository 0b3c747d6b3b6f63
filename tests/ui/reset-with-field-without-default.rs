//! A `reset_with` field is first built with `Default`, then the function: the type needs `Default`.

use pooling::Pooled;

struct Palette([u8; 4]);

fn brighten(palette: &mut Palette) {
    palette.0 = [255; 4];
}

#[derive(Pooled)]
#[pool(size = 8)]
struct Sprite {
    #[pool(reset_with = brighten)]
    palette: Palette,
}

fn main() {}
