//! The cells a [`Pool`](crate::Pool) keeps its books in: atomics where the pool is `Sync` (with
//! `std` and 64-bit atomics), `Cell`s elsewhere, with one API, so that the pool's code is the
//! same for both. Under `cfg(loom)` the atomics are loom's, so that its model checker sees every
//! access.
//!
//! `get` and `set` are acquire loads and release stores: readers outside the pool's lock (a
//! lookup, iteration) see what was written before a bit or version they read. Through `&mut`,
//! `load_mut` and `store_mut` are plain loads and stores (`get_mut`), so that the `&mut Pool`
//! hot paths pay nothing.

/// Defines a cell type over `$int`: an atomic `$atomic` where the pool is `Sync`, a `Cell`
/// elsewhere.
macro_rules! shared {
    ($(#[$doc:meta])* $name:ident, $int:ty, $atomic:ident) => {
        $(#[$doc])*
        pub(crate) struct $name {
            #[cfg(all(feature = "std", target_has_atomic = "64"))]
            value: atomic::$atomic,
            #[cfg(not(all(feature = "std", target_has_atomic = "64")))]
            value: core::cell::Cell<$int>,
        }

        impl $name {
            #[cfg(not(loom))]
            #[inline]
            pub(crate) const fn new(value: $int) -> Self {
                Self {
                    #[cfg(all(feature = "std", target_has_atomic = "64"))]
                    value: atomic::$atomic::new(value),
                    #[cfg(not(all(feature = "std", target_has_atomic = "64")))]
                    value: core::cell::Cell::new(value),
                }
            }

            /// loom's atomics are not `const`.
            #[cfg(loom)]
            #[inline]
            pub(crate) fn new(value: $int) -> Self {
                Self {
                    value: atomic::$atomic::new(value),
                }
            }

            #[inline]
            pub(crate) fn get(&self) -> $int {
                #[cfg(all(feature = "std", target_has_atomic = "64"))]
                return self.value.load(atomic::Ordering::Acquire);
                #[cfg(not(all(feature = "std", target_has_atomic = "64")))]
                return self.value.get();
            }

            #[inline]
            pub(crate) fn set(&self, value: $int) {
                #[cfg(all(feature = "std", target_has_atomic = "64"))]
                self.value.store(value, atomic::Ordering::Release);
                #[cfg(not(all(feature = "std", target_has_atomic = "64")))]
                self.value.set(value);
            }

            /// The value, read through `&mut`: a plain load.
            #[inline]
            pub(crate) fn load_mut(&mut self) -> $int {
                #[cfg(all(feature = "std", target_has_atomic = "64", loom))]
                return self.value.with_mut(|value| *value);
                #[cfg(all(feature = "std", target_has_atomic = "64", not(loom)))]
                return *self.value.get_mut();
                #[cfg(not(all(feature = "std", target_has_atomic = "64")))]
                return *self.value.get_mut();
            }

            /// Sets the value through `&mut`: a plain store.
            #[inline]
            pub(crate) fn store_mut(&mut self, value: $int) {
                #[cfg(all(feature = "std", target_has_atomic = "64", loom))]
                self.value.with_mut(|here| *here = value);
                #[cfg(all(feature = "std", target_has_atomic = "64", not(loom)))]
                {
                    *self.value.get_mut() = value;
                }
                #[cfg(not(all(feature = "std", target_has_atomic = "64")))]
                {
                    *self.value.get_mut() = value;
                }
            }
        }

        impl Clone for $name {
            fn clone(&self) -> Self {
                Self::new(self.get())
            }
        }
    };
}

#[cfg(all(feature = "std", target_has_atomic = "64"))]
mod atomic {
    #[cfg(loom)]
    pub(crate) use loom::sync::atomic::{AtomicU32, AtomicU64, AtomicUsize, Ordering};

    #[cfg(not(loom))]
    pub(crate) use core::sync::atomic::{AtomicU32, AtomicU64, AtomicUsize, Ordering};
}

shared!(
    /// A `u32` of the pool's books: a slot's version or link, the head of the free list.
    SharedU32,
    u32,
    AtomicU32
);
shared!(
    /// A `u64` of the pool's books: a count, a word of occupancy bits, a slot's version and link.
    SharedU64,
    u64,
    AtomicU64
);

/// The index of a `u64`'s low half in [`SharedU64::with_halves_mut`]'s array.
pub(crate) const LOW: usize = if cfg!(target_endian = "little") { 0 } else { 1 };
/// The index of a `u64`'s high half in [`SharedU64::with_halves_mut`]'s array.
pub(crate) const HIGH: usize = 1 - LOW;

impl SharedU64 {
    /// Hands `f` the value's two halves (at [`LOW`] and [`HIGH`]), through `&mut`: plain 32-bit
    /// loads and stores, which the compiler keeps apart where it would join two changes to a
    /// `u64` into shifts and masks.
    #[inline]
    pub(crate) fn with_halves_mut<R>(&mut self, f: impl FnOnce(&mut [u32; 2]) -> R) -> R {
        #[cfg(loom)]
        return self.value.with_mut(|value| {
            #[expect(clippy::cast_possible_truncation, reason = "the halves")]
            let mut halves = if LOW == 0 {
                [*value as u32, (*value >> 32) as u32]
            } else {
                [(*value >> 32) as u32, *value as u32]
            };
            let result = f(&mut halves);
            *value = u64::from(halves[HIGH]) << 32 | u64::from(halves[LOW]);
            result
        });
        #[cfg(not(loom))]
        {
            let value: &mut u64 = self.value.get_mut();
            // SAFETY: `u64` and `[u32; 2]` have the same size, a `u64` is aligned at least as a
            // `u32` is, every bit pattern is valid for both, and `&mut self` makes the borrow
            // exclusive; `LOW` and `HIGH` follow the target's byte order.
            let halves = unsafe { &mut *core::ptr::from_mut(value).cast::<[u32; 2]>() };
            f(halves)
        }
    }
}
shared!(
    /// A `usize` of the pool's books: a count of slots.
    SharedUsize,
    usize,
    AtomicUsize
);
