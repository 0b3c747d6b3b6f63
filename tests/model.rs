//! Model-based tests: random sequences of operations, on a pool of each full-pool strategy, on
//! an inline pool and on a pool of an enum, checked after every step against a plain map of what
//! the pool should hold (see `support/model.rs`), with panics in user hooks and saves mutated
//! on the way; and a `SyncPool` driven single-threaded against the same model.
//!
//! `cargo test` runs a few thousand operations per pool; `.ci/run` also runs this file in
//! release mode, where it runs 256 cases of 4,000 operations for each of the 7 pools: 7.2
//! million in all, in about a minute on 2 cores.

#[path = "support/model.rs"]
mod model;
#[path = "support/subjects.rs"]
mod subjects;

use model::Op;
use pooling::Inline;
use proptest::prelude::*;
use subjects::{Boss, Chirp, Enemy, Shot, Spark, Voice};

// Under Miri, one sequence of 50 per pool: Miri looks for undefined behaviour on the paths a
// sequence reaches, the release runs look for wrong answers in millions.
const OPS: usize = if cfg!(miri) {
    50
} else if cfg!(debug_assertions) {
    500
} else {
    4_000
};

const CASES: u32 = if cfg!(miri) {
    1
} else if cfg!(debug_assertions) {
    8
} else {
    256
};

fn ops() -> impl Strategy<Value = Vec<Op>> {
    prop::collection::vec(
        (any::<u8>(), any::<u16>(), any::<u16>()).prop_map(|(kind, a, b)| Op::decode(kind, a, b)),
        OPS,
    )
}

proptest! {
    #![proptest_config(ProptestConfig {
        cases: CASES,
        failure_persistence: None,
        ..ProptestConfig::default()
    })]

    #[test]
    fn a_failing_pool_matches_the_model(ops in ops()) {
        model::run::<Spark>(&ops);
    }

    #[test]
    fn a_panicking_pool_matches_the_model(ops in ops()) {
        model::run::<Boss>(&ops);
    }

    #[test]
    fn an_evicting_pool_matches_the_model(ops in ops()) {
        model::run::<Voice>(&ops);
    }

    #[test]
    fn a_growing_pool_matches_the_model(ops in ops()) {
        model::run::<Enemy>(&ops);
    }

    #[test]
    fn an_inline_pool_matches_the_model(ops in ops()) {
        model::run_in::<Chirp, Inline<70, 2>>(&ops);
    }

    #[test]
    fn a_pool_of_an_enum_matches_the_model(ops in ops()) {
        model::run::<Shot>(&ops);
    }

    #[test]
    fn a_sync_pool_matches_the_model(ops in ops()) {
        model::run_sync::<Spark>(&ops, 8);
    }
}
