//! `Serialize` and `Deserialize` for handles and pools, with the `serde` feature.

use crate::Handle;
use serde::de::{self, Unexpected};
use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// A handle serializes as the number [`to_bits`](Handle::to_bits) gives.
impl<T> Serialize for Handle<T> {
    fn serialize<Z: Serializer>(&self, serializer: Z) -> Result<Z::Ok, Z::Error> {
        serializer.serialize_u64(self.to_bits())
    }
}

/// A handle deserializes from the number [`to_bits`](Handle::to_bits) gave, and refuses one that
/// no pool issues (see [`from_bits`](Handle::from_bits)).
impl<'de, T> Deserialize<'de> for Handle<T> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let bits = u64::deserialize(deserializer)?;
        Handle::from_bits(bits).ok_or_else(|| {
            de::Error::invalid_value(Unexpected::Unsigned(bits), &"the bits of a pooled handle")
        })
    }
}

/// Pools serialize slot for slot (with `alloc`: a save is read into `Vec`s).
#[cfg(feature = "alloc")]
mod pools {
    use crate::pool::books::save;
    use crate::{Heap, Inline, Pool, Pooled};
    use serde::de;
    use serde::{Deserialize, Deserializer, Serialize, Serializer};

    /// A pool serializes slot for slot: every live object under its handle, the versions that
    /// keep old handles stale, the order free slots are taken in, and the counts behind
    /// [`stats`](Pool::stats). Objects lent to leases that were forgotten stay with the pool:
    /// saved, their slots are free, as in a [`clone`](Pool::clone).
    ///
    /// ```
    /// # use pooling::{Handle, Pooled};
    /// # use serde::{Deserialize, Serialize};
    /// #[derive(Pooled, Serialize, Deserialize)]
    /// #[pool(size = 16)]
    /// struct Enemy {
    ///     health: i32,
    ///     target: Option<Handle<Enemy>>,
    /// }
    ///
    /// let mut enemies = EnemyPool::new();
    /// let a = enemies.try_create(|e| e.health = 10)?;
    /// let b = enemies.try_create(|e| e.target = Some(a))?;
    /// let dead = enemies.try_create(|_| {})?;
    /// enemies.release(dead).unwrap();
    ///
    /// let save = serde_json::to_string(&enemies).unwrap();
    /// let loaded: EnemyPool = serde_json::from_str(&save).unwrap();
    /// assert_eq!(loaded[a].health, 10);
    /// assert_eq!(loaded[b].target, Some(a));
    /// assert!(loaded.get(dead).is_none()); // stale before, stale after
    /// assert_eq!(loaded.stats(), enemies.stats());
    /// # Ok::<(), pooling::PoolFull>(())
    /// ```
    impl<T: Pooled + Serialize, S> Serialize for Pool<T, S> {
        fn serialize<Z: Serializer>(&self, serializer: Z) -> Result<Z::Ok, Z::Error> {
            self.books().save(&self.books().layout(), serializer)
        }
    }

    /// An inline pool serializes as a heap pool does, its built slots as the first chunk; it
    /// deserializes only into an inline pool of at least as many slots.
    impl<T: Pooled + Serialize, S, const N: usize, const W: usize> Serialize
        for Pool<T, S, Inline<N, W>>
    {
        fn serialize<Z: Serializer>(&self, serializer: Z) -> Result<Z::Ok, Z::Error> {
            self.books().save(&self.books().layout(), serializer)
        }
    }

    /// A pool deserializes from what [`Serialize`] wrote, for any strategy: every saved handle
    /// names the same object as before, stale ones stay stale, and free slots are taken in the
    /// same order. A save is untrusted input: one that does not describe a pool (a version or
    /// free list that disagrees with the objects, counts that do not add up, more objects than
    /// live slots) is an error, never a pool with broken books, a panic or a load that does not
    /// end; a load builds at most one slot per byte of input it reads.
    impl<'de, T: Pooled + Deserialize<'de>, S> Deserialize<'de> for Pool<T, S, Heap> {
        fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
            let (saved, objects) = save::load(deserializer)?;
            let books = saved.restore_heap(objects).map_err(de::Error::custom)?;
            Ok(Self::from_books(books))
        }
    }

    /// An inline pool deserializes from what either storage wrote, if it never grew and its
    /// slots fit in `N`.
    impl<'de, T: Pooled + Deserialize<'de>, S, const N: usize, const W: usize> Deserialize<'de>
        for Pool<T, S, Inline<N, W>>
    {
        fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
            let (saved, objects) = save::load(deserializer)?;
            let books = saved.restore_inline(objects).map_err(de::Error::custom)?;
            Ok(Self::from_books(books))
        }
    }
}
