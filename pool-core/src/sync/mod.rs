//! The pool shared across threads: [`SyncPool`], its [`SyncGuard`] and [`SyncLease`].

/// A `const fn`, but not under loom, whose atomics' constructors are not `const`: one body for
/// both builds.
macro_rules! const_unless_loom {
    ($(#[$attr:meta])* $vis:vis fn $($rest:tt)*) => {
        #[cfg(not(loom))]
        $(#[$attr])*
        $vis const fn $($rest)*

        #[cfg(loom)]
        $(#[$attr])*
        $vis fn $($rest)*
    };
}

/// An array of `$value`s, in a `const fn` of `const_unless_loom!`: under loom, whose atomics'
/// constructors are not `const`, built by `array::from_fn`.
macro_rules! array_unless_loom {
    ($value:expr; $len:expr) => {{
        #[cfg(not(loom))]
        let array = [const { $value }; $len];
        #[cfg(loom)]
        let array = core::array::from_fn(|_| $value);
        array
    }};
}

/// `Deref`, `DerefMut` and `Debug` (as `$name`) of a lease type through its `lent` field:
/// `SyncLease` and `OwnedSyncLease` differ only in how they reach the pool's slots.
macro_rules! through_lent {
    ($name:literal, [$($param:tt)*] $lease:ty) => {
        impl<T: $crate::Pooled, $($param)*> core::ops::Deref for $lease {
            type Target = T;

            #[inline]
            fn deref(&self) -> &T {
                self.lent.get()
            }
        }

        impl<T: $crate::Pooled, $($param)*> core::ops::DerefMut for $lease {
            #[inline]
            fn deref_mut(&mut self) -> &mut T {
                self.lent.get_mut()
            }
        }

        impl<T: $crate::Pooled + core::fmt::Debug, $($param)*> core::fmt::Debug for $lease {
            fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
                f.debug_tuple($name).field(&**self).finish()
            }
        }
    };
}

mod counts;
mod free_shard;
mod guard;
#[cfg(all(test, not(loom)))]
mod inline_tests;
mod iter;
mod lease;
mod lifecycle;
#[cfg(feature = "alloc")]
mod owned;
mod pool;
mod primitives;
#[cfg(all(test, not(loom)))]
mod server_tests;
mod shard;
mod slots;
// The sealed `SyncStore` trait is reachable through `Storage`, so its methods' crate-private
// types are flagged; no one outside the crate can name the trait to call them.
#[allow(
    private_interfaces,
    private_bounds,
    unreachable_pub,
    reason = "the `SyncStore` trait is sealed"
)]
pub(crate) mod store;
mod strategy;
#[cfg(all(test, not(loom)))]
mod tests;
#[cfg(feature = "async")]
mod wait;

pub use guard::SyncGuard;
pub use iter::SyncIter;
pub use lease::SyncLease;
#[cfg(feature = "alloc")]
pub use owned::OwnedSyncLease;
pub use pool::SyncPool;
#[cfg(loom)]
pub use shard::{ThreadIds, thread_shard};

/// The most slots a sync pool has: slot indices are 32-bit, and with 32-bit words a free list's
/// head holds an index and a tag of at least 16 bits.
#[cfg(all(target_has_atomic = "64", not(pool_core_narrow)))]
pub(crate) const MAX_CAPACITY: usize = crate::limits::MAX_CAPACITY;
#[cfg(not(all(target_has_atomic = "64", not(pool_core_narrow))))]
pub(crate) const MAX_CAPACITY: usize = 65_534;

/// `n` iterations, fewer under Miri.
#[cfg(all(test, not(loom)))]
pub(crate) const fn tests_scale(n: u64) -> u64 {
    if cfg!(miri) { n / 50 + 1 } else { n }
}
