//! `#[derive(Reset)]` works on structs: implement `pooled::Reset` for an enum by hand, or reset the field holding it with `#[pool(reset = ...)]`.

use pooled::Reset;

#[derive(Reset)]
enum State {
    Idle,
    Running,
}

fn main() {}
