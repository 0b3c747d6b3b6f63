#[derive(Pooled)]
#[pool(size = 16, on_full = evict, evict_by = Voice::loudness)]
struct Voice {
    volume: f32,
    sample: Option<Rc<Sample>>,
}
