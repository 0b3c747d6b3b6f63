//! A chunk of built slots beside its occupancy words: what storage hands iteration and the pool.

use crate::slot::Slot;
use crate::slot::shared::SharedU64;

/// A chunk of built slots, shared, beside the occupancy words that have a bit for each.
pub(crate) struct Part<'a, T> {
    /// The pool-wide index of `slots[0]`.
    pub(crate) base: usize,
    pub(crate) slots: &'a [Slot<T>],
    pub(crate) words: &'a [SharedU64],
}

impl<T> Clone for Part<'_, T> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<T> Copy for Part<'_, T> {}

/// A chunk of built slots, mutably, beside their occupancy words.
pub(crate) struct PartMut<'a, T> {
    pub(crate) base: usize,
    pub(crate) slots: &'a mut [Slot<T>],
    pub(crate) words: &'a [SharedU64],
}
