//! A box set at most once through `&self` and read through `&self` after: where a growing pool
//! publishes its grown chunks. Where the pool is `Sync`, an `AtomicPtr` (cheaper than `OnceLock`,
//! whose `get_mut` checks the state of its `Once`); elsewhere a `OnceCell`.
//!
//! Only the thread building for the pool, holding the pool's lock, sets it; anyone reads it.

use alloc::boxed::Box;

#[cfg(all(feature = "std", target_has_atomic = "64", loom))]
use loom::sync::atomic::{AtomicPtr, Ordering};

#[cfg(all(feature = "std", target_has_atomic = "64", not(loom)))]
use core::sync::atomic::{AtomicPtr, Ordering};

#[cfg(all(feature = "std", target_has_atomic = "64"))]
pub(crate) struct OnceBox<T> {
    // Invariant: null, or from `Box::into_raw`, owned by this cell and never changed through
    // `&self` once set.
    ptr: AtomicPtr<T>,
    owns: core::marker::PhantomData<Box<T>>,
}

// SAFETY: the cell owns a `Box<T>`: sending the cell sends the box.
#[cfg(all(feature = "std", target_has_atomic = "64"))]
unsafe impl<T: Send> Send for OnceBox<T> {}

// SAFETY: through `&self` the box is only set, once, by an atomic exchange, and read shared;
// `T: Send` because the box set by one thread is dropped by whichever thread drops the cell.
#[cfg(all(feature = "std", target_has_atomic = "64"))]
unsafe impl<T: Send + Sync> Sync for OnceBox<T> {}

#[cfg(all(feature = "std", target_has_atomic = "64"))]
impl<T> OnceBox<T> {
    pub(crate) fn new() -> Self {
        Self {
            ptr: AtomicPtr::new(core::ptr::null_mut()),
            owns: core::marker::PhantomData,
        }
    }

    #[inline]
    pub(crate) fn get(&self) -> Option<&T> {
        let ptr = self.ptr.load(Ordering::Acquire);
        // SAFETY: a non-null pointer is a box this cell owns, set once and not changed through
        // `&self`; the acquire load sees the boxed value written before the release that set it.
        unsafe { ptr.as_ref() }
    }

    #[inline]
    pub(crate) fn get_mut(&mut self) -> Option<&mut T> {
        let ptr = self.ptr_mut();
        // SAFETY: a non-null pointer is a box this cell owns, and `&mut self` makes the borrow
        // exclusive.
        unsafe { ptr.as_mut() }
    }

    /// The pointer, read through `&mut`: a plain load.
    #[inline]
    fn ptr_mut(&mut self) -> *mut T {
        #[cfg(loom)]
        return self.ptr.with_mut(|ptr| *ptr);
        #[cfg(not(loom))]
        return *self.ptr.get_mut();
    }

    /// Sets the box, or gives `value` back if it was set already.
    pub(crate) fn set(&self, value: Box<T>) -> Result<(), Box<T>> {
        let ptr = Box::into_raw(value);
        match (self.ptr).compare_exchange(
            core::ptr::null_mut(),
            ptr,
            Ordering::AcqRel,
            Ordering::Acquire,
        ) {
            Ok(_) => Ok(()),
            // SAFETY: `ptr` came from `Box::into_raw` just above and was not stored.
            Err(_) => Err(unsafe { Box::from_raw(ptr) }),
        }
    }

    /// Takes the box out, leaving the cell empty.
    pub(crate) fn take(&mut self) -> Option<Box<T>> {
        let ptr = self.ptr_mut();
        if ptr.is_null() {
            return None;
        }
        #[cfg(loom)]
        self.ptr.with_mut(|here| *here = core::ptr::null_mut());
        #[cfg(not(loom))]
        {
            *self.ptr.get_mut() = core::ptr::null_mut();
        }
        // SAFETY: a non-null pointer is a box this cell owned; the cell no longer holds it.
        Some(unsafe { Box::from_raw(ptr) })
    }
}

#[cfg(all(feature = "std", target_has_atomic = "64"))]
impl<T> Drop for OnceBox<T> {
    fn drop(&mut self) {
        drop(self.take());
    }
}

#[cfg(not(all(feature = "std", target_has_atomic = "64")))]
pub(crate) struct OnceBox<T>(core::cell::OnceCell<Box<T>>);

#[cfg(not(all(feature = "std", target_has_atomic = "64")))]
impl<T> OnceBox<T> {
    pub(crate) fn new() -> Self {
        Self(core::cell::OnceCell::new())
    }

    #[inline]
    pub(crate) fn get(&self) -> Option<&T> {
        self.0.get().map(|value| &**value)
    }

    #[inline]
    pub(crate) fn get_mut(&mut self) -> Option<&mut T> {
        self.0.get_mut().map(|value| &mut **value)
    }

    /// Sets the box, or gives `value` back if it was set already.
    pub(crate) fn set(&self, value: Box<T>) -> Result<(), Box<T>> {
        self.0.set(value)
    }

    /// Takes the box out, leaving the cell empty.
    pub(crate) fn take(&mut self) -> Option<Box<T>> {
        self.0.take()
    }
}

impl<T> OnceBox<T> {
    /// A cell holding `value`.
    pub(crate) fn from_value(value: T) -> Self {
        let cell = Self::new();
        if cell.set(Box::new(value)).is_err() {
            unreachable!("a new cell is empty");
        }
        cell
    }
}
