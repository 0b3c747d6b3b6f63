//! A column pool's `evict_by` measure ranks a row, `VoiceRef<'_>`, not a `&Voice`: there is no
//! whole object to hand it.

use pooling::Pooled;

#[derive(Pooled)]
#[pool(size = 64, layout = columns, on_full = evict, evict_by = |v: &Voice| v.volume)]
struct Voice {
    volume: u32,
}

fn main() {}
