//! Waiting for a free slot without spinning or blocking a thread: the queue of waiting tasks
//! (an [`event_listener::Event`]) and the count that keeps giving back cheap when none waits.
//!
//! The protocol, whose two races `tests/loom_wait.rs` models:
//! - a waiter counts itself in `waiting` (a `SeqCst` add), registers a listener, fences
//!   (`SeqCst`), then tries again to take a slot, and only then sleeps;
//! - a thread that frees a slot pushes it on a free list (a `SeqCst` compare-and-swap), then
//!   notifies only if a `SeqCst` load reads `waiting` above zero.
//!
//! That is a Dekker handshake: the `SeqCst` operations and the fence fall in one total order, so
//! of "waiter counted in, then tries" and "slot pushed, then reads the count", at least one sees
//! the other's write. Either the waiter's try finds the slot, or the freeing thread sees the
//! waiter and notifies it (`Event::notify` locks the list: a listener registered before that
//! lock is notified; one registered after it belongs to a waiter whose try comes after the
//! lock, and so after the push). The freeing side needs no fence: on x86 and 64-bit Arm a
//! `SeqCst` compare-and-swap and load cost what the `Release` swap and a plain load did, so
//! giving back without waiters costs one more load, of a line only waiters write. (The argument, in the
//! C++20 model: were the waiter's try to miss the push and the count's load to miss the add,
//! the coherence rules would put the waiter's fence before the push and the load before the
//! add in the total order, with the add before the fence and the push before the load: a
//! cycle.) loom treats `SeqCst` accesses as `AcqRel`, so under loom the freeing side fences,
//! which the model checker does order, in their stead.
//!
//! Notifications are `notify(1)`: "make sure one listener is notified", not one more. A
//! listener dropped while notified (a future cancelled as it is woken) passes its notification
//! on to the next, so a cancelled waiter swallows no wake-up. Since `notify(1)` adds nothing
//! while one listener is already notified, two slots freed before the woken waiter runs would
//! wake only it: so a waiter that took a slot after being woken passes a notification on when
//! others wait, and the next waiter tries too.

use super::lease::SyncLease;
use super::owned::OwnedSyncLease;
use super::pool::SyncPool;
use super::primitives::{AtomicU64, AtomicUsize, Ordering, fence};
use crate::Pooled;
use alloc::sync::Arc;
use event_listener::Event;

/// The waiting tasks of one pool.
pub(crate) struct Waiters {
    event: Event,
    /// Tasks between counting themselves in and leaving (with a slot, or cancelled).
    waiting: AtomicUsize,
    /// Acquisitions that had to wait, counted as they start: for `Stats::waited`.
    waited: AtomicU64,
}

/// A waiter counted in `waiting` until it drops, so that a cancelled future counts out too.
struct Counted<'a>(&'a AtomicUsize);

impl Drop for Counted<'_> {
    fn drop(&mut self) {
        // SeqCst, as every change of the count: a freeing thread reads the latest.
        self.0.fetch_sub(1, Ordering::SeqCst);
    }
}

impl Waiters {
    #[cfg(not(loom))]
    pub(crate) const fn new() -> Self {
        Self {
            event: Event::new(),
            waiting: AtomicUsize::new(0),
            waited: AtomicU64::new(0),
        }
    }

    #[cfg(loom)]
    pub(crate) fn new() -> Self {
        Self {
            event: Event::new(),
            waiting: AtomicUsize::new(0),
            waited: AtomicU64::new(0),
        }
    }

    /// After a slot went back on a free list, by a `SeqCst` swap: wakes a waiter if any.
    #[inline]
    pub(crate) fn freed(&self) {
        // loom models `SeqCst` accesses as `AcqRel`, too weak for the handshake: under loom a
        // fence stands in for what the C++20 order guarantees the swap and the load.
        #[cfg(loom)]
        fence(Ordering::SeqCst);
        if self.waiting.load(Ordering::SeqCst) != 0 {
            self.notify();
        }
    }

    #[cold]
    fn notify(&self) {
        self.event.notify(1);
    }

    pub(crate) fn waited(&self) -> u64 {
        self.waited.load(Ordering::Relaxed)
    }

    pub(crate) fn waiting(&self) -> usize {
        self.waiting.load(Ordering::Relaxed)
    }

    /// What `take` returns, once it returns something: now if it can, else after waiting for
    /// slots to be freed, as often as it takes. `take` must not have side effects when it
    /// returns `None`. Dropping the future at any await leaves no trace but the wake-up it
    /// passes on.
    pub(crate) async fn until<R>(&self, mut take: impl FnMut() -> Option<R>) -> R {
        if let Some(taken) = take() {
            return taken;
        }
        self.waiting.fetch_add(1, Ordering::SeqCst);
        let _counted = Counted(&self.waiting);
        // Counted now, not when served: an acquisition cancelled or timed out while waiting
        // is the plainest sign that the pool is too small.
        self.waited.fetch_add(1, Ordering::Relaxed);
        let mut woken = false;
        loop {
            let listener = self.event.listen();
            // Orders the count (and the listener) before the try below: see the module's doc.
            fence(Ordering::SeqCst);
            if let Some(taken) = take() {
                // A notified listener dropped here passes its notification on.
                drop(listener);
                if woken && self.waiting.load(Ordering::SeqCst) > 1 {
                    self.notify();
                }
                return taken;
            }
            listener.await;
            woken = true;
        }
    }
}

#[cfg_attr(docsrs, doc(cfg(feature = "async")))]
impl<T: Pooled, S> SyncPool<T, S> {
    /// Lends a blank object, set up by `init`, as soon as a slot is free: now if one is, else
    /// once another thread or task gives one back (a lease dropping, or a `release`). It never
    /// fails, spins or blocks a thread; `init` runs once, when a slot is taken.
    ///
    /// Waiters are woken in the order they started waiting, one per freed slot, though an
    /// acquisition that does not wait (`acquire`, `create`) may take a freed slot first (the
    /// woken waiter then waits again, behind the others); an acquisition that has to wait
    /// is counted in [`Stats::waited`](crate::Stats::waited) as it starts waiting (cancelled
    /// or not), never in `failed`, and in [`Stats::waiting`](crate::Stats::waiting) while it
    /// waits. Cancel-safe:
    /// dropping the future takes no slot, and a wake-up it had received goes on to the next
    /// waiter. Runtime-agnostic: any executor polls it.
    ///
    /// ```
    /// use pooling::Pooled;
    /// use std::thread;
    ///
    /// #[derive(Pooled)]
    /// #[pool(size = 1, sync)]
    /// struct Buffer {
    ///     bytes: Vec<u8>,
    /// }
    ///
    /// let buffers = BufferPool::new();
    /// thread::scope(|s| {
    ///     let first = buffers.acquire(|b| b.bytes.push(1)).unwrap();
    ///     s.spawn(move || drop(first)); // gives the one slot back, some time
    ///     let second = futures_lite::future::block_on(buffers.acquire_async(|_| {}));
    ///     assert!(second.bytes.is_empty(), "reset when given back");
    /// });
    /// assert_eq!(buffers.stats().failed, 0);
    /// ```
    pub fn acquire_async(
        &self,
        init: impl FnOnce(&mut T),
    ) -> impl Future<Output = SyncLease<'_, T>> {
        // `take` calls its `init` only when it finds a slot: once.
        let mut init = Some(init);
        self.slots()
            .waiters
            .until(move || self.lend(|object| init.take().map_or((), |init| init(object))))
    }

    /// [`acquire_async`](SyncPool::acquire_async) through an [`Arc`]: the future and the
    /// [`OwnedSyncLease`] it gives are `'static` (when `init` is), so both move into spawned
    /// tasks.
    ///
    /// ```
    /// # use pooling::Pooled;
    /// # use std::sync::Arc;
    /// # #[derive(Pooled)]
    /// # #[pool(size = 2, sync)]
    /// # struct Buffer { bytes: Vec<u8> }
    /// let buffers = Arc::new(BufferPool::new());
    /// let tasks: Vec<_> = (0..8u8)
    ///     .map(|i| {
    ///         let lease = buffers.acquire_owned_async(move |b| b.bytes.push(i));
    ///         std::thread::spawn(move || futures_lite::future::block_on(lease).bytes[0])
    ///     })
    ///     .collect();
    /// let mut got: Vec<u8> = tasks.into_iter().map(|t| t.join().unwrap()).collect();
    /// got.sort_unstable();
    /// assert_eq!(got, [0, 1, 2, 3, 4, 5, 6, 7]);
    /// assert_eq!(buffers.stats().free, 2);
    /// ```
    pub fn acquire_owned_async<F: FnOnce(&mut T)>(
        self: &Arc<Self>,
        init: F,
    ) -> impl Future<Output = OwnedSyncLease<T, S>> + use<T, S, F> {
        let pool = Arc::clone(self);
        let mut init = Some(init);
        async move {
            let lent = pool
                .slots()
                .waiters
                .until(|| pool.lent(|object| init.take().map_or((), |init| init(object))))
                .await;
            OwnedSyncLease::new(pool, lent)
        }
    }
}
