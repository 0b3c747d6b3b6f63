#[derive(Reset)]
struct Physics {
    velocity: (f32, f32),
    #[pool(reset = 1.0)]
    mass: f32,
    #[pool(keep)]
    material: Material,
}
