//! An enum's variants have different fields, so there are no columns to keep them in.

use pooling::Pooled;

#[derive(Pooled)]
#[pool(size = 64, layout = columns)]
enum Shape {
    #[pool(blank)]
    Empty,
    Circle { radius: f32 },
}

fn main() {}
