//! The README quotes code that is kept, compiled and run elsewhere, so that what it shows is what
//! runs: the fenced block after a line `<!-- quote: PATH -->` is that file whole, and after
//! `<!-- quote: PATH#NAME -->` the lines between `// ANCHOR: NAME` and `// ANCHOR_END: NAME` in
//! it, less their common indent. The echo server is tested by `examples/echo`; the expansion is
//! pool-derive's snapshot of the flagship example's struct (`particles.expanded.rs`), which
//! pool-derive's tests compare with what the derive emits, and whose input this test compares
//! with the struct in `examples/particles.rs`. `UPDATE_README=1 cargo test -p pooling-tests
//! --test readme` rewrites the quotes and that input.
#![cfg(not(miri))]

use std::fs;
use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    // This crate is the workspace's `tests/` folder.
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("tests/ is in the workspace")
        .to_owned()
}

/// The text a quote names: `PATH` or `PATH#NAME`, relative to the workspace.
fn quoted(source: &str) -> String {
    let (path, anchor) = source
        .split_once('#')
        .map_or((source, None), |(path, anchor)| (path, Some(anchor)));
    let text = fs::read_to_string(root().join(path)).unwrap_or_else(|_| panic!("{path} exists"));
    let Some(anchor) = anchor else {
        return text;
    };
    let start = format!("// ANCHOR: {anchor}");
    let end = format!("// ANCHOR_END: {anchor}");
    let lines: Vec<&str> = text
        .lines()
        .skip_while(|line| line.trim() != start)
        .skip(1)
        .take_while(|line| line.trim() != end)
        .collect();
    assert!(!lines.is_empty(), "{path} has the region {anchor}");
    let indent = lines
        .iter()
        .filter(|line| !line.trim().is_empty())
        .map(|line| line.len() - line.trim_start().len())
        .min()
        .unwrap_or(0);
    let mut region = String::new();
    for line in lines {
        region.push_str(line.get(indent..).unwrap_or(""));
        region.push('\n');
    }
    region
}

/// The README with each quote's block replaced by what it quotes, and the quotes it has.
fn requoted(readme: &str) -> (String, Vec<String>) {
    let mut out = String::new();
    let mut sources = Vec::new();
    let mut lines = readme.split_inclusive('\n');
    while let Some(line) = lines.next() {
        out.push_str(line);
        let Some(source) = line
            .trim()
            .strip_prefix("<!-- quote: ")
            .and_then(|rest| rest.strip_suffix(" -->"))
        else {
            continue;
        };
        let fence = lines.next().expect("a fenced block after the quote");
        assert!(fence.starts_with("```"), "a fence after `{source}`");
        out.push_str(fence);
        out.push_str(&quoted(source));
        for line in lines.by_ref() {
            if line.trim_end() == "```" {
                out.push_str(line);
                break;
            }
        }
        sources.push(source.to_owned());
    }
    (out, sources)
}

#[test]
fn the_readme_quotes_what_runs() {
    let path = root().join("README.md");
    let readme = fs::read_to_string(&path).expect("README.md");
    let (requoted, sources) = requoted(&readme);
    for expected in [
        "examples/echo/src/readme.rs#server",
        "examples/bevy/src/main.rs#systems",
        "pool-derive/tests/expand/particles.expanded.rs",
        "pool-derive/tests/expand/columns.expanded.rs",
    ] {
        assert!(
            sources.iter().any(|s| s == expected),
            "README quotes {expected}"
        );
    }
    if std::env::var_os("UPDATE_README").is_some() {
        fs::write(&path, &requoted).expect("a writable README.md");
    }
    assert!(
        readme == requoted,
        "a block of README.md differs from what it quotes: run `UPDATE_README=1 cargo test -p \
         pooling-tests --test readme` and review the diff"
    );
}

/// The server the README shows compiles as shown: its region starts with every `use` it needs,
/// and is the whole of its module's own code (`examples/echo/src/readme.rs`, whose checking
/// client is a child module), so a name the README does not import would not compile there.
#[test]
fn the_readme_server_shows_its_use_lines() {
    let server = quoted("examples/echo/src/readme.rs#server");
    let uses: Vec<&str> = server
        .lines()
        .take_while(|l| l.starts_with("use "))
        .collect();
    for name in [
        "Pooled",
        "Arc",
        "TcpListener",
        "AsyncReadExt",
        "AsyncWriteExt",
        "io;",
    ] {
        assert!(
            uses.iter().any(|line| line.contains(name)),
            "the README's server imports {name}: {uses:?}"
        );
    }
    let file = fs::read_to_string(root().join("examples/echo/src/readme.rs")).expect("readme.rs");
    let outside = file
        .lines()
        .skip_while(|line| line.trim() != "// ANCHOR_END: server")
        .take_while(|line| !line.starts_with("mod "))
        .filter(|line| line.starts_with("use "))
        .count();
    assert_eq!(outside, 0, "no `use` outside the region serves the server");
}

#[test]
fn the_expansion_shown_is_of_the_flagship_examples_struct() {
    let input = root().join("pool-derive/tests/expand/particles.rs");
    let example = quoted("examples/particles.rs#particle");
    if std::env::var_os("UPDATE_README").is_some() {
        fs::write(&input, &example).expect("a writable snapshot input");
    }
    assert!(
        fs::read_to_string(&input).ok().as_deref() == Some(example.as_str()),
        "pool-derive/tests/expand/particles.rs differs from `Particle` in examples/particles.rs: \
         run `UPDATE_README=1 cargo test -p pooling-tests --test readme`, then \
         `UPDATE_EXPANSIONS=1 cargo test -p pool-derive`"
    );
}
