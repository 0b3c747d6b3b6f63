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

/// Heap pools serialize slot for slot; inline pools do not serialize yet.
#[cfg(feature = "alloc")]
mod pools {
    use crate::limits::INDEX_END;
    use crate::limits::RETIRED_VERSION;
    use crate::pool::counts::Counts;
    use crate::pooled::blank;
    use crate::slot::free_list::FreeList;
    use crate::slot::{NIL, Slot};
    use crate::storage::heap::chunk::Chunk;
    use crate::storage::heap::grown::Grown;
    use crate::storage::{HeapSlots, Inline, InlineSlots, Slots, Storage};
    use crate::{Pool, Pooled};
    use alloc::boxed::Box;
    use alloc::vec::Vec;
    use core::marker::PhantomData;
    use serde::de;
    use serde::ser::SerializeSeq;
    use serde::{Deserialize, Deserializer, Serialize, Serializer};

    /// What a pool saves: enough to rebuild it slot for slot.
    #[derive(Serialize, Deserialize)]
    #[serde(rename = "Pool")]
    struct Saved<O> {
        /// Where the versions count from.
        offset: u32,
        /// Slots in the first chunk.
        first: u32,
        /// The grown chunks: position and length.
        grown: Vec<(u32, u32)>,
        /// The version floors of the positions; empty when the pool never grew.
        floors: Vec<u32>,
        /// Every slot's version, counted from `offset`, in index order.
        versions: Vec<u32>,
        /// The free slots, in the order `create` takes them; retired slots are left out.
        free: Vec<u32>,
        created: u64,
        released: u64,
        failed: u64,
        evicted: u64,
        high_water: u64,
        /// The live objects, in index order.
        objects: O,
    }

    /// The objects of a pool at `live`, the indices of slots live when the save was made,
    /// serialized as a sequence without collecting them. (Other threads may make more slots live
    /// meanwhile; none stops being live through `&Pool`.)
    struct Objects<'a, T: Pooled, S, B: Storage> {
        pool: &'a Pool<T, S, B>,
        live: Vec<usize>,
    }

    impl<T: Pooled + Serialize, S, B: Storage> Serialize for Objects<'_, T, S, B> {
        fn serialize<Z: Serializer>(&self, serializer: Z) -> Result<Z::Ok, Z::Error> {
            // The length is known, as formats without an end marker need.
            let mut seq = serializer.serialize_seq(Some(self.live.len()))?;
            for &index in &self.live {
                let slot = (self.pool.storage.slot(index)).expect("a slot of the pool");
                let object = slot.get(slot.handle(index)).expect("the slot is live");
                seq.serialize_element(object)?;
            }
            seq.end()
        }
    }

    /// A pool serializes slot for slot: every live object under its handle, the versions that keep
    /// old handles stale, the order free slots are taken in, and the counts behind
    /// [`stats`](Pool::stats). Objects lent to leases stay with the pool: saved, their slots are
    /// free, as in a [`clone`](Pool::clone).
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
            let layout = |storage: &HeapSlots<T>| {
                let (grown, floors) = storage.grown().parts();
                let grown: Vec<(u32, u32)> = grown
                    .map(|(k, chunk)| (to_u32(k), to_u32(chunk.len())))
                    .collect();
                Layout {
                    offset: storage.offset(),
                    first: storage.first().len(),
                    grown,
                    floors: floors.collect(),
                }
            };
            save(self, layout, serializer)
        }
    }

    /// An inline pool serializes as a heap pool does, its built slots as the first chunk; it
    /// deserializes only into an inline pool of at least as many slots.
    impl<T: Pooled + Serialize, S, const N: usize, const W: usize> Serialize
        for Pool<T, S, Inline<N, W>>
    {
        fn serialize<Z: Serializer>(&self, serializer: Z) -> Result<Z::Ok, Z::Error> {
            let layout = |storage: &InlineSlots<T, N, W>| Layout {
                offset: storage.offset(),
                first: storage.built_len(),
                grown: Vec::new(),
                floors: Vec::new(),
            };
            save(self, layout, serializer)
        }
    }

    /// Where a pool's slots are, as [`Saved`] records it.
    struct Layout {
        offset: u32,
        first: usize,
        grown: Vec<(u32, u32)>,
        floors: Vec<u32>,
    }

    /// Saves `pool`, whose storage `layout` describes. Its books are read under the pool's lock,
    /// at one moment, and its objects serialized after, without the lock.
    fn save<T: Pooled + Serialize, S, B: Storage, Z: Serializer>(
        pool: &Pool<T, S, B>,
        layout: impl FnOnce(&B::Slots<T>) -> Layout,
        serializer: Z,
    ) -> Result<Z::Ok, Z::Error> {
        let storage = &pool.storage;
        let locked = pool.lock.lock();
        let layout = layout(storage);
        let offset = layout.offset;
        let mut live = Vec::new();
        for chunk in storage.chunks() {
            for (local, slot) in chunk.slots.iter().enumerate() {
                if slot.is_live() {
                    live.push(chunk.base + local);
                }
            }
        }
        let versions: Vec<u32> = (storage.chunks())
            .flat_map(|chunk| chunk.slots.iter())
            .map(|slot| slot.version().wrapping_sub(offset))
            .collect();
        // Every slot that is not live or retired is free in the save, lent or not: the free
        // list first (no retired slot is on it), then the lent slots, found as the free slots
        // not on it.
        let mut free: Vec<u32> = (pool.free.indices(|index| {
            storage
                .slot(index)
                .expect("free-list indices are in the pool")
        }))
        .map(to_u32)
        .collect();
        let mut on_list = free.clone();
        on_list.sort_unstable();
        for chunk in storage.chunks() {
            for (local, slot) in chunk.slots.iter().enumerate() {
                let index = chunk.base + local;
                if !slot.is_live()
                    && !retired(storage, index)
                    && on_list.binary_search(&to_u32(index)).is_err()
                {
                    free.push(to_u32(index));
                }
            }
        }
        let counts = pool.counts.with_live(live.len());
        drop(locked);
        Saved {
            offset,
            first: to_u32(layout.first),
            grown: layout.grown,
            floors: layout.floors,
            versions,
            free,
            created: counts.created(),
            released: counts.released(),
            failed: counts.failed(),
            evicted: counts.evicted(),
            high_water: counts.high_water() as u64,
            objects: Objects { pool, live },
        }
        .serialize(serializer)
    }

    /// A pool deserializes from what [`Serialize`] wrote, for any strategy: every saved handle
    /// names the same object as before, stale ones stay stale, and free slots are taken in the same
    /// order. A save that does not describe a pool (a version or free list that disagrees with the
    /// objects, counts that do not add up) is an error, never a pool with broken books.
    impl<'de, T: Pooled + Deserialize<'de>, S> Deserialize<'de> for Pool<T, S> {
        fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
            let saved = Saved::<Vec<T>>::deserialize(deserializer)?;
            saved.restore().map_err(de::Error::custom)
        }
    }

    /// An inline pool deserializes from what either storage wrote, if it never grew and its
    /// slots fit in `N`.
    impl<'de, T: Pooled + Deserialize<'de>, S, const N: usize, const W: usize> Deserialize<'de>
        for Pool<T, S, Inline<N, W>>
    {
        fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
            let saved = Saved::<Vec<T>>::deserialize(deserializer)?;
            saved.restore_inline().map_err(de::Error::custom)
        }
    }

    /// The slot at `index` saved at `version`, counted from `offset`: its saved object if it
    /// was live, or a blank one. The caller has checked the versions (see [`check_versions`]).
    fn saved_slot<T: Pooled>(
        index: usize,
        offset: u32,
        version: u32,
        objects: &mut impl Iterator<Item = T>,
    ) -> Result<Slot<T>, &'static str> {
        let version = version.wrapping_add(offset);
        if version % 2 == 1 {
            let object = objects.next().ok_or("fewer objects than live slots")?;
            Ok(Slot::new_live(object, version, index))
        } else {
            Ok(Slot::new(blank::<T>(), version, NIL))
        }
    }

    /// Checks what the slots of a save need before any is built: an even offset (a version's
    /// parity says whether its slot is live), as many versions as slots, as many objects as live
    /// slots, and no live slot past retirement (its next version would come round to its
    /// first).
    fn check_versions(
        offset: u32,
        slots: usize,
        versions: &[u32],
        objects: usize,
    ) -> Result<(), &'static str> {
        if offset % 2 == 1 {
            return Err("an odd offset: versions count from an even one");
        }
        if versions.len() < slots {
            return Err("fewer versions than slots");
        }
        if versions.len() > slots {
            return Err("more versions than slots");
        }
        if versions.iter().any(|&v| v > RETIRED_VERSION) {
            return Err("a live slot past the version at which a slot retires");
        }
        let live = versions.iter().filter(|&&v| v % 2 == 1).count();
        if objects < live {
            return Err("fewer objects than live slots");
        }
        if objects > live {
            return Err("more objects than live slots");
        }
        Ok(())
    }

    impl<T: Pooled> Saved<Vec<T>> {
        fn restore<S>(self) -> Result<Pool<T, S>, &'static str> {
            let first = self.first as usize;
            if first > Pool::<T, S>::MAX_CAPACITY {
                return Err("a first chunk larger than a pool holds");
            }
            if self.floors.is_empty() && !self.grown.is_empty() {
                return Err("grown chunks without the positions they were grown in");
            }
            let positions = Grown::<T>::new(first);
            if !self.floors.is_empty() && self.floors.len() != positions.position_count() {
                return Err("a table of positions not of the length a pool of this size has");
            }
            if (self.floors.iter()).any(|&floor| floor % 2 == 1 || floor >= RETIRED_VERSION) {
                return Err("a version floor that is odd, or not below the retired version");
            }
            // Where each chunk's versions start in `versions`, checked before anything is built
            // from the lengths the save claims.
            let mut slots = first;
            let mut starts = Vec::with_capacity(self.grown.len());
            let mut last: Option<u32> = None;
            for &(k, len) in &self.grown {
                if last.is_some_and(|last| k <= last) {
                    return Err("grown chunks out of position order, or two at one position");
                }
                last = Some(k);
                let floor =
                    *(self.floors.get(k as usize)).ok_or("a grown chunk past the last position")?;
                let base = (positions.position_base(k as usize))
                    .ok_or("a grown chunk past the last position")?;
                if len == 0
                    || len as usize > positions.position_len(k as usize)
                    || base + len as usize > INDEX_END
                {
                    return Err("a grown chunk not where its position puts it, or longer");
                }
                starts.push((slots, floor));
                slots = slots
                    .checked_add(len as usize)
                    .ok_or("more slots than a pool holds")?;
                if slots > self.versions.len() {
                    return Err("fewer versions than slots");
                }
            }
            check_versions(self.offset, slots, &self.versions, self.objects.len())?;
            for (&(_, len), &(start, floor)) in self.grown.iter().zip(&starts) {
                let chunk = &self.versions[start..start + len as usize];
                if chunk.iter().any(|&v| v < floor) {
                    return Err("a grown slot at a version below its position's floor");
                }
            }
            let high_water_cap = if self.floors.is_empty() {
                first
            } else {
                (0..self.floors.len())
                    .map(|k| positions.position_len(k))
                    .fold(first, usize::saturating_add)
                    .min(INDEX_END)
            };
            let offset = self.offset;
            let mut versions = self.versions.iter().copied();
            let mut objects = self.objects.into_iter();
            let mut chunk = |base: usize, len: usize| -> Result<Chunk<T>, &'static str> {
                let slots = (base..base + len)
                    .zip(versions.by_ref())
                    .map(|(index, version)| saved_slot(index, offset, version, &mut objects))
                    .collect::<Result<Box<[Slot<T>]>, &'static str>>()?;
                Ok(Chunk::from_slots(base, slots))
            };
            let first_chunk = chunk(0, first)?;
            let grown_chunks = (self.grown.iter())
                .map(|&(k, len)| {
                    let base = (positions.position_base(k as usize))
                        .ok_or("a grown chunk past the last position")?;
                    Ok((k as usize, chunk(base, len as usize)?))
                })
                .collect::<Result<Vec<_>, &'static str>>()?;
            let grown = Grown::restore(first, grown_chunks, &self.floors)?;
            let storage = HeapSlots::from_parts(self.offset, first_chunk, grown);
            Books {
                free: self.free,
                counts: [self.created, self.released, self.failed, self.evicted],
                high_water: self.high_water,
                high_water_cap,
            }
            .restore(storage)
        }

        fn restore_inline<S, const N: usize, const W: usize>(
            self,
        ) -> Result<Pool<T, S, Inline<N, W>>, &'static str> {
            let first = self.first as usize;
            if first > N {
                return Err("more slots than the inline pool holds");
            }
            if !self.grown.is_empty() || !self.floors.is_empty() {
                return Err("grown chunks, which an inline pool does not have");
            }
            check_versions(self.offset, first, &self.versions, self.objects.len())?;
            let offset = self.offset;
            let mut objects = self.objects.into_iter();
            let slots = (self.versions.iter().enumerate())
                .map(|(index, &v)| saved_slot(index, offset, v, &mut objects));
            let storage = InlineSlots::from_slots(self.offset, slots)?;
            Books {
                free: self.free,
                counts: [self.created, self.released, self.failed, self.evicted],
                high_water: self.high_water,
                high_water_cap: first,
            }
            .restore(storage)
        }
    }

    /// The free list and counts of a save, checked against the slots rebuilt from it.
    struct Books {
        free: Vec<u32>,
        counts: [u64; 4],
        high_water: u64,
        /// The most slots the pool can have held at once.
        high_water_cap: usize,
    }

    impl Books {
        fn restore<T: Pooled, S, B: Storage>(
            self,
            storage: B::Slots<T>,
        ) -> Result<Pool<T, S, B>, &'static str> {
            let retired_at = storage.retired_at();
            let free = FreeList::new(0);
            let mut listed = self.free.clone();
            listed.sort_unstable();
            if listed.windows(2).any(|pair| pair[0] == pair[1]) {
                return Err("a slot twice on the free list");
            }
            for &index in self.free.iter().rev() {
                let slot = storage
                    .slot(index as usize)
                    .ok_or("a free slot past the pool's slots")?;
                if slot.is_live() || slot.version() == retired_at {
                    return Err("a live or retired slot on the free list");
                }
                free.push(index as usize, slot);
            }
            let (mut live, mut retired) = (0, 0);
            for slot in storage.chunks().flat_map(|chunk| chunk.slots.iter()) {
                live += usize::from(slot.is_live());
                retired += usize::from(slot.version() == retired_at);
            }
            let built: usize = storage.chunks().map(|chunk| chunk.slots.len()).sum();
            if live + retired + self.free.len() != built {
                return Err("a slot neither live, retired nor free");
            }
            let high_water =
                usize::try_from(self.high_water).map_err(|_| "a high water mark past usize")?;
            if high_water > self.high_water_cap {
                return Err("a high water mark above the most slots the pool has held");
            }
            let counts = Counts::restore(self.counts, high_water, live, retired)?;
            Ok(Pool {
                storage,
                free,
                counts,
                lock: crate::storage::lock::Lock::new(),
                strategy: PhantomData,
            })
        }
    }

    fn retired<T>(storage: &impl Slots<T>, index: usize) -> bool {
        storage
            .slot(index)
            .is_some_and(|slot| slot.version() == storage.retired_at())
    }

    #[expect(
        clippy::cast_possible_truncation,
        reason = "indices and lengths end below NIL"
    )]
    fn to_u32(n: usize) -> u32 {
        n as u32
    }
}
