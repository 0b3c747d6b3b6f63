//! `blank` marks an enum's blank variant; a struct is reset field by field and takes no `blank`.

use pooling::Pooled;

#[derive(Pooled)]
#[pool(size = 8, blank)]
struct Arrow {
    x: f64,
}

fn main() {}
