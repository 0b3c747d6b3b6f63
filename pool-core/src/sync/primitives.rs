//! The sync pool's primitives, switched in one place for loom's under `cfg(loom)`, as
//! sharded-slab's `sync.rs` does: the atomics, the waiters' lock, the thread-locals, and the
//! cell holding each object, whose accesses loom checks, so that it reports a read of an object
//! overlapping a write as a data race. Otherwise `core`'s atomics, `std`'s lock and a zero-cost
//! copy of loom's cell API over `core::cell::UnsafeCell`.

#[cfg(loom)]
pub(crate) use loom::sync::atomic::{AtomicU32, AtomicU64, Ordering};
#[cfg(all(loom, feature = "async"))]
pub(crate) use loom::sync::atomic::{AtomicUsize, fence};
#[cfg(all(loom, feature = "async"))]
pub(crate) use loom::sync::{Mutex, MutexGuard};
#[cfg(loom)]
pub(crate) use loom::thread_local;

#[cfg(not(loom))]
pub(crate) use core::sync::atomic::{AtomicU32, AtomicU64, Ordering};
#[cfg(all(not(loom), feature = "async"))]
pub(crate) use core::sync::atomic::{AtomicUsize, fence};
#[cfg(all(not(loom), feature = "async"))]
pub(crate) use std::sync::{Mutex, MutexGuard};
#[cfg(all(not(loom), feature = "std"))]
pub(crate) use std::thread_local;

#[cfg(loom)]
pub(crate) use loom::cell::{ConstPtr, MutPtr, UnsafeCell};

#[cfg(not(loom))]
pub(crate) use self::plain::{ConstPtr, MutPtr, UnsafeCell};

/// The value behind a pointer for exclusive access, shared: for `Deref` of an object that its
/// holder may also mutate, without invalidating earlier shared borrows.
///
/// # Safety
/// No exclusive reference to the value may be in use while the returned one is.
#[inline]
pub(crate) unsafe fn shared<T>(ptr: &MutPtr<T>) -> &T {
    #[cfg(loom)]
    {
        // SAFETY: the caller rules out other writers; loom tracks the access.
        unsafe { &*ptr.deref() }
    }
    #[cfg(not(loom))]
    {
        // SAFETY: as above; a read through the raw pointer keeps earlier shared borrows valid.
        unsafe { ptr.deref_shared() }
    }
}

#[cfg(not(loom))]
mod plain {
    /// `core::cell::UnsafeCell` with loom's pointer-returning API.
    #[repr(transparent)]
    pub(crate) struct UnsafeCell<T>(core::cell::UnsafeCell<T>);

    /// A pointer for shared access to a cell's value.
    pub(crate) struct ConstPtr<T>(*const T);

    /// A pointer for exclusive access to a cell's value.
    pub(crate) struct MutPtr<T>(*mut T);

    impl<T> UnsafeCell<T> {
        pub(crate) const fn new(value: T) -> Self {
            Self(core::cell::UnsafeCell::new(value))
        }

        #[inline]
        pub(crate) fn get(&self) -> ConstPtr<T> {
            ConstPtr(self.0.get())
        }

        #[inline]
        pub(crate) fn get_mut(&self) -> MutPtr<T> {
            MutPtr(self.0.get())
        }

        /// The value, through an exclusive borrow of the cell: no unsafe needed.
        #[inline]
        pub(crate) fn exclusive(&mut self) -> &mut T {
            self.0.get_mut()
        }
    }

    impl<T> ConstPtr<T> {
        /// # Safety
        /// No exclusive reference to the value may exist while the returned one is used.
        #[inline]
        pub(crate) unsafe fn deref(&self) -> &T {
            // SAFETY: the pointer comes from a live cell, and the caller rules out writers.
            unsafe { &*self.0 }
        }
    }

    impl<T> MutPtr<T> {
        /// # Safety
        /// No other reference to the value may exist while the returned one is used.
        #[inline]
        #[expect(
            clippy::mut_from_ref,
            reason = "loom's API: the caller proves exclusivity"
        )]
        pub(crate) unsafe fn deref(&self) -> &mut T {
            // SAFETY: the pointer comes from a live cell, and the caller rules out any other
            // reference.
            unsafe { &mut *self.0 }
        }

        /// # Safety
        /// No exclusive reference to the value may be in use while the returned one is.
        #[inline]
        pub(crate) unsafe fn deref_shared(&self) -> &T {
            // SAFETY: the pointer comes from a live cell, and the caller rules out writers.
            unsafe { &*self.0 }
        }
    }
}
