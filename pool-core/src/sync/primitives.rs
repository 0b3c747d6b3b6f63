//! The sync pool's primitives, switched in one place: for loom's under `cfg(loom)`, as
//! sharded-slab's `sync.rs` does; for `portable-atomic`'s with the feature of that name (cores
//! without compare-and-swap, such as `thumbv6m`, through its `critical-section` backend); else
//! `core`'s atomics and `std`'s lock. The atomics, the waiters' lock, the thread-locals, the
//! width of the state words, and the cell holding each object, whose accesses loom checks, so
//! that it reports a read of an object overlapping a write as a data race; otherwise a
//! zero-cost copy of loom's cell API over `core::cell::UnsafeCell`.

#[cfg(loom)]
pub(crate) use loom::sync::atomic::{AtomicU32, AtomicU64, Ordering};
#[cfg(all(loom, feature = "async"))]
pub(crate) use loom::sync::atomic::{AtomicUsize, fence};
#[cfg(all(loom, feature = "async"))]
pub(crate) use loom::sync::{Mutex, MutexGuard};
#[cfg(loom)]
pub(crate) use loom::thread_local;

#[cfg(all(not(loom), not(feature = "portable-atomic")))]
pub(crate) use core::sync::atomic::{AtomicU32, Ordering};
// Unused with 32-bit words and neither `std` nor `async`.
#[cfg(all(not(loom), not(feature = "portable-atomic"), target_has_atomic = "64"))]
#[allow(unused_imports)]
pub(crate) use core::sync::atomic::AtomicU64;
#[cfg(all(not(loom), not(feature = "portable-atomic"), feature = "async"))]
pub(crate) use core::sync::atomic::{AtomicUsize, fence};
#[cfg(all(not(loom), feature = "async"))]
pub(crate) use std::sync::{Mutex, MutexGuard};

#[cfg(all(not(loom), feature = "portable-atomic", target_has_atomic = "64"))]
#[allow(unused_imports)]
pub(crate) use portable_atomic::AtomicU64;
#[cfg(all(not(loom), feature = "portable-atomic"))]
pub(crate) use portable_atomic::{AtomicU32, Ordering};
#[cfg(all(not(loom), feature = "portable-atomic", feature = "async"))]
pub(crate) use portable_atomic::{AtomicUsize, fence};

#[cfg(all(not(loom), feature = "std"))]
pub(crate) use std::thread_local;

/// The state words: a slot's version, state and guard count, a free list's head. 64 bits where
/// the target compares and swaps 64 bits at once; 32 elsewhere (`thumbv7m`, `thumbv6m`), and on
/// any target under `--cfg pool_core_narrow`, which tests the 32-bit layout on the host.
#[cfg(all(target_has_atomic = "64", not(pool_core_narrow)))]
pub(crate) mod word {
    pub(crate) type Word = u64;
    pub(crate) use super::AtomicU64 as AtomicWord;
}

#[cfg(not(all(target_has_atomic = "64", not(pool_core_narrow))))]
pub(crate) mod word {
    pub(crate) type Word = u32;
    pub(crate) use super::AtomicU32 as AtomicWord;
}

/// A count of objects or refusals: 64 bits where the target has 64-bit atomics, else 32 (see
/// `SyncPool::stats`).
#[cfg(all(target_has_atomic = "64", not(pool_core_narrow)))]
pub(crate) type AtomicCount = AtomicU64;
#[cfg(not(all(target_has_atomic = "64", not(pool_core_narrow))))]
pub(crate) type AtomicCount = AtomicU32;

#[cfg(loom)]
pub(crate) use self::checked::{ConstPtr, MutPtr, ObjectCell};
#[cfg(not(loom))]
pub(crate) use self::plain::{ConstPtr, MutPtr, ObjectCell};

/// The value behind a pointer for exclusive access, shared: for `Deref` of an object that its
/// holder may also mutate, without invalidating earlier shared borrows.
///
/// # Safety
/// The object is built, and no exclusive reference to it may be in use while the returned one
/// is.
#[inline]
pub(crate) unsafe fn shared<T>(ptr: &MutPtr<T>) -> &T {
    // SAFETY: the caller's promise.
    unsafe { ptr.deref_shared() }
}

/// A slot's object: built on first use by inline pools, so possibly not yet built; who may
/// touch it, and whether it is built, is the slot's to say (see `SyncSlot`).
#[cfg(not(loom))]
mod plain {
    use core::cell::UnsafeCell;
    use core::mem::MaybeUninit;

    #[repr(transparent)]
    pub(crate) struct ObjectCell<T>(UnsafeCell<MaybeUninit<T>>);

    /// A pointer for shared access to a cell's object.
    pub(crate) struct ConstPtr<T>(*const T);

    /// A pointer for exclusive access to a cell's object.
    pub(crate) struct MutPtr<T>(*mut T);

    impl<T> ObjectCell<T> {
        /// A cell with no object yet.
        pub(crate) const fn new() -> Self {
            Self(UnsafeCell::new(MaybeUninit::uninit()))
        }

        /// A cell holding `object`.
        #[cfg(feature = "alloc")]
        pub(crate) const fn with(object: T) -> Self {
            Self(UnsafeCell::new(MaybeUninit::new(object)))
        }

        #[inline]
        pub(crate) fn get(&self) -> ConstPtr<T> {
            ConstPtr(self.0.get().cast())
        }

        #[inline]
        pub(crate) fn get_mut(&self) -> MutPtr<T> {
            MutPtr(self.0.get().cast())
        }

        /// The object, through an exclusive borrow of the cell.
        ///
        /// # Safety
        /// The object is built.
        #[inline]
        pub(crate) unsafe fn exclusive(&mut self) -> &mut T {
            // SAFETY: the caller's promise.
            unsafe { self.0.get_mut().assume_init_mut() }
        }

        /// Drops the object.
        ///
        /// # Safety
        /// The object is built, and is not used again.
        pub(crate) unsafe fn drop_object(&mut self) {
            // SAFETY: the caller's promise.
            unsafe { self.0.get_mut().assume_init_drop() };
        }
    }

    impl<T> ConstPtr<T> {
        /// # Safety
        /// The object is built, and no exclusive reference to it exists while the returned
        /// one is used.
        #[inline]
        pub(crate) unsafe fn deref(&self) -> &T {
            // SAFETY: the pointer comes from a live cell, and the caller's promise.
            unsafe { &*self.0 }
        }
    }

    impl<T> MutPtr<T> {
        /// # Safety
        /// The object is built, and no other reference to it exists while the returned one is
        /// used.
        #[inline]
        #[expect(
            clippy::mut_from_ref,
            reason = "loom's API: the caller proves exclusivity"
        )]
        pub(crate) unsafe fn deref(&self) -> &mut T {
            // SAFETY: the pointer comes from a live cell, and the caller's promise.
            unsafe { &mut *self.0 }
        }

        /// # Safety
        /// The object is built, and no exclusive reference to it is in use while the returned
        /// one is.
        #[inline]
        pub(crate) unsafe fn deref_shared(&self) -> &T {
            // SAFETY: the pointer comes from a live cell, and the caller's promise.
            unsafe { &*self.0 }
        }

        /// Builds the object in place, over no object (nothing is dropped).
        ///
        /// # Safety
        /// No other reference to the cell's contents exists.
        #[inline]
        pub(crate) unsafe fn write(&self, object: T) {
            // SAFETY: the pointer comes from a live cell, and the caller's promise.
            unsafe { self.0.write(object) };
        }
    }
}

/// The same API over loom's cell, whose accesses loom checks.
#[cfg(loom)]
mod checked {
    use core::mem::MaybeUninit;
    use loom::cell::UnsafeCell;

    pub(crate) struct ObjectCell<T>(UnsafeCell<MaybeUninit<T>>);

    pub(crate) struct ConstPtr<T>(loom::cell::ConstPtr<MaybeUninit<T>>);

    pub(crate) struct MutPtr<T>(loom::cell::MutPtr<MaybeUninit<T>>);

    impl<T> ObjectCell<T> {
        pub(crate) fn new() -> Self {
            Self(UnsafeCell::new(MaybeUninit::uninit()))
        }

        pub(crate) fn with(object: T) -> Self {
            Self(UnsafeCell::new(MaybeUninit::new(object)))
        }

        pub(crate) fn get(&self) -> ConstPtr<T> {
            ConstPtr(self.0.get())
        }

        pub(crate) fn get_mut(&self) -> MutPtr<T> {
            MutPtr(self.0.get_mut())
        }

        /// # Safety
        /// The object is built, and is not used again.
        pub(crate) unsafe fn drop_object(&mut self) {
            self.0.with_mut(|object| {
                // SAFETY: the caller's promise; `&mut self` rules out any other access.
                let object = unsafe { &mut *object };
                // SAFETY: the caller's promise.
                unsafe { object.assume_init_drop() };
            });
        }
    }

    impl<T> ConstPtr<T> {
        /// # Safety
        /// As the plain one's.
        pub(crate) unsafe fn deref(&self) -> &T {
            // SAFETY: the caller's promise.
            let object = unsafe { self.0.deref() };
            // SAFETY: the caller's promise.
            unsafe { object.assume_init_ref() }
        }
    }

    impl<T> MutPtr<T> {
        /// # Safety
        /// As the plain one's.
        #[expect(
            clippy::mut_from_ref,
            reason = "loom's API: the caller proves exclusivity"
        )]
        pub(crate) unsafe fn deref(&self) -> &mut T {
            // SAFETY: the caller's promise.
            let object = unsafe { self.0.deref() };
            // SAFETY: the caller's promise.
            unsafe { object.assume_init_mut() }
        }

        /// # Safety
        /// As the plain one's.
        pub(crate) unsafe fn deref_shared(&self) -> &T {
            // SAFETY: the caller's promise; loom tracks the access as a write.
            unsafe { self.deref() }
        }

        /// # Safety
        /// As the plain one's.
        pub(crate) unsafe fn write(&self, object: T) {
            // SAFETY: the caller's promise.
            unsafe { self.0.deref() }.write(object);
        }
    }
}
