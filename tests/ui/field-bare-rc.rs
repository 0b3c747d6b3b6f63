use pooled::Pooled;
use std::rc::Rc;

struct Emitter;

#[derive(Pooled)]
#[pool(size = 8)]
struct Particle {
    x: f64,
    emitter: Rc<Emitter>,
}

fn main() {}
