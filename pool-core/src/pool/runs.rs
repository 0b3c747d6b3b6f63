//! The live objects as runs: slices of objects in consecutive live slots, for loops the
//! compiler vectorizes across objects.

use crate::pool::iter::{Exclusive, Shared};
use crate::slot::walk::{Objects, ObjectsMut, Walk};
use core::iter::FusedIterator;

/// The live objects of a pool as slices of consecutive live slots, in slot order; see
/// [`Pool::runs`](crate::Pool::runs).
pub struct Runs<'a, T>(pub(crate) Walk<'a, Objects<'a, T>, Shared<'a, T>>);

impl<'a, T> Iterator for Runs<'a, T> {
    type Item = &'a [T];

    #[inline]
    fn next(&mut self) -> Option<&'a [T]> {
        self.0.next_run()
    }
}

impl<T> FusedIterator for Runs<'_, T> {}

impl<T> Clone for Runs<'_, T> {
    fn clone(&self) -> Self {
        Self(self.0.clone())
    }
}

/// The live objects of a pool as mutable slices of consecutive live slots, in slot order; see
/// [`Pool::runs_mut`](crate::Pool::runs_mut).
pub struct RunsMut<'a, T>(pub(crate) Walk<'a, ObjectsMut<'a, T>, Exclusive<'a, T>>);

impl<'a, T> Iterator for RunsMut<'a, T> {
    type Item = &'a mut [T];

    #[inline]
    fn next(&mut self) -> Option<&'a mut [T]> {
        self.0.next_run()
    }
}

impl<T> FusedIterator for RunsMut<'_, T> {}
