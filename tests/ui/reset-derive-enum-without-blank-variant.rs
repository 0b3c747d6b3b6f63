//! `#[derive(Reset)]` on an enum needs its blank variant too: what `reset` leaves and `blank` builds.

use pooling::Reset;

#[derive(Reset)]
enum State {
    Idle,
    Running { since: u64 },
}

fn main() {}
