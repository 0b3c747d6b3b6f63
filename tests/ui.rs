//! Compile errors, one mistake per file under `tests/ui/`, each with the compiler output it must
//! produce. Regenerate the `.stderr` files with `TRYBUILD=overwrite cargo test -p pooling-tests --test ui` and
//! review the diff like code.
#![cfg(not(miri))] // trybuild runs the compiler, which Miri cannot.

#[test]
fn ui() {
    let cases = trybuild::TestCases::new();
    cases.compile_fail("ui/*.rs");
}
