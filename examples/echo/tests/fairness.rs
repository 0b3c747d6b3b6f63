//! Waiters are served first come, first served (issue 38, item 10): on a one-slot pool, four
//! tokio tasks drop their lease and at once wait for the slot again, on a multi-threaded
//! runtime; a task that starts waiting after them is served after at most the acquisitions of
//! the waiters queued before it (at most the four, each once), in every run. Before freed slots
//! were handed to waiters, a woken waiter raced the task that had just dropped its lease and
//! asked again, and lost: about half of the runs in a debug build (8 to 15 of 200 in release)
//! were overtaken, by 6 to 98,992 acquisitions, most of them until the four gave up.
//! And waiters that time out while slots are handed to them lose no slot.

use pooling::Pooled;
use std::future::{Future, poll_fn};
use std::pin::pin;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::Duration;

#[derive(Pooled)]
#[pool(size = 1, sync)]
struct Slot {
    taken: u64,
}

/// Tasks that drop their lease and wait again at once.
const CYCLERS: u64 = 4;
/// Acquisitions before the late waiter starts, so that the four are in full swing.
const WARM_UP: u64 = 1_000;
/// Where the cyclers stop even if the late waiter is still waiting, so that a starved waiter
/// fails the test rather than hangs it.
const GIVE_UP: u64 = 100_000;
const RUNS: usize = 200;

/// How a task waits: through `&SyncPool` or through an `Arc`.
#[derive(Clone, Copy, Debug)]
enum Acquire {
    Borrowed,
    Owned,
}

impl Acquire {
    /// Waits for the slot and holds it while `hold` runs.
    async fn hold<R>(self, pool: &Arc<SlotPool>, hold: impl FnOnce(&mut Slot) -> R) -> R {
        match self {
            Acquire::Borrowed => hold(&mut *pool.acquire_async(|_| {}).await),
            Acquire::Owned => hold(&mut *pool.acquire_owned_async(|_| {}).await),
        }
    }
}

/// One run: how many acquisitions were served after the late waiter was queued and before it.
fn overtaken(acquire: Acquire) -> u64 {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .build()
        .unwrap();
    runtime.block_on(async {
        let pool = Arc::new(SlotPool::new());
        let served = Arc::new(AtomicU64::new(0));
        let late_done = Arc::new(AtomicBool::new(false));
        let cyclers: Vec<_> = (0..CYCLERS)
            .map(|_| {
                let (pool, served, late_done) = (
                    Arc::clone(&pool),
                    Arc::clone(&served),
                    Arc::clone(&late_done),
                );
                tokio::spawn(async move {
                    while !late_done.load(Ordering::SeqCst)
                        && served.load(Ordering::SeqCst) < GIVE_UP
                    {
                        acquire
                            .hold(&pool, |slot| {
                                slot.taken = served.fetch_add(1, Ordering::SeqCst) + 1;
                            })
                            .await;
                    }
                })
            })
            .collect();
        // On the runtime's own thread, beside the two workers the cyclers share.
        while served.load(Ordering::SeqCst) < WARM_UP {
            tokio::task::yield_now().await;
        }
        // The count when it is served, read while it holds the slot.
        let mut waiting = pin!(acquire.hold(&pool, |_| served.load(Ordering::SeqCst)));
        // The first poll queues it (the slot is taken), and reads the count then.
        let mut queued_at = None;
        let served_at = poll_fn(|cx| {
            let now = waiting.as_mut().poll(cx);
            queued_at.get_or_insert_with(|| served.load(Ordering::SeqCst));
            now
        })
        .await;
        // Nothing overtook it if the slot was free at once.
        let overtaken = served_at.saturating_sub(queued_at.unwrap());
        late_done.store(true, Ordering::SeqCst);
        for cycler in cyclers {
            cycler.await.unwrap();
        }
        let stats = pool.stats();
        assert_eq!((stats.free, stats.leased, stats.failed), (1, 0, 0));
        assert_eq!(stats.created, served.load(Ordering::SeqCst) + 1);
        overtaken
    })
}

#[test]
fn a_late_waiter_is_served_after_at_most_the_waiters_queued_before_it() {
    let runs: Vec<u64> = (0..RUNS)
        .map(|run| {
            overtaken(if run % 2 == 0 {
                Acquire::Borrowed
            } else {
                Acquire::Owned
            })
        })
        .collect();
    let over: Vec<_> = runs.iter().filter(|&&n| n > CYCLERS).collect();
    let at_most: Vec<_> = (0..=CYCLERS)
        .map(|n| runs.iter().filter(|&&m| m == n).count())
        .collect();
    eprintln!(
        "{} runs of {RUNS} overtaken by more than {CYCLERS}: {over:?}; \
         runs overtaken by 0 to {CYCLERS}: {at_most:?}",
        over.len(),
    );
    assert!(
        over.is_empty(),
        "a late waiter overtaken by more acquisitions than waiters queued before it"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn waiters_timed_out_as_slots_are_handed_to_them_lose_no_slot() {
    const TASKS: u64 = 8;
    const ROUNDS: u64 = 300;
    let pool = Arc::new(SlotPool::with_capacity(2));
    // Both slots held until every task has seen a wait time out: on a fast machine every wait
    // of the rounds below may be served in time (most runs here were), and a test of timeouts
    // must see some.
    let held = [(); 2].map(|()| pool.try_acquire(|slot| slot.taken = TASKS).unwrap());
    let first_timeouts = Arc::new(AtomicU64::new(0));
    let tasks: Vec<_> = (0..TASKS)
        .map(|task| {
            let pool = Arc::clone(&pool);
            let first_timeouts = Arc::clone(&first_timeouts);
            tokio::spawn(async move {
                let (mut served, mut timed_out) = (0, 0);
                for round in 0..ROUNDS {
                    // From nothing to a little over a timer tick: many end as a slot comes.
                    let patience = Duration::from_micros((task * 331 + round * 97) % 1_500);
                    let waiting = pool.acquire_owned_async(|slot| slot.taken = task);
                    if let Ok(lease) = tokio::time::timeout(patience, waiting).await {
                        assert_eq!(lease.taken, task);
                        served += 1;
                        tokio::task::yield_now().await;
                    } else {
                        if timed_out == 0 {
                            first_timeouts.fetch_add(1, Ordering::Relaxed);
                        }
                        timed_out += 1;
                    }
                }
                (served, timed_out)
            })
        })
        .collect();
    while first_timeouts.load(Ordering::Relaxed) < TASKS {
        tokio::time::sleep(Duration::from_millis(1)).await;
    }
    drop(held);
    let (mut served, mut timed_out) = (0, 0);
    for task in tasks {
        let (s, t) = task.await.unwrap();
        served += s;
        timed_out += t;
    }
    assert!(timed_out >= TASKS, "each task's first wait timed out");
    pool.check_consistency().unwrap();
    let stats = pool.stats();
    assert_eq!(
        (stats.free, stats.leased, stats.waiting, stats.failed),
        (2, 0, 0, 0),
        "every slot back, none handed to a task that has gone"
    );
    assert_eq!(
        stats.created,
        served + 2,
        "the tasks' and the two held at the start"
    );
    assert!(stats.waited >= timed_out);
}
