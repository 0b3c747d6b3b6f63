//! A column is named after its field: a tuple struct's fields have no names.

use pooling::Pooled;

#[derive(Pooled)]
#[pool(size = 64, layout = columns)]
struct Point(f32, f32);

fn main() {}
