//! Which of a pool's free lists a thread pops and pushes first: its shard, from a small id per
//! thread that goes back to a registry when the thread exits, as sharded-slab's `Tid`.
//!
//! Two threads on one shard is never wrong, only slower (they contend for its head): a shard is
//! a lock-free stack that any thread may pop, so ids need not be exclusive. Without `std` there
//! are no thread-locals, and every thread works on the one shard.

#[cfg(any(feature = "std", loom))]
use super::primitives::{AtomicU64, Ordering};

/// The free lists of each pool. More threads than this share them.
#[cfg(all(feature = "std", not(loom)))]
pub(crate) const SHARDS: usize = 16;
/// Two under loom: few enough for its model to stay small, and three threads share one.
#[cfg(loom)]
pub(crate) const SHARDS: usize = 2;
#[cfg(all(not(feature = "std"), not(loom)))]
pub(crate) const SHARDS: usize = 1;

/// Small ids for the threads alive: the lowest unused, given back when a thread exits, so that
/// the threads of a process spread over the shards whatever came and went before.
#[cfg(any(feature = "std", loom))]
pub(crate) struct Ids {
    /// Bit `i` is set while id `i` is held.
    taken: AtomicU64,
}

#[cfg(any(feature = "std", loom))]
impl Ids {
    const_unless_loom! {
        pub(crate) fn new() -> Self {
            Self {
                taken: AtomicU64::new(0),
            }
        }
    }

    /// The lowest id no thread holds, now held by the caller; `None` when all 64 are held.
    /// Relaxed: an id guards no data, the swap alone makes it the caller's.
    pub(crate) fn claim(&self) -> Option<u32> {
        let lowest_free = |taken: u64| (!taken).trailing_zeros();
        self.taken
            .fetch_update(Ordering::Relaxed, Ordering::Relaxed, |taken| {
                let id = lowest_free(taken);
                (id != u64::BITS).then(|| taken | 1 << id)
            })
            .ok()
            .map(lowest_free)
    }

    /// Gives back an id the caller held.
    pub(crate) fn release(&self, id: u32) {
        self.taken.fetch_and(!(1 << id), Ordering::Relaxed);
    }
}

/// A thread's id, given back when the thread exits (its thread-locals drop).
#[cfg(any(feature = "std", loom))]
struct ThreadId(Option<u32>);

#[cfg(any(feature = "std", loom))]
impl ThreadId {
    #[inline]
    fn shard(&self) -> usize {
        self.0.map_or(0, |id| id as usize % SHARDS)
    }
}

#[cfg(all(feature = "std", not(loom)))]
mod current {
    use super::{Ids, ThreadId};

    static IDS: Ids = Ids::new();

    impl Drop for ThreadId {
        fn drop(&mut self) {
            if let Some(id) = self.0 {
                IDS.release(id);
            }
        }
    }

    super::super::primitives::thread_local! {
        static ID: ThreadId = ThreadId(IDS.claim());
    }

    /// The calling thread's shard; shard 0 while its thread-locals are being destroyed.
    #[inline]
    pub(crate) fn shard() -> usize {
        ID.try_with(ThreadId::shard).unwrap_or(0)
    }
}

/// Under loom, ids are not given back: loom drops the model's main thread's locals after the
/// model has run, where no loom atomic can be reached. `ThreadIds` models the giving back.
#[cfg(loom)]
mod current {
    use super::{Ids, ThreadId};

    loom::lazy_static! {
        static ref IDS: Ids = Ids::new();
    }

    super::super::primitives::thread_local! {
        static ID: ThreadId = ThreadId(IDS.claim());
    }

    pub(crate) fn shard() -> usize {
        ID.with(ThreadId::shard)
    }
}

#[cfg(all(not(feature = "std"), not(loom)))]
mod current {
    /// The one shard: no thread-locals without `std`.
    #[inline]
    pub(crate) fn shard() -> usize {
        0
    }
}

pub(crate) use current::shard;

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
