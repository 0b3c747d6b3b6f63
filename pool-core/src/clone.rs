use crate::pooled::blank;
use crate::slot::{INDEX_END, Slot};
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
        // A free slot that is not on the free list is lent: every free slot of the copy is
        // marked lent, then the ones on the list get their links back.
        let storage = self.storage.map_slots(|index, slot| {
            if slot.is_live() {
                let object = slot.get(slot.handle(index)).expect("the slot is live");
                Slot::new(object.clone(), slot.version(), slot.next_free())
            } else {
                let next = if slot.version() == retired_at {
                    slot.next_free()
                } else {
                    LENT
                };
                Slot::new(blank::<T>(), slot.version(), next)
            }
        });
        let slot = |index| {
            self.storage
                .slot(index)
                .expect("free-list indices are in the pool")
        };
        for index in self.free.indices(slot) {
            let copy = storage.slot(index).expect("a slot of the copy");
            copy.set_next_free(slot(index).next_free());
        }
        let free = self.free.clone();
        if self.counts.leased() > 0 {
            for part in storage.chunks() {
                for (local, slot) in part.slots.iter().enumerate() {
                    if !slot.is_live() && slot.next_free() == LENT {
                        free.push(part.base + local, slot);
                    }
                }
            }
        }
        Self {
            storage,
            free,
            counts: self.counts.without_leases(),
            strategy: PhantomData,
        }
    }
}

/// A link no free-list slot has: indices end below it, and `NIL` is above it.
#[expect(
    clippy::cast_possible_truncation,
    reason = "INDEX_END is below u32::MAX"
)]
const LENT: u32 = INDEX_END as u32;
