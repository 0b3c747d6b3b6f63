//! Compile errors, one mistake per file under `tests/ui/`, each with the compiler output it must
//! produce. Regenerate the `.stderr` files with `TRYBUILD=overwrite cargo test -p pooling-tests --test ui` and
//! review the diff like code.
#![cfg(not(miri))] // trybuild runs the compiler, which Miri cannot.

#[test]
fn ui() {
    let cases = trybuild::TestCases::new();
    cases.compile_fail("ui/*.rs");
}

/// A compile error speaks of what the user wrote: no case's output names the runtime crate
/// (`pool_core::...`), whose paths a user never writes.
#[test]
fn no_compile_error_names_the_runtime() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut checked = 0;
    for folder in ["ui", "no-default-features/ui"] {
        for entry in std::fs::read_dir(root.join(folder)).expect("the folder of cases") {
            let path = entry.expect("a readable entry").path();
            if path
                .extension()
                .is_some_and(|extension| extension == "stderr")
            {
                let stderr = std::fs::read_to_string(&path).expect("a readable .stderr");
                assert!(
                    !stderr.contains("pool_core"),
                    "{} names `pool_core`",
                    path.display()
                );
                checked += 1;
            }
        }
    }
    assert!(checked > 100, "only {checked} .stderr files found");
}
