//! The derive macros behind [`pooling`](https://docs.rs/pooling). Use them through the `pooling`
//! crate, which documents them: `use pooling::{Pooled, Reset};`.
//!
//! Each derive runs the same pipeline: parse the input into an intermediate form (`ast`) while
//! reading its `#[pool(...)]` attributes (`attr`), check the rules that span them (`valid`),
//! which leaves settings with nothing missing or contradictory (`config`), and generate code
//! from those (`expand`). Every error found on the way is reported in one
//! compile, each at the token it is about; when there are errors, `fallback` still emits the
//! pool type, so that the one real error is not buried under "cannot find type" errors.

#![warn(missing_docs)]

extern crate proc_macro;

mod ast;
mod attr;
mod bound;
mod columns;
mod config;
mod errors;
mod expand;
mod fallback;
mod field_code;
mod field_trait;
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

#[doc = include_str!("../docs/pooled.md")]
#[proc_macro_derive(Pooled, attributes(pool))]
pub fn derive_pooled(input: TokenStream) -> TokenStream {
    let input = parse_macro_input!(input as DeriveInput);
    expand::derive(&input, Derive::Pooled).into()
}

#[doc = include_str!("../docs/reset.md")]
#[proc_macro_derive(Reset, attributes(pool))]
pub fn derive_reset(input: TokenStream) -> TokenStream {
    let input = parse_macro_input!(input as DeriveInput);
    expand::derive(&input, Derive::Reset).into()
}
