//! Why a lender and its leases stay on one thread, as the compiler says it.

use core::fmt;
use core::marker::PhantomData;
use core::ops::{Deref, DerefMut};

/// What keeps a [`Lender`](crate::Lender), a [`Lease`](crate::Lease) and their column twins
/// on the thread that made them: neither `Send` nor `Sync`, it is the type a compile error
/// names when one is sent or shared. They change the pool's books through `&`, with no lock
/// and no atomic: for a pool that many threads lease from at once, use a
/// [`SyncPool`](crate::SyncPool) (`#[pool(size = N, sync)]`), whose leases are `Send`.
pub struct ThisThreadOnly(PhantomData<*const ()>);

impl ThisThreadOnly {
    pub(crate) const fn new() -> Self {
        Self(PhantomData)
    }
}

impl fmt::Debug for ThisThreadOnly {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("ThisThreadOnly")
    }
}

/// A part of a lender or a lease, beside the [`ThisThreadOnly`] that keeps it on its thread:
/// `Send` and `Sync` itself, so that the compiler names the marker, not the runtime's insides,
/// when the lender or lease is sent or shared.
pub(crate) struct Beside<P>(pub(crate) P);

// SAFETY: a `Beside` is only ever a field of a lender or a lease (or of a type holding one),
// each of which holds a `ThisThreadOnly` too, which is neither `Send` nor `Sync`: no `Beside`
// is sent to another thread, nor reached from one, and these impls only move the compiler's
// complaint to the marker.
unsafe impl<P> Send for Beside<P> {}

// SAFETY: as for `Send`.
unsafe impl<P> Sync for Beside<P> {}

impl<P> Deref for Beside<P> {
    type Target = P;

    #[inline]
    fn deref(&self) -> &P {
        &self.0
    }
}

impl<P> DerefMut for Beside<P> {
    #[inline]
    fn deref_mut(&mut self) -> &mut P {
        &mut self.0
    }
}
