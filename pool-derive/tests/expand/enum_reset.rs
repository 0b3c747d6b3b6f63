#[derive(Reset)]
enum Stance<T> {
    #[pool(blank)]
    Standing(u32, #[pool(reset = 1.0)] f32, Vec<T>),
    Jumping { height: f32 },
    Crouching,
}
