#![cfg_attr(not(doctest), doc = include_str!("../README.md"))]
#![no_std]
#![cfg_attr(docsrs, feature(doc_cfg))]
#![warn(missing_docs)]

#[cfg(all(
    feature = "alloc",
    any(target_has_atomic = "32", feature = "portable-atomic")
))]
pub use pool_core::OwnedSyncLease;
pub use pool_core::{
    CloneFields, ColumnEvictable, ColumnFields, ColumnGroupsMut, ColumnIter, ColumnIterMut,
    ColumnLease, ColumnLender, ColumnLenderIter, ColumnLenderValues, ColumnPool, ColumnRuns,
    ColumnRunsMut, ColumnStorage, ColumnValues, ColumnValuesMut, Columnar,
};
pub use pool_core::{
    Evict, Evictable, Fail, GroupsMut, Grow, Handle, Heap, Importance, Inline, Iter, IterMut,
    Lease, Lender, LenderIter, LenderValues, Panic, PlainFields, Pool, PoolFull, PoolToken, Pooled,
    Reset, Runs, RunsMut, StaleHandle, Stats, Storage, ThisThreadOnly, TotalOrder, Values,
    ValuesMut,
};
#[cfg(all(feature = "alloc", feature = "serde"))]
pub use pool_core::{LoadFields, SaveFields};
#[cfg(feature = "rayon")]
pub use pool_core::{ParIter, ParIterMut, ParValues, ParValuesMut};
#[cfg(any(target_has_atomic = "32", feature = "portable-atomic"))]
pub use pool_core::{SyncGuard, SyncIter, SyncLease, SyncPool};
pub use pool_derive::{Pooled, Reset};

/// Every compile error the derives and the pools' borrow rules cause, with what to do about it.
#[doc = include_str!("../ERRORS.md")]
pub mod compile_errors {}

/// How fast pooling is against its peers, measured side by side, and what limits each figure: the
/// package's BENCHMARKS.md. The benches themselves are the `pooling-benches` workspace member.
#[allow(
    clippy::doc_markdown,
    reason = "measurement notes name peers and workloads as written"
)]
#[doc = include_str!("../BENCHMARKS.md")]
pub mod benchmarks {}

#[doc(hidden)]
pub mod __private {
    pub use pool_core::__private::*;
}

// Generated code checks with these that the pool it defines can exist with the features and
// target `pool-core` was built with, and fails naming the feature if not.
#[doc(hidden)]
pub use pool_core::{__require_heap, __sync_pool};

/// Generated code checks with this that it found the `pooling` facade, whose version pins the
/// runtime's; `pool-core` defines a version of it that fails to compile.
#[doc(hidden)]
#[macro_export]
macro_rules! __require_pooling_not_pool_core {
    () => {};
}
