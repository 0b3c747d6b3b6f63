//! One slot as the pool changes it through `&mut`: its object, and its word and occupancy bit
//! as a [`Place`].

use crate::slot::state::Place;
use core::cell::Cell;

/// A slot, mutably: its object, and its place (word and bit, as cells).
pub(crate) struct SlotMut<'a, T> {
    pub(crate) object: &'a mut T,
    pub(crate) place: Place<'a>,
}

impl<'a, T> SlotMut<'a, T> {
    #[inline]
    pub(crate) fn new(object: &'a mut T, word: &'a mut u64, bits: &'a mut u64, mask: u64) -> Self {
        Self {
            object,
            place: Place::new(Cell::from_mut(word), Cell::from_mut(bits), mask),
        }
    }
}
