use pooled::Pooled;

#[derive(Pooled)]
#[pool(size = 256)]
struct Label {
    text: &'static str,
}

fn main() {}
