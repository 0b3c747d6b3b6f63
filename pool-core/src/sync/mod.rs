//! The pool shared across threads: [`SyncPool`], its [`SyncGuard`] and [`SyncLease`].

mod counts;
mod free_shard;
mod guard;
mod iter;
mod lease;
mod lifecycle;
mod owned;
mod pool;
mod primitives;
#[cfg(all(test, not(loom)))]
mod server_tests;
mod shard;
mod slots;
mod strategy;
#[cfg(all(test, not(loom)))]
mod tests;
#[cfg(feature = "async")]
mod wait;

pub use guard::SyncGuard;
pub use iter::SyncIter;
pub use lease::SyncLease;
pub use owned::OwnedSyncLease;
pub use pool::SyncPool;
#[cfg(loom)]
pub use shard::{ThreadIds, thread_shard};
