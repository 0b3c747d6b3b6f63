use crate::storage::Storage;
use crate::{Handle, Pool, Pooled};
use core::array;
use core::mem;

impl<T: Pooled, S, B: Storage> Pool<T, S, B> {
    /// The objects `handles` name, mutably and all at once: a bullet and the enemy it hits.
    /// `None` if any handle is stale (or from another pool), or if two name the same object.
    ///
    /// O(N log N) in the number of handles, plus the pool's chunks (one unless it grew).
    ///
    /// ```
    /// # use pooling::{Handle, Pooled};
    /// # #[derive(Pooled)]
    /// # #[pool(size = 8)]
    /// # struct Body { x: f32, hits: u32 }
    /// let mut bodies = BodyPool::new();
    /// let bullet = bodies.try_create(|b| b.x = 10.0)?;
    /// let enemy = bodies.try_create(|b| b.x = 10.5)?;
    ///
    /// if let Some([bullet, enemy]) = bodies.get_disjoint_mut([bullet, enemy]) {
    ///     enemy.hits += 1;
    ///     bullet.x = enemy.x;
    /// }
    /// assert_eq!(bodies[enemy].hits, 1);
    /// assert!(bodies.get_disjoint_mut([enemy, enemy]).is_none()); // the same object twice
    /// # Ok::<(), pooling::PoolFull>(())
    /// ```
    #[doc(
        alias = "get2_mut",
        alias = "get_many_mut",
        alias = "get_disjoint_unchecked_mut"
    )]
    #[expect(
        clippy::missing_panics_doc,
        reason = "the one `expect` runs once every handle was found"
    )]
    pub fn get_disjoint_mut<const N: usize>(
        &mut self,
        handles: [Handle<T>; N],
    ) -> Option<[&mut T; N]> {
        let mut order: [usize; N] = array::from_fn(|i| i);
        order.sort_unstable_by_key(|&i| handles[i].index());
        let mut found: [Option<&mut T>; N] = array::from_fn(|_| None);
        let mut order = order.iter().peekable();
        for chunk in self.books_mut().chunks_mut() {
            let (base, words, mut rest) = (chunk.base, &*chunk.words, chunk.objects);
            // The index in the chunk of `rest[0]`: each slot found is split off the slots
            // before it, so the borrows never overlap, and a second handle to the same slot
            // finds it gone.
            let mut start = 0;
            while let Some(&&i) = order.peek() {
                let handle = handles[i];
                let local = handle.index().checked_sub(base)?;
                if local >= start + rest.len() {
                    break;
                }
                let (object, after) = mem::take(&mut rest)
                    .get_mut(local.checked_sub(start)?..)?
                    .split_first_mut()?;
                rest = after;
                start = local + 1;
                if words[local] != handle.to_bits() {
                    return None;
                }
                found[i] = Some(object);
                order.next();
            }
        }
        if found.iter().any(Option::is_none) {
            return None;
        }
        Some(found.map(|object| object.expect("every handle was found")))
    }
}
