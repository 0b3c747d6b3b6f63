//! Expansion snapshots: each input under `tests/expand/` is expanded, pretty-printed, and
//! compared with its checked-in `.expanded.rs`, so that a change to the generated code is
//! reviewed like any other code. `UPDATE_EXPANSIONS=1 cargo test -p pool-derive` rewrites them.

use crate::Derive;
use crate::expand;
use std::fs;
use std::path::{Path, PathBuf};

fn inputs() -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/expand");
    let mut inputs: Vec<PathBuf> = fs::read_dir(&dir)
        .expect("tests/expand exists")
        .map(|entry| entry.expect("a readable entry").path())
        .filter(|path| {
            let name = path.to_string_lossy();
            name.ends_with(".rs") && !name.ends_with(".expanded.rs")
        })
        .collect();
    inputs.sort();
    inputs
}

fn expand(source: &str) -> String {
    let node: syn::DeriveInput = syn::parse_str(source).expect("an input parses");
    let derive = if source.contains("#[derive(Reset)]") {
        Derive::Reset
    } else {
        Derive::Pooled
    };
    let tokens = expand::derive(&node, derive);
    let file = syn::parse_file(&tokens.to_string()).expect("the expansion parses");
    prettyplease::unparse(&file)
}

#[test]
fn expansions_match_their_snapshots() {
    let update = std::env::var_os("UPDATE_EXPANSIONS").is_some();
    let inputs = inputs();
    assert!(inputs.len() >= 12, "the inputs are missing: {inputs:?}");
    let mut stale = Vec::new();
    for input in inputs {
        let expanded = expand(&fs::read_to_string(&input).expect("a readable input"));
        let snapshot = input.with_extension("expanded.rs");
        if update {
            fs::write(&snapshot, &expanded).expect("a writable snapshot");
        } else if fs::read_to_string(&snapshot).ok().as_deref() != Some(expanded.as_str()) {
            stale.push(snapshot.display().to_string());
        }
    }
    assert!(
        stale.is_empty(),
        "the expansion changed for {stale:?}: review it with `UPDATE_EXPANSIONS=1 cargo test -p \
         pool-derive` and `git diff`"
    );
}

#[test]
fn a_five_field_struct_expands_to_one_screen() {
    let source =
        fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/expand/plain.rs"))
            .expect("plain.rs");
    let lines = expand(&source).lines().count();
    assert!(lines <= 70, "{lines} lines");
}
