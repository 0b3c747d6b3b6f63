use crate::slot::occupancy::{Bit, Occupancy};
use crate::slot::state::Place;
use crate::slot::{NIL, Slot};
use crate::storage::part::{Part, PartMut};
use alloc::boxed::Box;
use alloc::vec::Vec;

/// A block of slots that never moves once built, with one occupancy bit per slot.
pub(crate) struct Chunk<T> {
    /// The pool-wide index of the first slot.
    base: usize,
    slots: Box<[Slot<T>]>,
    occupancy: Occupancy,
}

impl<T> Chunk<T> {
    /// `len` blank slots at `version` (even: not live), threaded in order into a free list that
    /// ends in `NIL`.
    pub(crate) fn build(
        base: usize,
        len: usize,
        version: u32,
        mut blank: impl FnMut() -> T,
    ) -> Self {
        let mut slots = Vec::with_capacity(len);
        slots.extend((1..=len).map(|next| {
            let next_free = if next == len {
                NIL
            } else {
                #[expect(clippy::cast_possible_truncation, reason = "indices end below NIL")]
                let next = (base + next) as u32;
                next
            };
            Slot::new(blank(), version, next_free)
        }));
        Self {
            base,
            slots: slots.into_boxed_slice(),
            occupancy: Occupancy::new(len),
        }
    }

    /// A chunk of `slots` from `base` on, with the bits of the live ones set.
    pub(crate) fn from_slots(base: usize, slots: Box<[Slot<T>]>) -> Self {
        let occupancy = Occupancy::new(slots.len());
        for (local, slot) in slots.iter().enumerate() {
            Place::new(slot, occupancy.bit(local)).restore();
        }
        Self {
            base,
            slots,
            occupancy,
        }
    }

    /// A chunk at the same place, each slot made by `slot` from the pool-wide index and slot
    /// here, with the bits of the live ones set (read from the new slots: `slot` runs user code,
    /// `Clone`, and other threads may
    /// make slots here live meanwhile).
    pub(crate) fn map_slots(&self, mut slot: impl FnMut(usize, &Slot<T>) -> Slot<T>) -> Self {
        let slots = (self.slots.iter().enumerate())
            .map(|(local, here)| slot(self.base + local, here))
            .collect();
        Self::from_slots(self.base, slots)
    }

    #[inline]
    pub(crate) fn base(&self) -> usize {
        self.base
    }

    #[inline]
    pub(crate) fn len(&self) -> usize {
        self.slots.len()
    }

    #[inline]
    pub(crate) fn slots(&self) -> &[Slot<T>] {
        &self.slots
    }

    /// The slots beside their occupancy words.
    #[inline]
    pub(crate) fn part(&self) -> Part<'_, T> {
        Part {
            base: self.base,
            slots: &self.slots,
            words: self.occupancy.words(),
        }
    }

    /// The slots, mutably, beside their occupancy words.
    #[inline]
    pub(crate) fn part_mut(&mut self) -> PartMut<'_, T> {
        PartMut {
            base: self.base,
            slots: &mut self.slots,
            words: self.occupancy.words(),
        }
    }

    /// The slot at `local`, an index in the chunk, and its bit: one bounds check, the slot's,
    /// covers both.
    #[inline]
    pub(crate) fn slot(&self, local: usize) -> Option<(&Slot<T>, Bit<'_>)> {
        let slot = self.slots.get(local)?;
        // SAFETY: `local` is a slot's index, and the occupancy is built for the chunk's slots
        // (`Occupancy::new(len)`, in `build` and `from_slots`, neither changed after), so it
        // has a word for the bit of each.
        let bit = unsafe { Bit::new_unchecked(self.occupancy.words(), local) };
        Some((slot, bit))
    }

    /// The slot at `local`, mutably, and its bit.
    #[inline]
    pub(crate) fn slot_mut(&mut self, local: usize) -> Option<(&mut Slot<T>, Bit<'_>)> {
        let slot = self.slots.get_mut(local)?;
        // SAFETY: as in `slot`.
        let bit = unsafe { Bit::new_unchecked(self.occupancy.words(), local) };
        Some((slot, bit))
    }

    /// The version, counted from `offset`, that a chunk built in this one's place must start
    /// from so that no handle into this one can match it: past every version used here. The
    /// chunk's slots are free and none retired, so it is even and not 0.
    pub(crate) fn version_floor(&self, offset: u32) -> u32 {
        self.slots
            .iter()
            .map(|slot| slot.version().wrapping_sub(offset))
            .max()
            .unwrap_or(crate::limits::FIRST_VERSION)
    }
}
