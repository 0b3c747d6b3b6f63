//! The runtime behind [`pooling`](https://docs.rs/pooling): a fixed-size pool engine with
//! generational handles and field-by-field reset.
//!
//! Use it through the `pooling` crate, which re-exports everything here next to the
//! `#[derive(Pooled)]` and `#[derive(Reset)]` macros that drive it:
//!
//! ```
//! use pooling::Pooled;
//!
//! #[derive(Pooled)]
//! #[pool(size = 64)]
//! struct Bullet {
//!     x: f32,
//!     y: f32,
//!     hits: Vec<u32>,
//! }
//!
//! let mut bullets = BulletPool::new();
//! let b = bullets.create(|b| b.x = 4.0).unwrap();
//! bullets.get_mut(b).unwrap().hits.push(7);
//! bullets.release(b).unwrap();
//! assert!(bullets.get(b).is_none());
//! ```
//!
//! A pool changes only through `&mut`; it lends objects for a scope through its [`Lender`]
//! (`pool.lender()`). For a pool shared across threads, whose `create`, `get`, `release` and
//! `acquire` take `&self` and never block, see [`SyncPool`] (`#[pool(size = N, sync)]`).
//!
//! The crate is `#![no_std]`. The default `std` feature adds [`Reset`] for `HashMap`,
//! `HashSet`, `Mutex`, `RwLock` and the other types only `std` has; `alloc` (implied by
//! `std`) adds heap pools, [`Grow`] and `Reset` for the `alloc` collections. Without either,
//! only [`Inline`] pools exist, and nothing allocates.
#![no_std]
#![cfg_attr(docsrs, feature(doc_cfg))]
#![warn(missing_docs)]

#[cfg(feature = "alloc")]
extern crate alloc;
#[cfg(feature = "std")]
extern crate std;

#[cfg(feature = "bevy")]
mod bevy;
mod columns;
mod error;
mod limits;
mod missing;
mod order;
mod pool;
mod pooled;
mod reset;
mod slot;
mod storage;
mod strategy;
// Lock-free: one compare-and-swap per slot state change, on 64-bit words where the target has
// them, else 32-bit ones; through `portable-atomic` on cores without compare-and-swap.
#[cfg(any(target_has_atomic = "32", feature = "portable-atomic"))]
mod sync;

#[doc(hidden)]
#[path = "private.rs"]
pub mod __private;

#[doc(hidden)]
pub use crate::columns::ColumnStore;
pub use crate::columns::{
    CloneFields, ColumnEvictable, ColumnFields, ColumnGroupsMut, ColumnIter, ColumnIterMut,
    ColumnLease, ColumnLender, ColumnLenderIter, ColumnLenderValues, ColumnPool, ColumnRuns,
    ColumnRunsMut, ColumnStorage, ColumnValues, ColumnValuesMut, Columnar,
};
#[cfg(all(feature = "alloc", feature = "serde"))]
pub use crate::columns::{LoadFields, SaveFields};
pub use crate::error::{PoolFull, StaleHandle};
pub use crate::order::{Importance, TotalOrder};
pub use crate::pool::Pool;
pub use crate::pool::groups::GroupsMut;
pub use crate::pool::iter::{Iter, IterMut, Values, ValuesMut};
pub use crate::pool::lease::Lease;
pub use crate::pool::lender::{Lender, LenderIter, LenderValues};
pub use crate::pool::one_thread::ThisThreadOnly;
#[cfg(feature = "rayon")]
pub use crate::pool::par::{ParIter, ParIterMut, ParValues, ParValuesMut};
pub use crate::pool::runs::{Runs, RunsMut};
pub use crate::pool::stats::Stats;
pub use crate::pooled::{Evictable, PlainFields, PoolToken, Pooled};
pub use crate::reset::Reset;
pub use crate::slot::handle::Handle;
pub use crate::storage::{Heap, Inline, Storage};
pub use crate::strategy::{Evict, Fail, Grow, Panic};
#[cfg(all(
    feature = "alloc",
    any(target_has_atomic = "32", feature = "portable-atomic")
))]
pub use crate::sync::OwnedSyncLease;
#[cfg(any(target_has_atomic = "32", feature = "portable-atomic"))]
pub use crate::sync::{SyncGuard, SyncIter, SyncLease, SyncPool};
#[cfg(loom)]
#[doc(hidden)]
pub use crate::sync::{ThreadIds, thread_shard};

#[cfg(test)]
mod tests;
