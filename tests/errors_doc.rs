//! `ERRORS.md`, "Errors and what they mean", is generated from the compile-fail cases in
//! `tests/ui/` and `tests/no-default-features/ui/` (those built without `pooling`'s default
//! features): each case's first line says what the mistake is, its code shows it, and its
//! `.stderr` is what the compiler prints. This test builds the file again and fails if it
//! differs, so that it cannot drift from the cases; `UPDATE_ERRORS_DOC=1 cargo test -p pooling-tests --test
//! errors_doc` rewrites it.
#![cfg(not(miri))]

use std::fmt::Write;
use std::fs;
use std::path::Path;

const HEADER: &str = "\
# Errors and what they mean

Every compile error that `#[derive(Pooled)]` and `#[derive(Reset)]` are known to cause, or that
the pools' borrow rules or a missing feature cause, one mistake at a time: what is wrong, the
code, and the message the compiler prints (with Rust 1.95). The cases are the compile-fail tests
in `tests/ui/` and, built with `default-features = false` (marked so below),
`tests/no-default-features/ui/`; this file is generated from them by `tests/errors_doc.rs`, so
it cannot drift from what the compiler says.

| mistake | what to do |
|---|---|
";

/// The folders of cases, and what their cases are built with when it is not the defaults.
const FOLDERS: [(&str, Option<&str>); 2] = [
    ("tests/ui", None),
    (
        "tests/no-default-features/ui",
        Some("With `pooling = { default-features = false }`."),
    ),
];

fn generate(root: &Path) -> String {
    let mut cases: Vec<_> = FOLDERS
        .iter()
        .flat_map(|&(folder, built_with)| {
            fs::read_dir(root.join(folder))
                .unwrap_or_else(|_| panic!("{folder} exists"))
                .map(move |entry| (entry.expect("a readable entry").path(), built_with))
        })
        .filter(|(path, _)| path.extension().is_some_and(|extension| extension == "rs"))
        .collect();
    cases.sort_by(|(a, _), (b, _)| a.file_name().cmp(&b.file_name()));
    let mut contents = String::from(HEADER);
    let mut entries = String::new();
    for (case, built_with) in cases {
        let name = case.file_stem().expect("a file name").to_string_lossy();
        let source = fs::read_to_string(&case).expect("a readable case");
        let (first, code) = source.split_once('\n').expect("more than one line");
        let description = first
            .strip_prefix("//! ")
            .unwrap_or_else(|| panic!("{name}.rs starts with `//! <what is wrong>`"));
        let description = built_with.map_or_else(
            || description.to_owned(),
            |built_with| format!("{description} {built_with}"),
        );
        let description = description.as_str();
        let stderr = fs::read_to_string(case.with_extension("stderr"))
            .unwrap_or_else(|_| panic!("{name}.stderr exists"));
        // A `|` ends a table cell even inside a code span.
        let cell = description.replace('|', "\\|");
        writeln!(contents, "| [`{name}`](#{name}) | {cell} |").expect("a string");
        write!(
            entries,
            "\n## {name}\n\n{description}\n\n```rust,ignore\n{}```\n\n```text\n{stderr}```\n",
            code.trim_start_matches('\n'),
        )
        .expect("a string");
    }
    contents + &entries
}

#[test]
fn the_errors_doc_matches_the_compile_fail_cases() {
    // The workspace root, where ERRORS.md is: this crate is its `tests/` folder.
    let root = Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("tests/ is in the workspace");
    let generated = generate(root);
    let path = root.join("ERRORS.md");
    if std::env::var_os("UPDATE_ERRORS_DOC").is_some() {
        fs::write(&path, &generated).expect("a writable ERRORS.md");
    }
    let written = fs::read_to_string(&path).unwrap_or_default();
    assert!(
        written == generated,
        "ERRORS.md differs from tests/ui: run `UPDATE_ERRORS_DOC=1 cargo test -p pooling-tests --test errors_doc` \
         and review the diff"
    );
}
