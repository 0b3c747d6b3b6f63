use pooled::Reset;

#[derive(Reset)]
enum State {
    Idle,
    Running,
}

fn main() {}
