//! What generated code calls. Not public API: it changes without notice, which is why the
//! `pooling` facade pins this crate to one exact version.

#[cfg(all(feature = "alloc", target_has_atomic = "64"))]
pub use crate::SyncPool;
pub use crate::reset::field::{
    AllocField, BorrowedField, DefaultField, Field, PointerField, SharedField, StdField,
    UnblankField,
};
pub use crate::{
    Evict, Evictable, Fail, Grow, Handle, Importance, Panic, Pool, PoolToken, Pooled, Reset,
};

/// Applies an `evict_by` measure, which may be a path or a closure whose parameter type is
/// inferred from `object`.
#[inline]
pub fn measure<T, K>(measure: impl FnOnce(&T) -> K, object: &T) -> K {
    measure(object)
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
