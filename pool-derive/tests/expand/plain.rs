#[derive(Pooled)]
#[pool(size = 256)]
pub struct Particle {
    frames_left: u32,
    x: f64,
    y: f64,
    trail: Vec<(f64, f64)>,
    emitter: Option<Rc<Emitter>>,
}
