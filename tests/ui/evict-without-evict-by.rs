use pooled::Pooled;

#[derive(Pooled)]
#[pool(size = 16, on_full = evict)]
struct Voice {
    volume: u32,
}

fn main() {}
