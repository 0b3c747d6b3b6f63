//! The blank variant's fields are reset like a struct's, so each needs a reset: hold an `Rc` as an `Option`, or move it to another variant, whose fields are dropped at release.

use pooling::Pooled;
use std::rc::Rc;

struct Target;

#[derive(Pooled)]
#[pool(size = 8)]
enum Projectile {
    #[pool(blank)]
    Homing { target: Rc<Target> },
    Straight { x: f64 },
}

fn main() {}
