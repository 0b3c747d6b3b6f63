//! A bare `Rc` has no blank state, inside an array or a tuple too: hold `Option<Rc<T>>`s.

use pooling::Pooled;
use std::rc::Rc;

struct Texture;

#[derive(Pooled)]
#[pool(size = 64)]
struct Sprite {
    frames: [Rc<Texture>; 4],
}

fn main() {}
