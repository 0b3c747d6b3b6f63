//! What generated code calls. Not public API: it changes without notice, which is why the
//! `pooled` facade pins this crate to one exact version.

pub use crate::{__pool_create as pool_create, __pool_methods as pool_methods};
pub use crate::{
    Growth, Handle, Importance, Iter, IterMut, Lease, Pool, PoolFull, PoolToken, Pooled, Reset,
    StaleHandle, Stats, Values, ValuesMut,
};
use core::fmt;

/// `Debug` for a generated pool type: its name and its [`Stats`].
pub fn debug_pool<T>(name: &str, pool: &Pool<T>, f: &mut fmt::Formatter<'_>) -> fmt::Result {
    pool.stats().debug_as(name, f)
}

/// `create` for `#[pool(on_full = panic)]`: the panic message names the generated pool.
#[inline]
#[track_caller]
pub fn create_or_panic<T: Pooled>(
    pool: &mut Pool<T>,
    name: &'static str,
    init: impl FnOnce(&mut T),
) -> Handle<T> {
    pool.create_or_panic_named(&name, init)
}

/// `acquire` for `#[pool(on_full = panic)]`: the panic message names the generated pool.
#[inline]
#[track_caller]
pub fn acquire_or_panic<'a, T: Pooled>(
    pool: &'a Pool<T>,
    name: &'static str,
    init: impl FnOnce(&mut T),
) -> Lease<'a, T> {
    pool.acquire_or_panic_named(&name, init)
}

/// Applies an `evict_by` measure, which may be a path or a closure whose parameter type is
/// inferred from `object`.
#[inline]
pub fn measure<T, K>(measure: impl FnOnce(&T) -> K, object: &T) -> K {
    measure(object)
}

/// Generated code calls this to fail with a clear message when `pooled` is this crate renamed.
#[doc(hidden)]
#[macro_export]
macro_rules! __require_pooled_not_pool_core {
    () => {
        ::core::compile_error!(
            "`#[derive(Pooled)]` and `#[derive(Reset)]` need a dependency on the `pooled` crate, not `pool-core`"
        );
    };
}
