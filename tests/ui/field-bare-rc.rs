//! A bare `Rc` has no blank state: hold it as `Option<Rc<T>>`, which the pool sets to `None` at release.

use pooling::Pooled;
use std::rc::Rc;

struct Emitter;

#[derive(Pooled)]
#[pool(size = 8)]
struct Particle {
    x: f64,
    emitter: Rc<Emitter>,
}

fn main() {}
