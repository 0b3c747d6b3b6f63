//! Operation sequences from libFuzzer, run through the model checker of `tests/model.rs`: the
//! first byte picks the pool (one per full-pool strategy, an inline one, one of an enum, a sync
//! pool driven single-threaded, and a column pool beside its twin in the default layout, as
//! `tests/column_twin.rs` runs them), every five bytes after it make one operation: panics in
//! user hooks (a field's `Drop` as `shrink` frees a chunk among them), forgotten leases, clones
//! and saves compared with the pool and carried on with, and mutated saves among them.

#![no_main]

#[path = "../../tests/support/model.rs"]
#[allow(dead_code)]
mod model;
#[path = "../../tests/support/subjects.rs"]
mod subjects;
#[path = "../../tests/support/column_twin.rs"]
mod column_twin;

use model::Op;
use subjects::{Boss, Chirp, Enemy, Shot, Spark, Voice};

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    let Some((&which, rest)) = data.split_first() else {
        return;
    };
    let ops: Vec<Op> = rest
        .chunks_exact(5)
        .map(|c| Op::decode(c[0], u16::from_le_bytes([c[1], c[2]]), u16::from_le_bytes([c[3], c[4]])))
        .collect();
    match which % 8 {
        0 => model::run::<Spark>(&ops),
        1 => model::run::<Boss>(&ops),
        2 => model::run::<Voice>(&ops),
        3 => model::run::<Enemy>(&ops),
        4 => model::run_in::<Chirp, pooling::Inline<70, 2>>(&ops),
        5 => model::run::<Shot>(&ops),
        6 => model::run_sync::<Spark>(&ops, 8),
        _ => column_twin::run(&ops, which / 8),
    }
});
