use crate::Handle;
use crate::pool::iter::{Walk, WalkMut};
use crate::slot::occupancy::BITS;
use crate::storage::part::{Part, PartMut};
use crate::storage::slots::{Chunks, ChunksMut, Rest, RestMut};
use core::iter;
use core::marker::PhantomData;
use rayon::iter::plumbing::{Folder, UnindexedProducer};

/// Slots of a pool, shared, for a parallel walk: a run of one chunk that starts at a group of 64
/// slots (one occupancy word), and the whole chunks after it. It halves at chunk boundaries while
/// it holds more than one chunk, then at group boundaries.
pub(crate) struct Span<'a, T> {
    head: Part<'a, T>,
    rest: Rest<'a, T>,
}

impl<'a, T> Span<'a, T> {
    /// Every slot of `parts` (a pool's, from `Slots::parts`).
    pub(crate) fn new((head, rest): (Part<'a, T>, Rest<'a, T>)) -> Self {
        Self { head, rest }
    }

    fn chunks(self) -> Chunks<'a, T> {
        iter::once(self.head).chain(self.rest)
    }

    /// The first half and, if the span holds more than one group, the second.
    pub(crate) fn split(self) -> (Self, Option<Self>) {
        let Self { head, rest } = self;
        match rest.halve(head.objects.len()) {
            Ok((rest, next, after)) => (
                Self { head, rest },
                Some(Self {
                    head: next,
                    rest: after,
                }),
            ),
            Err(rest) => {
                let groups = head.objects.len().div_ceil(BITS);
                match head.split_at_group(groups / 2 * BITS) {
                    Ok((first, second)) => (
                        Self { head: first, rest },
                        Some(Self {
                            head: second,
                            rest: crate::storage::slots::no_rest(),
                        }),
                    ),
                    Err(head) => (Self { head, rest }, None),
                }
            }
        }
    }
}

/// [`Span`], mutably: the slots of each run are borrowed exclusively, so spans never overlap.
pub(crate) struct SpanMut<'a, T> {
    head: PartMut<'a, T>,
    rest: RestMut<'a, T>,
}

impl<'a, T> SpanMut<'a, T> {
    /// Every slot of `parts` (a pool's, from `Slots::parts_mut`).
    pub(crate) fn new((head, rest): (PartMut<'a, T>, RestMut<'a, T>)) -> Self {
        Self { head, rest }
    }

    pub(crate) fn chunks(self) -> ChunksMut<'a, T> {
        iter::once(self.head).chain(self.rest)
    }

    /// The first half and, if the span holds more than one group, the second.
    pub(crate) fn split(self) -> (Self, Option<Self>) {
        let Self { head, rest } = self;
        match rest.halve(head.objects.len()) {
            Ok((rest, next, after)) => (
                Self { head, rest },
                Some(Self {
                    head: next,
                    rest: after,
                }),
            ),
            Err(rest) => {
                let groups = head.objects.len().div_ceil(BITS);
                match head.split_at_group(groups / 2 * BITS) {
                    Ok((first, second)) => (
                        Self { head: first, rest },
                        Some(Self {
                            head: second,
                            rest: crate::storage::slots::no_rest_mut(),
                        }),
                    ),
                    Err(head) => (Self { head, rest }, None),
                }
            }
        }
    }

    /// The pool-wide index, length and word count of each chunk run in the span, in order.
    #[cfg(test)]
    pub(crate) fn runs(self) -> alloc::vec::Vec<(usize, usize, usize)> {
        self.chunks()
            .map(|part| (part.base, part.objects.len(), part.bits.len()))
            .collect()
    }
}

/// What a walk hands out for each live object, through `&Pool`.
pub(crate) trait Pick<'a, T: 'a> {
    type Item;
    fn pick(word: &'a u64, object: &'a T) -> Self::Item;
}

/// What a walk hands out for each live object, through `&mut Pool`.
pub(crate) trait PickMut<'a, T: 'a> {
    type Item;
    fn pick(word: &'a u64, object: &'a mut T) -> Self::Item;
}

/// Each object with its handle.
pub(crate) struct Handles;

/// Each object alone.
pub(crate) struct Objects;

impl<'a, T: 'a> Pick<'a, T> for Handles {
    type Item = (Handle<T>, &'a T);

    #[inline]
    fn pick(&word: &'a u64, object: &'a T) -> Self::Item {
        (Handle::from_live_word(word), object)
    }
}

impl<'a, T: 'a> Pick<'a, T> for Objects {
    type Item = &'a T;

    #[inline]
    fn pick(_: &'a u64, object: &'a T) -> &'a T {
        object
    }
}

impl<'a, T: 'a> PickMut<'a, T> for Handles {
    type Item = (Handle<T>, &'a mut T);

    #[inline]
    fn pick(&word: &'a u64, object: &'a mut T) -> Self::Item {
        (Handle::from_live_word(word), object)
    }
}

impl<'a, T: 'a> PickMut<'a, T> for Objects {
    type Item = &'a mut T;

    #[inline]
    fn pick(_: &'a u64, object: &'a mut T) -> &'a mut T {
        object
    }
}

/// The live objects of a [`Span`], as `P` picks them: a rayon producer.
pub(crate) struct Walked<'a, T, P> {
    span: Span<'a, T>,
    pick: PhantomData<fn() -> P>,
}

impl<'a, T, P> Walked<'a, T, P> {
    pub(crate) fn new(span: Span<'a, T>) -> Self {
        Self {
            span,
            pick: PhantomData,
        }
    }
}

impl<'a, T: Send + Sync + 'a, P: Pick<'a, T>> UnindexedProducer for Walked<'a, T, P> {
    type Item = P::Item;

    fn split(self) -> (Self, Option<Self>) {
        let (first, second) = self.span.split();
        (Self::new(first), second.map(Self::new))
    }

    fn fold_with<F: Folder<P::Item>>(self, folder: F) -> F {
        let mut walk = Walk::new(self.span.chunks());
        folder.consume_iter(iter::from_fn(move || {
            let (word, object) = walk.next()?;
            Some(P::pick(word, object))
        }))
    }
}

/// The live objects of a [`SpanMut`], as `P` picks them: a rayon producer.
pub(crate) struct WalkedMut<'a, T, P> {
    span: SpanMut<'a, T>,
    pick: PhantomData<fn() -> P>,
}

impl<'a, T, P> WalkedMut<'a, T, P> {
    pub(crate) fn new(span: SpanMut<'a, T>) -> Self {
        Self {
            span,
            pick: PhantomData,
        }
    }
}

impl<'a, T: Send + 'a, P: PickMut<'a, T>> UnindexedProducer for WalkedMut<'a, T, P> {
    type Item = P::Item;

    fn split(self) -> (Self, Option<Self>) {
        let (first, second) = self.span.split();
        (Self::new(first), second.map(Self::new))
    }

    fn fold_with<F: Folder<P::Item>>(self, folder: F) -> F {
        folder.consume_iter(
            WalkMut::new(self.span.chunks()).map(|(word, object)| P::pick(word, object)),
        )
    }
}

/// The chunk runs of a [`SpanMut`], each whole: a rayon producer for `par_retain`, whose
/// folder walks each run itself, as it needs the run's occupancy words.
pub(crate) struct Runs<'a, T>(pub(crate) SpanMut<'a, T>);

impl<'a, T: Send + 'a> UnindexedProducer for Runs<'a, T> {
    type Item = PartMut<'a, T>;

    fn split(self) -> (Self, Option<Self>) {
        let (first, second) = self.0.split();
        (Self(first), second.map(Self))
    }

    fn fold_with<F: Folder<PartMut<'a, T>>>(self, folder: F) -> F {
        folder.consume_iter(self.0.chunks())
    }
}
