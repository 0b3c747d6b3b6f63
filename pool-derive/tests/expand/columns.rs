#[derive(Pooled)]
#[pool(size = 1024, layout = columns)]
pub struct Particle {
    pub x: f32,
    pub vx: f32,
    pub trail: Vec<(f32, f32)>,
}
