//! Where a sync pool keeps its slots and books: on the heap ([`Heap`](crate::Heap), sized at run
//! time), or inside the pool ([`Inline`](crate::Inline), `const`-built, for a `static`).

use super::slots::{Books, SyncSlot, SyncSlots, drop_objects};
use crate::Pooled;
#[cfg(feature = "alloc")]
use alloc::boxed::Box;

/// The slots and books of a sync pool, in one storage or another: all that differs between
/// them is where they are and when the objects are built.
#[doc(hidden)]
pub trait SyncStore<T> {
    /// The slots and books, as guards and leases reach them.
    fn slots(&self) -> SyncSlots<'_, T>;

    /// The slot at `index`, through an exclusive borrow.
    fn slot_mut(&mut self, index: usize) -> Option<&mut SyncSlot<T>>;
}

/// Slots in one allocation and books in another, all objects built up front.
#[cfg(feature = "alloc")]
#[doc(hidden)]
pub struct HeapStore<T> {
    all: Box<[SyncSlot<T>]>,
    books: Box<Books>,
}

#[cfg(feature = "alloc")]
impl<T: Pooled> HeapStore<T> {
    /// `capacity` blank objects, all free, their versions counted from `offset`.
    pub(crate) fn new(capacity: usize, offset: u32) -> Self {
        let books = Books::up_front(capacity, offset);
        // Built in place; if a blank object panics, those built before it are dropped.
        let mut all = scopeguard::guard(alloc::vec::Vec::with_capacity(capacity), |mut all| {
            drop_objects(&mut all, &books);
        });
        for _ in 0..capacity {
            all.push(SyncSlot::with(offset, crate::pooled::blank()));
        }
        let all = scopeguard::ScopeGuard::into_inner(all).into_boxed_slice();
        Self {
            all,
            books: Box::new(books),
        }
    }
}

/// `N` slots and the books inside the pool; each object built when its slot is first taken.
#[doc(hidden)]
pub struct InlineStore<T, const N: usize> {
    all: [SyncSlot<T>; N],
    books: Books,
}

impl<T, const N: usize> InlineStore<T, N> {
    const_unless_loom! {
        pub(crate) fn new() -> Self {
            Self {
                all: array_unless_loom!(SyncSlot::unbuilt(); N),
                books: Books::unbuilt::<N>(),
            }
        }
    }
}

/// The two stores differ only in where the slots and books are: one body for both.
macro_rules! store {
    ($(#[$cfg:meta])* [$($param:tt)*] $store:ty) => {
        $(#[$cfg])*
        impl<T: Pooled, $($param)*> SyncStore<T> for $store {
            #[inline]
            fn slots(&self) -> SyncSlots<'_, T> {
                SyncSlots::new(&self.all, &self.books)
            }

            #[inline]
            fn slot_mut(&mut self, index: usize) -> Option<&mut SyncSlot<T>> {
                self.all.get_mut(index)
            }
        }

        $(#[$cfg])*
        impl<T, $($param)*> Drop for $store {
            fn drop(&mut self) {
                drop_objects(&mut self.all, &self.books);
            }
        }
    };
}

store!(#[cfg(feature = "alloc")] [] HeapStore<T>);
store!([const N: usize] InlineStore<T, N>);
