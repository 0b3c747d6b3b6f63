//! The books changed through `&mut`: creating, releasing, retaining, growing and shrinking.

use super::counts::Counts;
use super::{Books, Free};
use crate::pooled::blank;
use crate::slot::NIL;
use crate::slot::free_list::{self, FreeStack};
use crate::slot::occupancy;
use crate::slot::walk::{self, ObjectsMut, Strip};
use crate::storage::part::{PartMut, Places};
use crate::storage::slot_ref::SlotMut;
use crate::storage::{Slots, Storage};
use crate::{Handle, Pooled, StaleHandle};
use scopeguard::ScopeGuard;

impl<T: Pooled, B: Storage> Books<T, B> {
    /// Creates an object in the slot at the head of the free list, handing `init` its
    /// handle-to-be, building a slot first for storage that builds them on first use; `None`
    /// when no slot is free.
    #[inline]
    pub(crate) fn create(&mut self, init: impl FnOnce(Handle<T>, &mut T)) -> Option<Handle<T>> {
        // One call of `init` for both paths, so that what it captures stays in registers: the
        // out-of-line path finds the slot and does not take `init`. One compare, of the list's
        // length with its floor, keeps both an empty list and a rising high water mark off the
        // inline path. The paths meet with the slot's chunk and its index there, not the slot:
        // the object and word are then reached from the chunk's starts by a scaled index, where
        // their addresses worked out on each path took three instructions more.
        let counts = Some(&mut self.counts);
        let first = self.slots.first_part_mut();
        let ((part, local), len) = match self.free.next_above_floor() {
            Some((head, len)) if head < first.objects.len() => ((first, head), len),
            _ => Self::free_slot_past_first(&mut self.slots, &mut self.free, counts)?,
        };
        Some(Self::fill(
            (part.base + local, part.into_slot(local)?),
            len,
            &mut self.free,
            &mut self.counts,
            init,
        ))
    }

    /// Creates up to `count` objects in free slots, handing `init` each one's place in the
    /// burst, its handle-to-be and the object, as `create` would one by one, building slots
    /// first for storage that builds them on first use; how many it created. If `init` unwinds,
    /// the objects made before are live and counted, and the slot in hand is free again, reset.
    pub(crate) fn create_many(
        &mut self,
        count: usize,
        mut init: impl FnMut(usize, Handle<T>, &mut T),
    ) -> usize {
        let mut made = 0;
        while made < count {
            made += self.create_run(count - made, made, &mut init);
            if made == count
                || self
                    .create(|handle, object| init(made, handle, object))
                    .is_none()
            {
                break;
            }
            made += 1;
        }
        made
    }

    /// [`create_many`](Books::create_many) while the free list's top is one of the first slots,
    /// the first of them `init`'s `first`th object: the first slots' parts and the list's length
    /// in registers, the counts once at the end. Where the list holds a stretch of consecutive
    /// slots (a fresh pool's, a grown one's, slots released in order), they are filled in
    /// order, their occupancy bits set a word at a time at the stretch's end; elsewhere the
    /// slots `AHEAD` down the list are fetched ahead, so that creates into slots scattered over
    /// a large pool wait for the memory system together rather than one after another.
    #[inline]
    fn create_run(
        &mut self,
        count: usize,
        first: usize,
        init: &mut impl FnMut(usize, Handle<T>, &mut T),
    ) -> usize {
        const AHEAD: usize = 32;
        // Scattered slots taken between two looks for a stretch.
        const SCATTERED: usize = 64;
        let counts = &mut self.counts;
        let Some(part) = self.slots.chunks_mut().next() else {
            return 0;
        };
        let mut stack = self.free.stack();
        stack.edit(|entries, len| {
            let top = *len;
            let listed = entries.get(..top).unwrap_or_default();
            let mut rest = listed.get(top - count.min(top)..).unwrap_or_default();
            // Also while unwinding: the objects made are live, and counted, and the stretch's
            // made so far (`run.1` slots from `run.0`) get their bits.
            let mut burst = scopeguard::guard((part, 0, (0, 0)), |(part, made, run)| {
                occupancy::set_run(part.bits, run.0, run.1);
                *len = top - made - run.1;
                counts.create_many(made + run.1);
            });
            // The burst's `n`th object, in the free slot at `index`: its bit set if `mark`, else
            // left to the caller; false if the slot is not one of the first.
            let mut create = |part: &mut PartMut<'_, T>, n: usize, index: usize, mark: bool| {
                let Some(SlotMut { object, place }) = part.reborrow().into_slot(index) else {
                    return false;
                };
                let handle = place.next_handle(index);
                object.reset_at_reuse();
                let mut object = scopeguard::guard(object, T::reset_at_release);
                init(n, handle, &mut object);
                ScopeGuard::into_inner(object);
                if mark {
                    place.fill(handle);
                } else {
                    place.fill_word(handle);
                }
                true
            };
            while let Some((&next, above)) = rest.split_last() {
                let (part, made, run) = &mut *burst;
                let next = next as usize;
                let up = above.last().is_some_and(|&then| then as usize > next);
                let stretch = free_list::consecutive(rest, up);
                if stretch > 1 && next < part.objects.len() {
                    let n = first + *made;
                    if up {
                        *run = (next, 0);
                        let end = (next + stretch).min(part.objects.len());
                        for index in next..end {
                            create(part, n + (index - next), index, false);
                            run.1 += 1;
                        }
                    } else {
                        *run = (next + 1, 0);
                        for k in 0..stretch.min(next + 1) {
                            create(part, n + k, next - k, false);
                            *run = (next - k, run.1 + 1);
                        }
                    }
                    occupancy::set_run(part.bits, run.0, run.1);
                    rest = rest.get(..rest.len() - run.1).unwrap_or_default();
                    (*made, run.1) = (*made + run.1, 0);
                    continue;
                }
                let (before, scattered) = rest.split_at(rest.len() - rest.len().min(SCATTERED));
                for &index in scattered.iter().rev() {
                    if let Some(&ahead) = listed.get((top - 1 - *made).wrapping_sub(AHEAD)) {
                        part.prefetch(ahead as usize);
                    }
                    if !create(part, first + *made, index as usize, true) {
                        return *made;
                    }
                    *made += 1;
                }
                rest = before;
            }
            burst.1
        })
    }

    /// Whether a slot is on the free list, building one first for storage that builds slots on
    /// first use.
    pub(crate) fn has_free_slot(&mut self) -> bool {
        self.free.top() != NIL
            || Self::free_slot_past_first(&mut self.slots, &mut self.free, None).is_some()
    }

    /// The slot at the head of the free list when it is not one of the first slots, or there is
    /// none and storage that builds slots on first use builds one: out of line, so that the hot
    /// path keeps its registers. `None` when no slot is free; with the slot (its chunk and its
    /// index there), the list's length.
    /// With `counts`, for a `create` whose list may be at its floor: the high water mark counts
    /// the object about to be made (`fill` lowers it again if the reset or `init` unwinds), and
    /// the floor follows it.
    #[cold]
    #[inline(never)]
    fn free_slot_past_first<'s>(
        slots: &'s mut B::Slots<T>,
        free: &mut Free<T, B>,
        counts: Option<&mut Counts>,
    ) -> Option<((PartMut<'s, T>, usize), usize)> {
        if free.top() == NIL {
            free.push(slots.build_next(blank::<T>)?);
            free.forget_floor();
        }
        if let Some(counts) = counts {
            counts.raise_high_water_for_one_more();
            let usable = slots.built() - counts.retired();
            free.set_floor(usable.saturating_sub(counts.high_water()));
        }
        let head = free.top() as usize;
        let part = slots
            .part_mut(head)
            .expect("free-list indices are in the pool");
        Some((part, free.len()))
    }

    /// Fills the free slot at the head of the free list with a new object: resets it, hands
    /// it to `init` with its handle-to-be, then takes the slot off the list and makes it live.
    /// If the reset or `init` unwinds, a high water mark raised for the object is lowered
    /// again, and the floor set with it forgotten.
    #[inline]
    fn fill(
        (index, slot): (usize, SlotMut<'_, T>),
        len: usize,
        free: &mut Free<T, B>,
        counts: &mut Counts,
        init: impl FnOnce(Handle<T>, &mut T),
    ) -> Handle<T> {
        let SlotMut { object, place } = slot;
        let handle = place.next_handle(index);
        // If the reset unwinds, the slot is still on the list: a high water mark raised for
        // the object is all there is to undo.
        let books = scopeguard::guard((free, counts), |(free, counts)| {
            Self::undo_rise(free, counts);
        });
        object.reset_at_reuse();
        let (free, counts) = ScopeGuard::into_inner(books);
        // The slot comes off the free list before `init` runs, so that the list's length stays
        // in a register; if `init` unwinds, the object is reset and the slot goes back on top,
        // and the mark comes down. (`init` cannot reach the pool: it is borrowed mutably.)
        // The slot's index is the handle's: `index` (which checks it) is not kept across `init`.
        free.pop_from(len);
        let mut taken = scopeguard::guard(
            (object, free, &mut *counts),
            move |(object, free, counts)| {
                object.reset_at_release();
                free.push(handle.index());
                Self::undo_rise(free, counts);
            },
        );
        init(handle, taken.0);
        ScopeGuard::into_inner(taken);
        place.fill(handle);
        counts.count_create();
        handle
    }

    /// Lowers a high water mark raised for an object that was not made after all, and forgets
    /// the floor set with it.
    fn undo_rise(free: &mut Free<T, B>, counts: &mut Counts) {
        if counts.undo_rise() {
            free.forget_floor();
        }
    }

    /// Resets the live object `handle` names and frees its slot.
    #[inline]
    pub(crate) fn release(&mut self, handle: Handle<T>) -> Result<(), StaleHandle> {
        let index = handle.index();
        if let Some(slot) = self.slots.first_slot_mut(index) {
            if !slot.place.matches(handle) {
                return Err(StaleHandle::new(handle));
            }
            // `vacate`, with the pool's `retired_at` read where it is compared.
            slot.object.reset_at_release();
            let version = slot.place.end_life();
            self.counts.release();
            // Pushed before the retirement is known, and taken off again in the rare case, so
            // that the list's length is in a register when `create` follows.
            self.free.push_freed(index);
            if version == self.slots.retired_at() {
                self.free.pop();
                self.counts.retire();
            }
            return Ok(());
        }
        self.release_past_first(handle)
    }

    /// [`release`](Books::release) for a handle past the first slots: out of line, so that the
    /// hot path keeps its registers.
    #[cold]
    #[inline(never)]
    fn release_past_first(&mut self, handle: Handle<T>) -> Result<(), StaleHandle> {
        let retired_at = self.slots.retired_at();
        match self.slots.slot_mut(handle.index()) {
            Some(mut slot) if slot.place.matches(handle) => {
                let index = handle.index();
                Self::vacate(
                    &mut slot,
                    index,
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
    fn vacate(
        slot: &mut SlotMut<'_, T>,
        index: usize,
        retired_at: u32,
        free: &mut Free<T, B>,
        counts: &mut Counts,
    ) {
        slot.object.reset_at_release();
        let retired = slot.place.vacate(retired_at);
        counts.release();
        if retired {
            counts.retire();
        } else {
            free.push_freed(index);
        }
    }

    /// Releases the live object `handle` names to make room, counting an eviction.
    pub(crate) fn evict(&mut self, handle: Handle<T>) {
        self.release(handle)
            .expect("the object to evict was just found live");
        self.counts.evict();
    }

    /// Calls `keep` on every live object with its slot's word (its handle's bits), and releases
    /// each one for which it returns false.
    pub(crate) fn retain(&mut self, keep: impl FnMut(u64, &mut T) -> bool) {
        let batch = !T::RESETS_AT_RELEASE;
        self.retain_in(
            |_, objects| ObjectsMut::new(objects),
            batch,
            keep,
            T::reset_at_release,
        );
    }

    /// [`retain`](Books::retain) over each chunk's slots as `strip` gives them from the chunk's
    /// first index and objects (the objects, or a column pool's rows), `reset` resetting each
    /// that goes; `batch` when `reset` runs no code that could panic (see [`walk::retain`]).
    #[expect(
        clippy::inline_always,
        reason = "so that `batch` is a constant: out of line, the frame's `retain` took 3 % more instructions"
    )]
    #[inline(always)]
    pub(crate) fn retain_in<'s, S: Strip<'s>>(
        &'s mut self,
        mut strip: impl FnMut(usize, &'s mut [T]) -> S,
        batch: bool,
        mut keep: impl FnMut(u64, S::One) -> bool,
        mut reset: impl FnMut(S::One),
    ) {
        let retired_at = self.slots.retired_at();
        let (free, counts) = (&mut self.free, &mut self.counts);
        for PartMut {
            base,
            objects,
            words,
            bits,
        } in self.slots.chunks_mut()
        {
            let places = Places::new(words, bits);
            let cells = (places.words(), places.bits());
            walk::retain(
                strip(base, objects),
                cells,
                batch,
                &mut keep,
                |at, place, one| {
                    // If it panics, the object stays live, as a release's does.
                    reset(one);
                    counts.release();
                    if place.vacate(retired_at) {
                        counts.retire();
                    } else {
                        free.push_freed(base + at);
                    }
                },
            );
        }
    }

    /// Adds a chunk of free slots, if the storage grows and the pool holds fewer than `limit`;
    /// false when it cannot.
    #[cfg(feature = "alloc")]
    #[cold]
    pub(crate) fn grow(&mut self, limit: usize) -> bool {
        let Some((first, len)) = self.slots.grow(limit, blank::<T>) else {
            return false;
        };
        self.free.reserve(self.slots.capacity());
        self.free.push_run(first, len);
        self.free.forget_floor();
        true
    }

    /// Gives back the grown chunks whose every slot is free; how many slots they held.
    #[cfg(feature = "alloc")]
    pub(crate) fn shrink(&mut self) -> usize
    where
        B: Storage<Slots<T> = crate::storage::HeapSlots<T>>,
    {
        self.slots.shrink(&mut self.free)
    }

    /// Builds the blank object of every slot not built yet, putting them on the free list to be
    /// taken in index order, ahead of the slots free already. The list is whole after each slot,
    /// so if a blank object's code panics, the slots built before it are in the pool, free.
    pub(crate) fn prefill(&mut self) {
        let below = self.free.len();
        let mut in_order = scopeguard::guard(&mut self.free, |free| {
            free.stack()
                .edit(|entries, len| entries[below..*len].reverse());
        });
        in_order.forget_floor();
        while let Some(index) = self.slots.build_next(blank::<T>) {
            in_order.push(index);
        }
    }
}
