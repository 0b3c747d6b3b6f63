//! The atomics the sync pool uses: loom's under `cfg(loom)`, so that its model checker sees
//! every access, and `core`'s otherwise.

#[cfg(loom)]
pub(crate) use loom::sync::atomic::{AtomicU32, AtomicU64, Ordering};
#[cfg(all(loom, feature = "async"))]
pub(crate) use loom::sync::atomic::{AtomicUsize, fence};

#[cfg(not(loom))]
pub(crate) use core::sync::atomic::{AtomicU32, AtomicU64, Ordering};
#[cfg(all(not(loom), feature = "async"))]
pub(crate) use core::sync::atomic::{AtomicUsize, fence};
