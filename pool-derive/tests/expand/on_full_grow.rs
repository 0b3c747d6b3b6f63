#[derive(Pooled)]
#[pool(size = 32, on_full = grow, max = MAX_ENEMIES)]
struct Enemy {
    health: u32,
}
