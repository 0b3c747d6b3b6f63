//! Waiting for a free slot without spinning or blocking a thread: the queue of waiting tasks,
//! to which a slot freed while tasks wait is handed, oldest first, and the count that keeps
//! giving back cheap when none waits.
//!
//! As tokio's `Semaphore` gives released permits to its queued waiters under the queue's lock,
//! a slot freed while tasks are counted waiting is handed, under the queue's lock, to the task
//! that queued first, and goes on no free list, where a fresh acquisition (one that does not
//! wait, or a task that has just given a slot back and asks again) could take it first; and an
//! `acquire_async` that finds tasks waiting queues behind them. So a task is served after at
//! most the tasks queued before it. The protocol, whose races `tests/loom_wait.rs` models:
//! - a task that finds tasks waiting, or no free slot, queues and counts itself in `waiting` (a
//!   `SeqCst` add), both under the lock, fences (`SeqCst`), hands the slots it then finds on the
//!   free lists to the tasks queued, oldest first (itself too, when it is the oldest), and only
//!   then sleeps;
//! - a thread that frees a slot reads `waiting`. Above zero, it hands the slot over under the
//!   lock, or lists it, still under the lock, if every task has left meanwhile (a task that
//!   queues after that finds it listed). At zero, it pushes the slot on a free list (a `SeqCst`
//!   compare-and-swap), then reads `waiting` again (`SeqCst`), and if a task has queued
//!   meanwhile, hands it the slots on the free lists.
//!
//! The second read and the fence make a Dekker handshake: the `SeqCst` operations and the fence
//! fall in one total order, so of "task counted in, then looks at the free lists" and "slot
//! pushed, then reads the count", at least one sees the other's write: the task finds the slot,
//! or the freeing thread sees the task and hands it one. The freeing side needs no fence: on
//! x86 and 64-bit Arm a `SeqCst` compare-and-swap and load cost what the `Release` swap and a
//! plain load did, so giving back without waiters costs two loads, of a line only waiting tasks
//! write. (The argument, in the C++20 model: were the task's look to miss the push and the
//! count's load to miss the add, the coherence rules would put the task's fence before the push
//! and the load before the add in the total order, with the add before the fence and the push
//! before the load: a cycle.) loom treats `SeqCst` accesses as `AcqRel`, so under loom the
//! freeing side fences, which the model checker does order, in their stead.
//!
//! A handed slot is the task's even if it is not polled for a while (counted free meanwhile,
//! as it is). A task dropped (cancelled, timed out) after a slot was handed to it hands the slot
//! on, to the next task or back to a free list, so no slot is lost and no wake-up swallowed.
//! Wakers are cloned, woken and dropped with the lock let go. The queue is the pool's own, not
//! `event-listener`'s: handing a slot over needs a line that knows which task holds which
//! place, and that keeps a slot handed to a task that has not run yet. Tasks are kept by ticket
//! in ordered maps, so that one leaving from the middle (a timeout) leaves no trace behind.

use super::lease::{Lent, SyncLease};
use super::owned::OwnedSyncLease;
use super::pool::SyncPool;
use super::primitives::{AtomicU64, AtomicUsize, Mutex, MutexGuard, Ordering, fence};
use super::shard;
use super::slots::SyncSlots;
use crate::Pooled;
use alloc::collections::BTreeMap;
use alloc::sync::Arc;
use alloc::vec::Vec;
use core::pin::Pin;
use core::task::{Context, Poll, Waker};
use std::sync::PoisonError;

/// The waiting tasks of one pool.
pub(crate) struct Waiters {
    queue: Mutex<Queue>,
    /// Tasks queued and not yet handed a slot: `Queue::waiting`'s length, changed under the
    /// lock, read without it by every give-back.
    waiting: AtomicUsize,
    /// Acquisitions that had to wait, counted as they queue: for `Stats::waited`.
    waited: AtomicU64,
}

/// The tasks in line, by ticket: tickets are handed out in the order the tasks queue.
struct Queue {
    /// The tasks waiting for a slot, and their wakers.
    waiting: BTreeMap<u64, Waker>,
    /// The slots handed to tasks that have not taken them yet.
    handed: BTreeMap<u64, u32>,
    next_ticket: u64,
}

impl Queue {
    const fn new() -> Self {
        Self {
            waiting: BTreeMap::new(),
            handed: BTreeMap::new(),
            next_ticket: 0,
        }
    }
}

impl Waiters {
    const_unless_loom! {
        pub(crate) fn new() -> Self {
            Self {
                queue: Mutex::new(Queue::new()),
                waiting: AtomicUsize::new(0),
                waited: AtomicU64::new(0),
            }
        }
    }

    /// Whether tasks wait. `SeqCst`: a give-back's second read is half of the handshake.
    #[inline]
    pub(crate) fn any(&self) -> bool {
        self.waiting.load(Ordering::SeqCst) != 0
    }

    pub(crate) fn waited(&self) -> u64 {
        self.waited.load(Ordering::Relaxed)
    }

    pub(crate) fn waiting(&self) -> usize {
        self.waiting.load(Ordering::Relaxed)
    }

    /// The slots handed to tasks that have not taken them yet, for `check_consistency`.
    pub(crate) fn handed(&self) -> Vec<u32> {
        self.lock().handed.values().copied().collect()
    }

    /// The queue. Nothing panics while it is held but the allocator, which leaves it whole.
    fn lock(&self) -> MutexGuard<'_, Queue> {
        self.queue.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Queues a task, last; its ticket.
    fn queue(&self, waker: Waker) -> u64 {
        let mut queue = self.lock();
        let ticket = queue.next_ticket;
        queue.next_ticket += 1;
        queue.waiting.insert(ticket, waker);
        // Under the lock, so that a give-back that sees the count finds the task queued.
        self.waiting.fetch_add(1, Ordering::SeqCst);
        drop(queue);
        // Counted as it queues, not when served: an acquisition cancelled or timed out while
        // waiting is the plainest sign that the pool is too small.
        self.waited.fetch_add(1, Ordering::Relaxed);
        ticket
    }

    /// Hands slot `index` to the task queued first: its waker, to wake once the lock is let
    /// go; `Err(index)` when no task waits.
    fn hand(&self, queue: &mut Queue, index: u32) -> Result<Waker, u32> {
        let Some((ticket, waker)) = queue.waiting.pop_first() else {
            return Err(index);
        };
        queue.handed.insert(ticket, index);
        self.waiting.fetch_sub(1, Ordering::SeqCst);
        Ok(waker)
    }

    /// The slot handed to `ticket`'s task, if one was; otherwise the task waits on, woken by
    /// `waker` from now on. The waker is cloned with the lock let go, as it is woken and
    /// dropped: its code may reach the pool.
    fn take(&self, ticket: u64, waker: &Waker) -> Option<u32> {
        let mut clone = None;
        loop {
            let mut queue = self.lock();
            if let Some(index) = queue.handed.remove(&ticket) {
                drop(queue);
                drop(clone);
                return Some(index);
            }
            let queued = queue.waiting.get_mut(&ticket)?;
            if queued.will_wake(waker) {
                return None;
            }
            if let Some(clone) = clone.take() {
                let old = core::mem::replace(queued, clone);
                drop(queue);
                drop(old);
                return None;
            }
            drop(queue);
            clone = Some(waker.clone());
        }
    }

    /// Takes `ticket`'s task out of the line: the slot that was handed to it, if any, which
    /// the caller hands on.
    fn cancel(&self, ticket: u64) -> Option<u32> {
        let mut queue = self.lock();
        let Some(waker) = queue.waiting.remove(&ticket) else {
            return queue.handed.remove(&ticket);
        };
        self.waiting.fetch_sub(1, Ordering::SeqCst);
        drop(queue);
        drop(waker);
        None
    }
}

/// The calling thread's shard, where a slot handed to a task goes back when freed.
fn home() -> u32 {
    #[expect(clippy::cast_possible_truncation, reason = "SHARDS is small")]
    let home = shard::shard() as u32;
    home
}

impl<'a, T: Pooled> SyncSlots<'a, T> {
    /// Where a slot freed while tasks were counted waiting goes: to the task queued first, or
    /// back on its free list if none waits any more. Under the lock either way, so that a task
    /// that queues after this finds the slot listed.
    #[cold]
    pub(super) fn hand_over(&self, index: u32) {
        let mut queue = self.waiters().lock();
        match self.waiters().hand(&mut queue, index) {
            Ok(waker) => {
                drop(queue);
                waker.wake();
            }
            Err(index) => self.list(index, self.owned(index)),
        }
    }

    /// After a give-back listed a slot: hands listed slots to tasks that queued meanwhile.
    #[inline]
    pub(super) fn freed(&self) {
        // loom models `SeqCst` accesses as `AcqRel`, too weak for the handshake: under loom a
        // fence stands in for what the C++20 order guarantees the swap and the load.
        #[cfg(loom)]
        fence(Ordering::SeqCst);
        if self.waiters().any() {
            self.serve();
        }
    }

    /// Hands the slots on the free lists to the tasks queued, oldest first, while both last.
    #[cold]
    fn serve(&self) {
        loop {
            let mut queue = self.waiters().lock();
            if queue.waiting.is_empty() {
                return;
            }
            let Some((index, _)) = self.take_index() else {
                return;
            };
            match self.waiters().hand(&mut queue, index) {
                Ok(waker) => {
                    drop(queue);
                    waker.wake();
                }
                Err(index) => return self.list(index, self.owned(index)),
            }
        }
    }

    /// A free slot, now the caller's: at once if one is free and no task waits, else once
    /// one is handed to it.
    fn wait(self) -> Wait<'a, T> {
        Wait {
            slots: self,
            ticket: None,
        }
    }
}

/// The future of [`SyncSlots::wait`]: the index of a free slot, the caller's to fill.
struct Wait<'a, T: Pooled> {
    slots: SyncSlots<'a, T>,
    /// The task's place in line, while it is queued or handed a slot it has not taken.
    ticket: Option<u64>,
}

impl<T: Pooled> Future for Wait<'_, T> {
    type Output = u32;

    fn poll(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<u32> {
        let slots = self.slots;
        let ticket = if let Some(ticket) = self.ticket {
            ticket
        } else {
            // Behind the tasks that wait, if any: a slot on a free list then is on its way to
            // them.
            if !slots.waiters().any()
                && let Some((index, _)) = slots.take_index()
            {
                return Poll::Ready(index);
            }
            let ticket = slots.waiters().queue(cx.waker().clone());
            self.ticket = Some(ticket);
            // Orders the count before the look at the free lists: see the module's doc.
            fence(Ordering::SeqCst);
            slots.serve();
            ticket
        };
        match slots.waiters().take(ticket, cx.waker()) {
            Some(index) => {
                self.ticket = None;
                Poll::Ready(index)
            }
            None => Poll::Pending,
        }
    }
}

impl<T: Pooled> Drop for Wait<'_, T> {
    fn drop(&mut self) {
        if let Some(ticket) = self.ticket.take()
            && let Some(index) = self.slots.waiters().cancel(ticket)
        {
            // Handed a slot it will not take: it goes on, as if freed now.
            self.slots.hand_over(index);
        }
    }
}

#[cfg_attr(docsrs, doc(cfg(feature = "async")))]
impl<T: Pooled, S> SyncPool<T, S> {
    /// Lends a blank object, set up by `init`, as soon as a slot is free: now if one is, else
    /// once another thread or task gives one back (a lease dropping, or a `release`). It never
    /// fails, spins or blocks a thread; `init` runs once, when a slot is taken.
    ///
    /// First come, first served: a slot freed while tasks wait is handed to the one that has
    /// waited longest, never put where an acquisition that does not wait (`acquire`, `create`,
    /// or this one, asked again by a task that has just given a slot back) could take it, and
    /// an `acquire_async` that finds tasks waiting queues behind them. So a task is served
    /// after at most the tasks queued before it. An acquisition that has to wait is counted in
    /// [`Stats::waited`](crate::Stats::waited) as it starts waiting (cancelled or not), never in
    /// `failed`, and in [`Stats::waiting`](crate::Stats::waiting) until a slot is handed to it.
    /// Cancel-safe: dropping the future (a timeout does) takes no slot, and a slot handed to it
    /// goes on to the next task, or back to the pool. Runtime-agnostic: any executor polls it.
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
        let slots = self.view();
        async move {
            let index = slots.wait().await;
            // No await from here on: the slot is the lease's, or back (if `init` panics).
            let object = slots.fill(index, home(), |_, object| init(object));
            SyncLease::new(slots, Lent::new(slots, index, object))
        }
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
        async move {
            let slots = pool.view();
            let index = slots.wait().await;
            let lent = Lent::new(slots, index, slots.fill(index, home(), |_, o| init(o)));
            OwnedSyncLease::new(pool, lent)
        }
    }
}
