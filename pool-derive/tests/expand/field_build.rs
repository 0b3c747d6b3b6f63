#[derive(Pooled)]
#[pool(size = 16, sync)]
pub struct Buffer {
    #[pool(build = Vec::with_capacity(65_536))]
    bytes: Vec<u8>,
    #[pool(build = [255; 4], reset_with = fade)]
    tint: [u8; 4],
    #[pool(build = Instant::now(), keep)]
    built_at: Instant,
}
