#[derive(Pooled)]
#[pool(size = 4)]
struct Pair(u32, #[pool(reset = 7)] u8);
