#[derive(Pooled)]
#[pool(size = 2, on_full = panic)]
struct Boss {
    health: u32,
}
