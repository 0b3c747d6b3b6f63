use crate::limits::INDEX_END;
use crate::pooled::blank;
use crate::slot::free_list::FreeList;
use crate::slot::{NIL, Slot};
use crate::storage::lock::Lock;
use crate::storage::{Slots, Storage};
use crate::{Pool, Pooled};
use core::marker::PhantomData;

/// A copy of the pool: every live object cloned into the same slot, at the same version, so
/// every handle good in the pool is good in the copy (a rollback snapshot, a level's saved
/// state). The copy's free slots hold blank objects and are taken in the same order, so the
/// same creates give the same handles in both.
///
/// Objects lent to leases stay with the pool: in the copy their slots are free, and the
/// counts say the leases gave them back.
///
/// `T::clone` may reach the pool being copied (through a thread-local `&'static` pool, say)
/// and lend, give back or keep objects while the copy is made. The copy is then of each slot
/// as it was when the copy reached it: its occupancy bits, free list and counts are made from
/// the copy's own slots, never from the pool's, so the copy is whole whatever `T::clone` does.
/// Slots that such code takes after the copy passed them are free in the copy.
///
/// ```
/// # use pooling::Pooled;
/// # #[derive(Pooled, Clone)]
/// # #[pool(size = 8)]
/// # struct Enemy { health: i32 }
/// let mut enemies = EnemyPool::new();
/// let e = enemies.try_create(|e| e.health = 10)?;
/// let snapshot = enemies.clone();
/// enemies[e].health = 0;
/// enemies = snapshot; // roll back
/// assert_eq!(enemies[e].health, 10);
/// # Ok::<(), pooling::PoolFull>(())
/// ```
impl<T: Pooled + Clone, S, B: Storage> Clone for Pool<T, S, B> {
    fn clone(&self) -> Self {
        let retired_at = self.storage.retired_at();
        // The objects are cloned without the lock (their `Clone` may reach the pool), so this
        // thread's `Clone` or other threads may lend, give back and grow meanwhile. Every free
        // slot of the copy is marked unlisted; the free list is threaded after, under the lock:
        // the pool's free slots in its order, then the others (lent, or taken since the copy
        // passed them).
        let storage = self.storage.map_slots(|index, slot| {
            if slot.is_live() {
                let object = slot.get(slot.handle(index)).expect("the slot is live");
                Slot::new_live(object.clone(), slot.version(), index)
            } else {
                let next = if slot.version() == retired_at {
                    NIL
                } else {
                    UNLISTED
                };
                Slot::new(blank::<T>(), slot.version(), next)
            }
        });
        let free = FreeList::new(0);
        let _locked = self.lock.lock();
        let slot = |index| {
            self.storage
                .slot(index)
                .expect("free-list indices are in the pool")
        };
        let mut tail = None;
        for index in self.free.indices(slot) {
            if let Some(copy) = storage.slot(index) {
                thread(&free, &mut tail, index, copy);
            }
        }
        let (mut live, mut retired) = (0, 0);
        for part in storage.chunks() {
            for (local, copy) in part.slots.iter().enumerate() {
                live += usize::from(copy.is_live());
                retired += usize::from(copy.version() == retired_at);
                thread(&free, &mut tail, part.base + local, copy);
            }
        }
        Self {
            counts: self.counts.for_copy(live, retired),
            storage,
            free,
            lock: Lock::new(),
            strategy: PhantomData,
        }
    }
}

/// Appends `copy`, the slot at `index`, to `free` after `tail`, if it is free and not on the
/// list yet.
fn thread<'a, T>(free: &FreeList, tail: &mut Option<&'a Slot<T>>, index: usize, copy: &'a Slot<T>) {
    if copy.next_free() != UNLISTED {
        return;
    }
    match *tail {
        Some(before) => free.insert_after(before, index, copy),
        None => free.push(index, copy),
    }
    *tail = Some(copy);
}

/// A link no free-list slot has: indices end below it, and `NIL` is above it.
#[expect(
    clippy::cast_possible_truncation,
    reason = "INDEX_END is below u32::MAX"
)]
const UNLISTED: u32 = INDEX_END as u32;
