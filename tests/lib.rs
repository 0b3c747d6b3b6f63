//! pooling's integration tests live beside this file, one target each (see Cargo.toml); this
//! library only carries the README, so that its examples run as doctests with the dependencies
//! they use (`serde`, `serde_json`), which the facade's first build should not compile.

#[cfg(doctest)]
#[doc = include_str!("../README.md")]
pub struct ReadmeDoctests;
