//! Column pools against their twins in the default layout (issue 33), on the model's random
//! operation sequences (`support/column_twin.rs`): a pool of each strategy and an inline one must
//! hold the same slots, fields and counts after every step.

#[path = "support/column_twin.rs"]
mod column_twin;
#[path = "support/model.rs"]
#[allow(dead_code)]
mod model;

use model::Op;

#[test]
fn column_pools_match_their_twins_on_random_operations() {
    let (seeds, steps) = if cfg!(miri) { (2, 40) } else { (64, 400) };
    for which in 0..4 {
        for seed in 0..seeds {
            let mut rng = fastrand::Rng::with_seed(seed);
            let ops: Vec<Op> = (0..steps)
                .map(|_| Op::decode(rng.u8(..), rng.u16(..), rng.u16(..)))
                .collect();
            column_twin::run(&ops, which);
        }
    }
}
