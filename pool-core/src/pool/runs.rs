//! The live objects as runs: slices of objects in consecutive live slots, for loops the
//! compiler vectorizes across objects.

use crate::pool::iter::Bits;
use crate::slot::occupancy::SetBits;
use crate::storage::{Chunks, ChunksMut};
use core::iter::FusedIterator;
use core::mem;

/// The live objects of a pool as slices of consecutive live slots, in slot order; see
/// [`Pool::runs`](crate::Pool::runs).
pub struct Runs<'a, T> {
    objects: &'a [T],
    bits: Bits<'a>,
    rest: Chunks<'a, T>,
}

impl<'a, T> Runs<'a, T> {
    pub(crate) fn new(mut chunks: Chunks<'a, T>) -> Self {
        let first = chunks.next().expect("a pool has a first chunk");
        Self {
            objects: first.objects,
            bits: SetBits::new(first.bits.iter().copied()),
            rest: chunks,
        }
    }
}

impl<'a, T> Iterator for Runs<'a, T> {
    type Item = &'a [T];

    #[inline]
    fn next(&mut self) -> Option<&'a [T]> {
        loop {
            if let Some((start, len)) = self.bits.next_run() {
                // A chunk's bits cover its own slots only: the range is in bounds.
                return self.objects.get(start..start + len);
            }
            let chunk = self.rest.next()?;
            self.objects = chunk.objects;
            self.bits = SetBits::new(chunk.bits.iter().copied());
        }
    }
}

impl<T> FusedIterator for Runs<'_, T> {}

impl<T> Clone for Runs<'_, T> {
    fn clone(&self) -> Self {
        Self {
            objects: self.objects,
            bits: self.bits.clone(),
            rest: self.rest.clone(),
        }
    }
}

/// The live objects of a pool as mutable slices of consecutive live slots, in slot order; see
/// [`Pool::runs_mut`](crate::Pool::runs_mut).
pub struct RunsMut<'a, T> {
    /// The objects of the current chunk not yet passed.
    objects: &'a mut [T],
    /// The index in the chunk of `objects[0]`.
    start: usize,
    bits: Bits<'a>,
    rest: ChunksMut<'a, T>,
}

impl<'a, T> RunsMut<'a, T> {
    pub(crate) fn new(mut chunks: ChunksMut<'a, T>) -> Self {
        let first = chunks.next().expect("a pool has a first chunk");
        Self {
            objects: first.objects,
            start: 0,
            bits: SetBits::new(first.bits.iter().copied()),
            rest: chunks,
        }
    }
}

impl<'a, T> Iterator for RunsMut<'a, T> {
    type Item = &'a mut [T];

    #[inline]
    fn next(&mut self) -> Option<&'a mut [T]> {
        loop {
            if let Some((start, len)) = self.bits.next_run() {
                let objects = mem::take(&mut self.objects);
                let (run, rest) = objects
                    .get_mut(start - self.start..)?
                    .split_at_mut_checked(len)?;
                self.objects = rest;
                self.start = start + len;
                return Some(run);
            }
            let chunk = self.rest.next()?;
            self.objects = chunk.objects;
            self.start = 0;
            self.bits = SetBits::new(chunk.bits.iter().copied());
        }
    }
}

impl<T> FusedIterator for RunsMut<'_, T> {}
