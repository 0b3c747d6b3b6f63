//! What generated code calls. Not public API: it changes without notice, which is why the
//! `pooled` facade pins this crate to one exact version.

pub use crate::{
    Handle, Iter, IterMut, Pool, PoolFull, PoolToken, Pooled, Reset, StaleHandle, Stats,
};
use core::fmt;

/// `Debug` for a generated pool type: its name and its [`Stats`].
pub fn debug_pool<T>(name: &str, pool: &Pool<T>, f: &mut fmt::Formatter<'_>) -> fmt::Result {
    pool.debug_as(name, f)
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
