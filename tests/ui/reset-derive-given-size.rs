use pooled::Reset;

#[derive(Reset)]
#[pool(size = 16)]
struct Physics {
    velocity: (f32, f32),
}

fn main() {}
