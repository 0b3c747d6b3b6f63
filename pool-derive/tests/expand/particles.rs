#[derive(Pooled)]
#[pool(size = 512)]
struct Particle {
    x: f64,
    y: f64,
    vx: f64,
    vy: f64,
    frames_left: u32,
    lifetime: u32,
    /// 1.0 is "no drag": a blank 0.0 would freeze a particle whose spell forgot to set it.
    #[pool(reset = 1.0)]
    drag: f64,
    /// Built with room for the whole tail, once per slot; cleared at release, keeping it, so
    /// pushing never allocates.
    #[pool(build = Vec::with_capacity(TRAIL_LEN))]
    trail: Vec<(f64, f64)>,
    /// How many particles this slot has held: it describes the slot, so it survives release.
    #[pool(keep)]
    uses: u32,
    /// Let go at release, so a spell's `Rc` counts only live particles.
    emitter: Option<Rc<Emitter>>,
}
