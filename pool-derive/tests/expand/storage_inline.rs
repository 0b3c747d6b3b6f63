#[derive(Pooled)]
#[pool(size = 100, storage = inline, on_full = evict, evict_by = |v| v.volume)]
struct Voice {
    volume: u32,
    samples: [i16; 32],
}
