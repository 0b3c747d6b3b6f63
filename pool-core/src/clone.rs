use crate::free_list::FreeList;
use crate::lock::Lock;
use crate::pooled::blank;
use crate::slot::{INDEX_END, NIL, Slot};
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
        // The objects are cloned without the lock (their `Clone` may reach the pool), so other
        // threads may lend, give back and grow meanwhile; what changes then is only slots that
        // are not live becoming live or lent, and slots added. The copy keeps the slots live
        // when it was made, so every slot it makes blank is free in the copy: the ones on the
        // free list keep their order, found under the lock, and the others (lent) follow.
        let mut live = 0;
        let storage = self.storage.map_slots(|index, slot| {
            if slot.is_live() {
                live += 1;
                let object = slot.get(slot.handle(index)).expect("the slot is live");
                Slot::new_live(object.clone(), slot.version(), index)
            } else {
                Slot::new(blank::<T>(), slot.version(), LENT)
            }
        });
        let free = FreeList::new(0);
        let _locked = self.lock.lock();
        let slot = |index| {
            self.storage
                .slot(index)
                .expect("free-list indices are in the pool")
        };
        let mut last: Option<&Slot<T>> = None;
        for index in self.free.indices(slot) {
            // Slots grown or built after the copy was made are not in it.
            let Some(copy) = storage.slot(index) else {
                continue;
            };
            if copy.next_free() != LENT {
                continue;
            }
            copy.set_next_free(NIL);
            match last {
                Some(last) => free.insert_after(last, index, copy),
                None => free.push(index, copy),
            }
            last = Some(copy);
        }
        for part in storage.chunks() {
            for (local, slot) in part.slots.iter().enumerate() {
                if slot.next_free() == LENT && slot.version() != retired_at {
                    free.push(part.base + local, slot);
                }
            }
        }
        Self {
            storage,
            free,
            counts: self.counts.with_live(live),
            lock: Lock::new(),
            strategy: PhantomData,
        }
    }
}

#[expect(
    clippy::cast_possible_truncation,
    reason = "INDEX_END is below u32::MAX"
)]
const LENT: u32 = INDEX_END as u32;
