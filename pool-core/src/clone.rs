use crate::pooled::blank;
use crate::slot::Slot;
use crate::{Pool, Pooled};
use alloc::vec::Vec;
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
/// # use pooled::Pooled;
/// # #[derive(Pooled, Clone)]
/// # #[pool(size = 8)]
/// # struct Enemy { health: i32 }
/// let mut enemies = EnemyPool::new();
/// let e = enemies.try_create(|e| e.health = 10)?;
/// let snapshot = enemies.clone();
/// enemies[e].health = 0;
/// enemies = snapshot; // roll back
/// assert_eq!(enemies[e].health, 10);
/// # Ok::<(), pooled::PoolFull>(())
/// ```
impl<T: Pooled + Clone, S> Clone for Pool<T, S> {
    fn clone(&self) -> Self {
        let retired_at = self.storage.retired_at();
        let mut on_list: Vec<usize> = self
            .free
            .indices(|index| {
                self.storage
                    .slot(index)
                    .expect("free-list indices are in the pool")
            })
            .collect();
        on_list.sort_unstable();
        let mut lent = Vec::new();
        let storage = self.storage.map_slots(|index, slot| {
            let object = if slot.is_live() {
                slot.get(slot.handle(index))
                    .expect("the slot is live")
                    .clone()
            } else {
                if slot.version() != retired_at && on_list.binary_search(&index).is_err() {
                    lent.push(index);
                }
                blank::<T>()
            };
            Slot::new(object, slot.version(), slot.next_free())
        });
        let free = self.free.clone();
        for index in lent {
            free.push(index, storage.slot(index).expect("a slot of the copy"));
        }
        Self {
            storage,
            free,
            counts: self.counts.without_leases(),
            strategy: PhantomData,
        }
    }
}
