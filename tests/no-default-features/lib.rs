//! The compile errors of `pooling` without its default features (no `std`, no `alloc`): what a
//! pool needs that it does not have, each named. The cases are in `ui/`, run by `ui.rs`; this
//! library is empty.
#![no_std]
