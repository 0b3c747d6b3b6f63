use crate::storage::Storage;
use crate::{Pool, Pooled};

/// A copy of the pool: every live object cloned into the same slot, at the same version, so
/// every handle good in the pool is good in the copy (a rollback snapshot, a level's saved
/// state). The copy's free slots hold blank objects and are taken in the same order, so the
/// same creates give the same handles in both.
///
/// Objects lent to leases that were forgotten (`mem::forget`) stay with the pool: in the copy
/// their slots are free, after the others, and the counts say the leases gave them back.
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
        Self::from_books(self.books().copy())
    }
}
