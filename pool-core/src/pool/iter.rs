//! The iterators over a pool's live objects, each the one walk (`slot/walk.rs`) over its
//! chunks' objects: `next` a live slot at a time, `fold` (and so `for_each`) a stretch of full
//! words at a time as one loop over a slice, the other words bit by bit.

use crate::Handle;
use crate::slot::walk::{Chunk, Objects, ObjectsMut, Walk};
use crate::storage::part::{Part, PartMut};
use crate::storage::{Chunks, ChunksMut};
use core::iter::{FusedIterator, Map};

/// A pool's chunks as the walk reads them, shared ([`shared`]) and mutably ([`exclusive`]).
pub(crate) type Shared<'a, T> = Map<Chunks<'a, T>, fn(Part<'a, T>) -> Chunk<'a, Objects<'a, T>>>;
pub(crate) type Exclusive<'a, T> =
    Map<ChunksMut<'a, T>, fn(PartMut<'a, T>) -> Chunk<'a, ObjectsMut<'a, T>>>;

/// The walk over a chunk's objects, shared.
#[inline]
pub(crate) fn shared<T>(part: Part<'_, T>) -> Chunk<'_, Objects<'_, T>> {
    Chunk {
        strip: Objects::new(part.objects),
        words: part.words,
        bits: part.bits,
    }
}

/// The walk over a chunk's objects, mutably.
#[inline]
#[expect(
    clippy::needless_pass_by_value,
    reason = "a `map` over the chunks takes it"
)]
pub(crate) fn exclusive<T>(part: PartMut<'_, T>) -> Chunk<'_, ObjectsMut<'_, T>> {
    Chunk {
        strip: ObjectsMut::new(part.objects),
        words: part.words,
        bits: part.bits,
    }
}

/// The walk over every chunk of a pool, shared.
#[inline]
pub(crate) fn walk<T>(chunks: Chunks<'_, T>) -> Walk<'_, Objects<'_, T>, Shared<'_, T>> {
    let mut chunks: Shared<'_, T> = chunks.map(shared);
    Walk::new(chunks.next().expect("a pool has a first chunk"), chunks)
}

/// The walk over every chunk of a pool, mutably.
#[inline]
pub(crate) fn walk_mut<T>(
    chunks: ChunksMut<'_, T>,
) -> Walk<'_, ObjectsMut<'_, T>, Exclusive<'_, T>> {
    let mut chunks: Exclusive<'_, T> = chunks.map(exclusive);
    Walk::new(chunks.next().expect("a pool has a first chunk"), chunks)
}

/// An iterator over a pool's live objects with their handles, walking `$strip`s, and the same
/// without the handles (`$values`).
macro_rules! iters {
    (
        $(#[$doc:meta])* $name:ident, $strip:ident, $chunks:ident, $walk:ident, $make:ident, $item:ty;
        $(#[$values_doc:meta])* $values:ident, $value:ty
    ) => {
        $(#[$doc])*
        pub struct $name<'a, T> {
            walk: Walk<'a, $strip<'a, T>, $walk<'a, T>>,
            /// Objects live and not yet passed: none starts or stops being live while the pool
            /// is borrowed.
            remaining: usize,
        }

        impl<'a, T> $name<'a, T> {
            pub(crate) fn new(chunks: $chunks<'a, T>, len: usize) -> Self {
                Self {
                    walk: $make(chunks),
                    remaining: len,
                }
            }
        }

        impl<'a, T> Iterator for $name<'a, T> {
            type Item = (Handle<T>, $item);

            #[inline]
            fn next(&mut self) -> Option<Self::Item> {
                let (word, object) = self.walk.next()?;
                self.remaining -= 1;
                Some((Handle::from_live_word(word), object))
            }

            #[inline]
            fn size_hint(&self) -> (usize, Option<usize>) {
                (self.remaining, Some(self.remaining))
            }

            #[inline]
            fn fold<B, F: FnMut(B, Self::Item) -> B>(self, init: B, mut f: F) -> B {
                (self.walk).fold(init, |acc, word, object| {
                    f(acc, (Handle::from_live_word(word), object))
                })
            }
        }

        impl<T> ExactSizeIterator for $name<'_, T> {}
        impl<T> FusedIterator for $name<'_, T> {}

        $(#[$values_doc])*
        pub struct $values<'a, T>(pub(crate) $name<'a, T>);

        impl<'a, T> Iterator for $values<'a, T> {
            type Item = $value;

            #[inline]
            fn next(&mut self) -> Option<$value> {
                self.0.next().map(|(_, object)| object)
            }

            #[inline]
            fn size_hint(&self) -> (usize, Option<usize>) {
                self.0.size_hint()
            }

            #[inline]
            fn fold<B, F: FnMut(B, Self::Item) -> B>(self, init: B, mut f: F) -> B {
                (self.0.walk).fold(init, |acc, _, object| f(acc, object))
            }
        }

        impl<T> ExactSizeIterator for $values<'_, T> {}
        impl<T> FusedIterator for $values<'_, T> {}
    };
}

iters!(
    /// The live objects of a pool with their handles, in slot order; see
    /// [`Pool::iter`](crate::Pool::iter).
    ///
    /// It is `Send` and `Sync` when `T` is `Sync`, so that it can be split over threads; so is
    /// [`Values`].
    Iter, Objects, Chunks, Shared, walk, &'a T;
    /// The live objects of a pool, in slot order; see [`Pool::values`](crate::Pool::values).
    Values, &'a T
);

iters!(
    /// The live objects of a pool with their handles, mutably, in slot order; see
    /// [`Pool::iter_mut`](crate::Pool::iter_mut).
    ///
    /// It is `Send` when `T` is `Send`; so is [`ValuesMut`].
    IterMut, ObjectsMut, ChunksMut, Exclusive, walk_mut, &'a mut T;
    /// The live objects of a pool, mutably, in slot order; see
    /// [`Pool::values_mut`](crate::Pool::values_mut).
    ValuesMut, &'a mut T
);

impl<T> Clone for Iter<'_, T> {
    fn clone(&self) -> Self {
        Self {
            walk: self.walk.clone(),
            remaining: self.remaining,
        }
    }
}

impl<T> Clone for Values<'_, T> {
    fn clone(&self) -> Self {
        Self(self.0.clone())
    }
}
