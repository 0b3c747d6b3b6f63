//! Compile errors with `pooling = { default-features = false }`: one mistake per file under
//! `ui/`, each with the compiler output it must produce. Regenerate the `.stderr` files with
//! `TRYBUILD=overwrite cargo test -p pooling-tests-no-default` and review the diff like code.
#![cfg(not(miri))] // trybuild runs the compiler, which Miri cannot.

#[test]
fn ui() {
    let cases = trybuild::TestCases::new();
    cases.compile_fail("ui/*.rs");
}
