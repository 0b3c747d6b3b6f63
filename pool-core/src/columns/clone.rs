//! A copy of a column pool, as a [`Pool`](crate::Pool)'s: live rows cloned into the same slots
//! at the same versions, free rows blank.

use super::fields::{CloneFields, ColumnFields};
use super::store::{ColumnStorage, ColumnStore};
use super::{ColumnPool, Columnar, Row};
use crate::Pool;

impl<P> Clone for Row<P> {
    fn clone(&self) -> Self {
        Row(core::marker::PhantomData)
    }
}

/// A copy of the pool: every live object cloned, field by field, into the same slot at the same
/// version, so every handle good in the pool is good in the copy (a rollback snapshot); the
/// copy's free slots hold blank rows and are taken in the same order.
///
/// ```
/// # use pooling::Pooled;
/// # #[derive(Pooled)]
/// # #[pool(size = 8, layout = columns)]
/// # struct Enemy { health: i32, name: String }
/// let mut enemies = EnemyPool::new();
/// let e = enemies.create(|e| {
///     *e.health = 10;
///     e.name.push_str("orc");
/// })?;
/// let snapshot = enemies.clone();
/// *enemies.get_mut(e).unwrap().health = 0;
/// enemies = snapshot; // roll back
/// assert_eq!(*enemies.get(e).unwrap().health, 10);
/// assert_eq!(enemies.get(e).unwrap().name, "orc");
/// # Ok::<(), pooling::PoolFull>(())
/// ```
impl<P: Columnar, S, B: ColumnStorage> Clone for ColumnPool<P, S, B>
where
    P::Fields: CloneFields,
    Pool<Row<P>, S, B>: Clone,
{
    fn clone(&self) -> Self {
        let keys = self.keys.clone();
        let mut columns = Self::blank_columns(&keys);
        for (handle, _) in &self.keys {
            let index = handle.index();
            if let (Some(row), Some(copy)) = (self.columns.row(index), columns.row_mut(index)) {
                P::Fields::write(copy, P::Fields::clone_row(row));
            }
        }
        Self { keys, columns }
    }
}
