//! What generated code calls. Not public API: it changes without notice, which is why the
//! `pooling` facade pins this crate to one exact version.

#[cfg(any(target_has_atomic = "32", feature = "portable-atomic"))]
pub use crate::SyncPool;
#[cfg(not(feature = "alloc"))]
pub use crate::missing::AllocFeature;
#[cfg(all(
    feature = "alloc",
    any(target_has_atomic = "32", feature = "portable-atomic"),
    not(feature = "async")
))]
pub use crate::missing::AsyncFeature;
pub use crate::missing::LendsThroughItsLender;
// The stand-ins' modules, so that a compile error names a stand-in by this path
// (`pooling::__private::lending::<impl Pool<T, S, B>>::acquire`), not by the runtime's own.
#[cfg(not(feature = "alloc"))]
pub use crate::missing::heap;
pub use crate::missing::lending;
// The kernel path's methods, so that a compile error names them by this path.
#[cfg(not(feature = "rayon"))]
pub use crate::missing::parallel;
#[cfg(all(
    feature = "alloc",
    any(target_has_atomic = "32", feature = "portable-atomic"),
    not(feature = "async")
))]
pub use crate::missing::waiting;
#[cfg(not(feature = "rayon"))]
pub use crate::missing::{MissingFeature, RayonFeature};
pub use crate::pool::groups;
pub use crate::reset::field::{
    AllocField, BorrowedField, DefaultField, Field, PointerField, SharedField, StdField,
    UnblankField,
};
pub use crate::{ColumnEvictable, ColumnFields, ColumnPool, Columnar};
pub use crate::{
    Evict, Evictable, Fail, Grow, Handle, Importance, Panic, PlainFields, Pool, PoolToken, Pooled,
    Reset,
};

/// Applies an `evict_by` measure, which may be a path or a closure whose parameter type is
/// inferred from `object`.
#[inline]
pub fn measure<T, K>(measure: impl FnOnce(&T) -> K, object: &T) -> K {
    measure(object)
}

/// [`measure`] for a column pool, whose measure ranks a row (`FooRef<'_>`), taken by value.
#[inline]
pub fn measure_row<R, K>(measure: impl FnOnce(R) -> K, row: R) -> K {
    measure(row)
}

/// Generated code calls this to fail with a clear message when `pooling` is this crate renamed.
#[doc(hidden)]
#[macro_export]
macro_rules! __require_pooling_not_pool_core {
    () => {
        ::core::compile_error!(
            "`#[derive(Pooled)]` and `#[derive(Reset)]` need a dependency on the `pooling` crate, not `pool-core`"
        );
    };
}

// What a pool's storage and strategy need of the features and the target, checked where the
// derive generates the pool (one error, at the struct, naming the feature) rather than where
// the user calls `new` ("no function named `new` found for `Pool<..>`"). Each is defined by
// what this crate was built with; the facade re-exports them.

/// A heap pool (`storage = heap`, the default), or with `grow`, a growing one.
#[cfg(feature = "alloc")]
#[doc(hidden)]
#[macro_export]
macro_rules! __require_heap {
    ($($grow:ident)?) => {};
}

/// A heap pool (`storage = heap`, the default), or with `grow`, a growing one.
#[cfg(not(feature = "alloc"))]
#[doc(hidden)]
#[macro_export]
macro_rules! __require_heap {
    () => {
        ::core::compile_error!(
            "this pool keeps its slots on the heap (`storage = heap`, the default), which needs the `alloc` feature of `pooling`: add `features = [\"alloc\"]` to the `pooling` dependency, or keep the slots inside the pool, with no allocator, with `#[pool(storage = inline)]`"
        );
    };
    (grow) => {
        ::core::compile_error!(
            "`on_full = grow` adds chunks of slots on the heap, which needs the `alloc` feature of `pooling`: add `features = [\"alloc\"]` to the `pooling` dependency, or size the pool up front with `on_full = fail`, `panic` or `evict` (and `storage = inline` for no allocator)"
        );
    };
}

/// The type of a `sync` pool, `SyncPool<$args>` under the path `$krate` of the facade, on the
/// heap or (`inline`) not: a macro, so that where the pool cannot exist the alias is this one
/// error (at `sync`, naming the feature) rather than a missing `SyncPool`.
#[cfg(all(
    feature = "alloc",
    any(target_has_atomic = "32", feature = "portable-atomic")
))]
#[doc(hidden)]
#[macro_export]
macro_rules! __sync_pool {
    ($(inline)? [$($krate:tt)*] $($args:tt)*) => { $($krate)*::SyncPool<$($args)*> };
}

/// The type of a `sync` pool.
#[cfg(all(
    not(feature = "alloc"),
    any(target_has_atomic = "32", feature = "portable-atomic")
))]
#[doc(hidden)]
#[macro_export]
macro_rules! __sync_pool {
    (inline [$($krate:tt)*] $($args:tt)*) => { $($krate)*::SyncPool<$($args)*> };
    ($($_:tt)*) => {
        ::core::compile_error!(
            "this `sync` pool keeps its slots on the heap (`storage = heap`, the default), which needs the `alloc` feature of `pooling`: add `features = [\"alloc\"]` (or `\"std\"`) to the `pooling` dependency, or keep the slots inside the pool, with no allocator, with `#[pool(storage = inline)]`"
        )
    };
}

/// The type of a `sync` pool.
#[cfg(not(any(target_has_atomic = "32", feature = "portable-atomic")))]
#[doc(hidden)]
#[macro_export]
macro_rules! __sync_pool {
    ($($_:tt)*) => {
        ::core::compile_error!(
            "a `sync` pool needs compare-and-swap, which this target does not have: enable the `critical-section` feature of `pooling` and provide a critical section (cortex-m's `critical-section-single-core` feature, or your HAL's), or remove `sync` and share the pool behind your own lock"
        )
    };
}
