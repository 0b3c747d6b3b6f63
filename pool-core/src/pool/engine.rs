//! The slot engine under the API: taking, filling, lending and vacating slots, and counting
//! the refusals of a full pool.

use super::Pool;
use crate::limits;
use crate::pool::counts::Counts;
use crate::pool::lease::Lease;
use crate::pooled::blank;
use crate::slot::free_list::FreeList;
use crate::slot::occupancy::Bit;
use crate::slot::state::{Place, PlaceMut};
use crate::slot::{NIL, Slot};
use crate::storage::lock::Lock;
use crate::storage::{Slots, Storage};
use crate::{Handle, PoolFull, Pooled, StaleHandle};
use scopeguard::ScopeGuard;

impl<T: Pooled, S, B: Storage> Pool<T, S, B> {
    /// [`release`](Pool::release) for a handle past the first slots: out of line, so that the
    /// hot path keeps its registers.
    #[cold]
    #[inline(never)]
    pub(super) fn release_past_first(&mut self, handle: Handle<T>) -> Result<(), StaleHandle> {
        let retired_at = self.storage.retired_at();
        match self.storage.slot_mut(handle.index()) {
            Some((slot, bit)) if slot.matches(handle) => {
                Self::vacate(
                    slot,
                    &bit,
                    handle.index(),
                    retired_at,
                    &mut self.free,
                    &mut self.counts,
                );
                Ok(())
            }
            _ => Err(StaleHandle::new(handle)),
        }
    }

    /// Resets a live object and frees its slot. If the reset panics, the object stays live.
    #[inline]
    pub(super) fn vacate(
        slot: &mut Slot<T>,
        bit: &Bit<'_>,
        index: usize,
        retired_at: u32,
        free: &mut FreeList,
        counts: &mut Counts,
    ) {
        slot.value_mut().reset_at_release();
        let retired = PlaceMut::new(slot, bit).vacate(retired_at);
        counts.release_mut();
        // Pushed whatever happens, and taken off again when retired: the same push on every
        // path lets the compiler see that the next `create` takes this slot.
        free.push_mut(index, slot);
        if retired {
            free.pop_head_mut(slot);
            counts.retire_mut();
        }
    }

    /// Creates an object in the slot at the head of the free list, handing `init` its
    /// handle-to-be; `None` when no slot is free.
    #[inline]
    pub(crate) fn create_in_free_slot(
        &mut self,
        init: impl FnOnce(Handle<T>, &mut T),
    ) -> Option<Handle<T>> {
        let head = self.free.head_mut() as usize;
        // One call of `init` for both paths, so that what it captures stays in registers: the
        // out-of-line path finds the slot and does not take `init`.
        let (index, slot, bit) = match self.storage.first_slot_mut(head) {
            Some((slot, bit)) => (head, slot, bit),
            None => Self::free_slot_past_first(&mut self.storage, &self.free, &self.lock)?,
        };
        Some(Self::fill(
            slot,
            &bit,
            index,
            &mut self.free,
            &mut self.counts,
            init,
        ))
    }

    /// The slot at the head of the free list when it is not one of the first slots, or there is
    /// none and storage that builds slots on first use builds one: out of line, so that the hot
    /// path keeps its registers. `None` when no slot is free.
    #[cold]
    #[inline(never)]
    fn free_slot_past_first<'s>(
        storage: &'s mut B::Slots<T>,
        free: &FreeList,
        lock: &Lock,
    ) -> Option<(usize, &'s mut Slot<T>, Bit<'s>)> {
        while free.head() == NIL {
            if !storage.build_next(free, lock, blank::<T>) {
                return None;
            }
        }
        free.head_slot(|index| storage.slot_mut(index))
    }

    /// Fills the free slot at the head of the free list with a new object: resets it, hands
    /// it to `init` with its handle-to-be, then takes the slot off the list and makes it live.
    #[inline]
    fn fill(
        slot: &mut Slot<T>,
        bit: &Bit<'_>,
        index: usize,
        free: &mut FreeList,
        counts: &mut Counts,
        init: impl FnOnce(Handle<T>, &mut T),
    ) -> Handle<T> {
        let handle = slot.next_handle(index);
        // The slot stays on the free list until `init` returns, so that if it unwinds,
        // resetting what it wrote is all there is to undo. (`init` cannot reach the pool: it is
        // borrowed mutably.)
        let value = slot.value_mut();
        value.reset_at_reuse();
        let mut value = scopeguard::guard(value, T::reset_at_release);
        init(handle, &mut value);
        ScopeGuard::into_inner(value);
        free.pop_head_mut(slot);
        PlaceMut::new(slot, bit).fill(handle);
        counts.create_mut();
        handle
    }

    /// Takes the slot at the head of the free list off it and counts it as lent, under the
    /// lock, building a slot first for storage that builds slots on first use; `None` when no
    /// slot is free. The slot is the caller's to lend ([`lend_slot`](Pool::lend_slot)), with
    /// the high water mark from before the count, to undo it.
    #[inline]
    pub(crate) fn take_slot(&self) -> Option<Taking<'_, T>> {
        loop {
            {
                let _locked = self.lock.lock();
                let index = self.free.head();
                if index != NIL {
                    let (slot, bit) = (self.storage)
                        .slot_with_bit(index as usize)
                        .expect("free-list indices are in the pool");
                    let place = Place::new(slot, bit);
                    place.take(&self.free);
                    let high_water = self.counts.high_water();
                    self.counts.lend();
                    return Some(Taking {
                        index: index as usize,
                        place,
                        high_water,
                    });
                }
            }
            if !self.storage.build_next(&self.free, &self.lock, blank::<T>) {
                return None;
            }
        }
    }

    /// Lends the object of a slot just taken off the free list by
    /// [`take_slot`](Pool::take_slot), set up by `init`.
    ///
    /// No lock is held while the object's code runs: `init` may acquire again (the slot in
    /// hand is counted, so a growing pool grows), or be slow, and other threads go on. If the
    /// reset or `init` unwinds, the slot goes back on the free list and the count is undone:
    /// after `init`, reset; after the reset, as it is, as its plain data is reset again when
    /// the slot is next taken.
    #[inline]
    pub(crate) fn lend_slot<'a>(
        &'a self,
        taking: Taking<'a, T>,
        init: impl FnOnce(&mut T),
    ) -> Lease<'a, T> {
        let Taking {
            index,
            place,
            high_water,
        } = taking;
        // SAFETY: the slot was just taken off the free list under the lock, and not lent since
        // (a `Taking` is used once).
        let mut taken = unsafe { place.lend() };
        let (free, counts, lock) = (&self.free, &self.counts, &self.lock);
        let give_back = scopeguard::guard((), |()| {
            let _locked = lock.lock();
            counts.unlend(high_water);
            place.unlend(index, free);
        });
        taken.get_mut().reset_at_reuse();
        let mut value = scopeguard::guard(taken.get_mut(), T::reset_at_release);
        init(&mut value);
        ScopeGuard::into_inner(value);
        ScopeGuard::into_inner(give_back);
        Lease::new(taken, index, place, &self.free, &self.counts, &self.lock)
    }

    /// Lends the object of a free slot, set up by `init`; `None` when no slot is free.
    #[inline]
    pub(crate) fn lend(&self, init: impl FnOnce(&mut T)) -> Option<Lease<'_, T>> {
        let taking = self.take_slot()?;
        Some(self.lend_slot(taking, init))
    }

    /// Releases the live object `handle` names to make room, counting an eviction.
    pub(crate) fn evict(&mut self, handle: Handle<T>) {
        self.release(handle)
            .expect("the object to evict was just found live");
        self.counts.evict_mut();
    }

    /// Counts a refusal, and the error saying so.
    #[cold]
    pub(crate) fn refuse(&self) -> PoolFull {
        {
            let _locked = self.lock.lock();
            self.counts.fail();
        }
        PoolFull::new(self.capacity())
    }

    /// Counts a refusal, and panics saying so.
    #[cold]
    #[track_caller]
    pub(crate) fn panic_full(&self) -> ! {
        {
            let _locked = self.lock.lock();
            self.counts.fail();
        }
        limits::panic_full(T::NAME, self.capacity(), self.counts.high_water());
    }

    /// Sets the version of `handle`'s slot, counted from the pool's offset.
    #[cfg(test)]
    pub(crate) fn force_version(&self, handle: Handle<T>, version: u32) {
        self.storage
            .slot(handle.index())
            .expect("a slot of this pool")
            .force_version(self.storage.version_of(version));
    }

    /// The version that `force_version(handle, relative)` gives a slot: what a handle then
    /// holds.
    #[cfg(test)]
    pub(crate) fn version_of(&self, relative: u32) -> u32 {
        self.storage.version_of(relative)
    }
}

/// A slot taken off the free list and counted as lent, not yet lent: see
/// [`Pool::take_slot`].
pub(crate) struct Taking<'a, T> {
    index: usize,
    place: Place<'a, T>,
    /// The high water mark before the slot was counted.
    high_water: usize,
}
