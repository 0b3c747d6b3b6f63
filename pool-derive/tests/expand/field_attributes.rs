#[derive(Pooled)]
#[pool(size = 256)]
pub struct Sprite {
    position: (f32, f32),
    #[pool(reset = 1.0)]
    scale: f32,
    #[pool(reset_with = fade)]
    tint: [u8; 4],
    #[pool(keep)]
    texture: TextureId,
}
