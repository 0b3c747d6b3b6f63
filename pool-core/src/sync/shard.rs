//! A small id per thread, which goes back to a registry when the thread exits, as
//! sharded-slab's `Tid`: it picks the thread's cache in each pool (one per id) and the shard
//! whose free list the thread pops and pushes first.
//!
//! A cache is written only by the thread holding its id, which the registry makes exclusive
//! among the threads alive. Two threads on one shard is never wrong, only slower (they contend
//! for its head): a shard is a lock-free stack that any thread may pop. Without `std` there
//! are no thread-locals: no ids, no caches, and every thread works on the one shard.

#[cfg(any(feature = "std", loom))]
use super::atomic::{AtomicU64, Ordering};

/// The free lists of each pool. More threads than this share them.
#[cfg(all(feature = "std", not(loom)))]
pub(crate) const SHARDS: usize = 16;
/// Two under loom: few enough for its model to stay small, and three threads share one.
#[cfg(loom)]
pub(crate) const SHARDS: usize = 2;
#[cfg(all(not(feature = "std"), not(loom)))]
pub(crate) const SHARDS: usize = 1;

/// The thread ids there are, and so the caches of each pool: one per id, written only by the
/// thread holding the id. Threads beyond this many at once have no cache.
#[cfg(all(feature = "std", not(loom)))]
pub(crate) const IDS: usize = u64::BITS as usize;
/// Four under loom, whose models have no more threads, so that a pass over the caches stays
/// short; threads with a higher id have no cache.
#[cfg(loom)]
pub(crate) const IDS: usize = 4;
#[cfg(not(any(feature = "std", loom)))]
pub(crate) const IDS: usize = 0;

/// Small ids for the threads alive: the lowest unused, given back when a thread exits, so that
/// the threads of a process spread over the shards whatever came and went before.
#[cfg(any(feature = "std", loom))]
pub(crate) struct Ids {
    /// Bit `i` is set while id `i` is held.
    taken: AtomicU64,
}

#[cfg(any(feature = "std", loom))]
impl Ids {
    #[cfg(not(loom))]
    pub(crate) const fn new() -> Self {
        Self {
            taken: AtomicU64::new(0),
        }
    }

    #[cfg(loom)]
    pub(crate) fn new() -> Self {
        Self {
            taken: AtomicU64::new(0),
        }
    }

    /// The lowest id no thread holds, now held by the caller; `None` when all 64 are held.
    /// Acquire, with `release`'s Release: the new holder of an id sees what the last one wrote
    /// to the caches of that id.
    pub(crate) fn claim(&self) -> Option<u32> {
        let mut taken = self.taken.load(Ordering::Acquire);
        loop {
            let id = (!taken).trailing_zeros();
            if id == u64::BITS {
                return None;
            }
            match self.taken.compare_exchange_weak(
                taken,
                taken | 1 << id,
                Ordering::Acquire,
                Ordering::Acquire,
            ) {
                Ok(_) => return Some(id),
                Err(now) => taken = now,
            }
        }
    }

    /// Gives back an id the caller held.
    pub(crate) fn release(&self, id: u32) {
        self.taken.fetch_and(!(1 << id), Ordering::Release);
    }
}

/// A thread's id, given back when the thread exits (its thread-locals drop).
#[cfg(any(feature = "std", loom))]
struct Held(Option<u32>);

#[cfg(any(feature = "std", loom))]
impl Held {
    #[inline]
    fn id(&self) -> Option<usize> {
        self.0.map(|id| id as usize)
    }
}

#[cfg(all(feature = "std", not(loom)))]
mod current {
    use super::{Held, Ids};

    static IDS: Ids = Ids::new();

    impl Drop for Held {
        fn drop(&mut self) {
            if let Some(id) = self.0 {
                IDS.release(id);
            }
        }
    }

    std::thread_local! {
        static ID: Held = Held(IDS.claim());
    }

    /// The calling thread's id; none while its thread-locals are being destroyed.
    #[inline]
    pub(crate) fn id() -> Option<usize> {
        ID.try_with(Held::id).ok().flatten()
    }
}

/// Under loom, ids are not given back: loom drops the model's main thread's locals after the
/// model has run, where no loom atomic can be reached. `ThreadIds` models the giving back.
#[cfg(loom)]
mod current {
    use super::{Held, Ids};

    loom::lazy_static! {
        static ref IDS: Ids = Ids::new();
    }

    loom::thread_local! {
        static ID: Held = Held(IDS.claim());
    }

    pub(crate) fn id() -> Option<usize> {
        ID.with(Held::id)
    }
}

#[cfg(all(not(feature = "std"), not(loom)))]
mod current {
    /// No ids, so one shard and no caches: no thread-locals without `std`.
    #[inline]
    pub(crate) fn id() -> Option<usize> {
        None
    }
}

pub(crate) use current::id;

/// The shard of the thread with id `id` (shard 0 for a thread without one).
#[inline]
#[cfg_attr(
    not(any(feature = "std", loom)),
    expect(clippy::modulo_one, reason = "one shard without std")
)]
pub(crate) fn shard_of(id: Option<usize>) -> usize {
    id.map_or(0, |id| id % SHARDS)
}

/// The calling thread's shard.
#[cfg(any(test, loom))]
pub(crate) fn shard() -> usize {
    shard_of(id())
}
/// The registry of thread ids, for its loom model: `claim` when a thread first works on a
/// pool, `release` when it exits.
#[cfg(loom)]
#[doc(hidden)]
pub struct ThreadIds(Ids);

#[cfg(loom)]
impl Default for ThreadIds {
    fn default() -> Self {
        Self(Ids::new())
    }
}

#[cfg(loom)]
impl ThreadIds {
    #[must_use]
    pub fn claim(&self) -> Option<u32> {
        self.0.claim()
    }

    pub fn release(&self, id: u32) {
        self.0.release(id);
    }
}

/// The calling thread's shard.
#[cfg(loom)]
#[doc(hidden)]
#[must_use]
pub fn thread_shard() -> usize {
    shard()
}

#[cfg(all(test, not(loom)))]
mod tests {
    use super::Ids;

    #[test]
    fn ids_are_the_lowest_free_and_come_back() {
        let ids = Ids::new();
        assert_eq!(
            (ids.claim(), ids.claim(), ids.claim()),
            (Some(0), Some(1), Some(2))
        );
        ids.release(1);
        assert_eq!(ids.claim(), Some(1), "a released id is reused first");
        for expected in 3..64 {
            assert_eq!(ids.claim(), Some(expected));
        }
        assert_eq!(ids.claim(), None, "all 64 held");
        ids.release(40);
        assert_eq!(ids.claim(), Some(40));
    }
}
