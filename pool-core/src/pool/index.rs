use crate::{Handle, Pool, Pooled, Storage};
use core::ops::{Index, IndexMut};

/// `pool[handle]`: the object `handle` names, as [`get`](Pool::get) returns it.
///
/// ```
/// # use pooling::Pooled;
/// # #[derive(Pooled)]
/// # #[pool(size = 4)]
/// # struct Enemy { health: i32 }
/// let mut enemies = EnemyPool::new();
/// let e = enemies.try_create(|e| e.health = 10)?;
/// enemies[e].health -= 3;
/// assert_eq!(enemies[e].health, 7);
/// # Ok::<(), pooling::PoolFull>(())
/// ```
///
/// # Panics
/// When the handle is stale, or from another pool: use [`get`](Pool::get) where that can happen.
impl<T: Pooled, S, B: Storage> Index<Handle<T>> for Pool<T, S, B> {
    type Output = T;

    #[inline]
    #[track_caller]
    fn index(&self, handle: Handle<T>) -> &T {
        match self.get(handle) {
            Some(object) => object,
            None => stale::<T>(handle),
        }
    }
}

/// `pool[handle] = ...`: the object `handle` names, mutably, as [`get_mut`](Pool::get_mut)
/// returns it.
///
/// # Panics
/// When the handle is stale, or from another pool: use [`get_mut`](Pool::get_mut) where that can
/// happen.
impl<T: Pooled, S, B: Storage> IndexMut<Handle<T>> for Pool<T, S, B> {
    #[inline]
    #[track_caller]
    fn index_mut(&mut self, handle: Handle<T>) -> &mut T {
        match self.get_mut(handle) {
            Some(object) => object,
            None => stale::<T>(handle),
        }
    }
}

#[cold]
#[track_caller]
pub(crate) fn stale<T: Pooled>(handle: Handle<T>) -> ! {
    panic!(
        "{}[{handle}]: no live object has this handle: it was released, or is from another pool; \
         use `get` or `get_mut` where a handle may be stale",
        T::NAME,
    )
}
