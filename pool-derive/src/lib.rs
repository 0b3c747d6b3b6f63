//! The derive macros behind [`pooled`](https://docs.rs/pooled). Use them through the `pooled`
//! crate, which documents them: `use pooled::{Pooled, Reset};`.
//!
//! Each derive runs the same pipeline: parse the input into an intermediate form (`ast`) while
//! reading its `#[pool(...)]` attributes (`attr`), check the rules that span fields
//! (`valid`), and generate code (`expand`). Every error found on the way is reported in one
//! compile, each at the token it is about; when there are errors, `fallback` still emits the
//! pool type, so that the one real error is not buried under "cannot find type" errors.

#![warn(missing_docs)]

extern crate proc_macro;

mod ast;
mod attr;
mod bound;
mod errors;
mod expand;
mod fallback;
mod pool_type;
#[cfg(test)]
mod snapshots;
mod valid;

use proc_macro::TokenStream;
use syn::{DeriveInput, parse_macro_input};

/// Which derive is running: both read `#[pool(...)]`, with different rules.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Derive {
    Pooled,
    Reset,
}

impl Derive {
    fn name(self) -> &'static str {
        match self {
            Derive::Pooled => "Pooled",
            Derive::Reset => "Reset",
        }
    }
}

/// Generates `FooPool`, a fixed-size pool of `Foo`, and implements `pooled::Pooled` for `Foo`.
///
/// The struct takes `#[pool(size = N)]`, the number of objects built up front. Each field is
/// reset through its type's `pooled::Reset`, or as its attribute says: `#[pool(reset = <expr>)]`,
/// `#[pool(reset_with = <function>)]` or `#[pool(keep)]`. The `pooled` crate documents both.
#[proc_macro_derive(Pooled, attributes(pool))]
pub fn derive_pooled(input: TokenStream) -> TokenStream {
    let input = parse_macro_input!(input as DeriveInput);
    expand::derive(&input, Derive::Pooled).into()
}

/// Implements `pooled::Reset` field by field, for types held in pooled objects.
///
/// Fields take the same attributes as with `#[derive(Pooled)]`: `#[pool(reset = <expr>)]`,
/// `#[pool(reset_with = <function>)]` or `#[pool(keep)]`.
#[proc_macro_derive(Reset, attributes(pool))]
pub fn derive_reset(input: TokenStream) -> TokenStream {
    let input = parse_macro_input!(input as DeriveInput);
    expand::derive(&input, Derive::Reset).into()
}
