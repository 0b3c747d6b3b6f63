//! The pool shared across threads: [`SyncPool`], its [`SyncGuard`] and [`SyncLease`].

mod atomic;
mod cell;
mod counts;
mod free_list;
mod guard;
mod lease;
mod lifecycle;
mod pool;
mod shard;
mod slots;
mod strategy;
#[cfg(all(test, not(loom)))]
mod tests;

pub use guard::SyncGuard;
pub use lease::SyncLease;
pub use pool::SyncPool;
#[cfg(loom)]
pub use shard::{ThreadIds, thread_shard};
