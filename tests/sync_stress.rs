//! A stress test of `SyncPool`, on the heap and inline in a `static`: 8 threads (more than this machine has cores) mix creates, gets,
//! releases, leases and hand-overs of objects between threads, and every object is accounted for
//! at the end: the pool's counts, each object's content against the handle and the thread that
//! made it, and an `Arc` held by exactly the live objects.
//!
//! 10⁷ operations in release mode (`cargo test -p pooling-tests --release --test sync_stress`, in `.ci/run`),
//! 10⁵ in debug, a few hundred under Miri.

use pooling::{Fail, Handle, Inline, Pooled, Storage, SyncPool};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Barrier};
use std::thread;

const THREADS: usize = 8;

const OPS: usize = if cfg!(miri) {
    400
} else if cfg!(debug_assertions) {
    100_000
} else {
    10_000_000
};

/// Handles each thread keeps at most; the mailboxes hold a few more, shared.
const KEPT: usize = if cfg!(miri) { 8 } else { 32 };
const MAILBOXES: usize = 16;

// Under Miri a pool of 128, still more than THREADS * (KEPT + 1) + MAILBOXES: with 512 the two
// tests took 333 CPU-seconds there, with 128 (and 8 kept) 70, for the same 400 operations.
#[derive(Pooled)]
#[cfg_attr(miri, pool(size = 128, sync))]
#[cfg_attr(not(miri), pool(size = 512, sync))]
struct Request {
    /// The object's own handle, as bits: a guard must only ever show the object its handle
    /// names.
    me: u64,
    creator: usize,
    body: Vec<u64>,
    token: Option<Arc<()>>,
}

/// What one thread did, for the totals.
#[derive(Default)]
struct Tally {
    created: u64,
    released: u64,
    lent: u64,
    kept: Vec<Handle<Request>>,
}

fn check(request: &Request, handle: Handle<Request>) {
    assert_eq!(
        request.me,
        handle.to_bits(),
        "a handle reached another object"
    );
    assert_eq!(
        request.body,
        [handle.to_bits()],
        "the body its creator wrote"
    );
    assert!(request.token.is_some());
}

fn work<B: Storage>(
    thread: usize,
    pool: &SyncPool<Request, Fail, B>,
    mailboxes: &[AtomicU64],
    token: &Arc<()>,
    start: &Barrier,
) -> Tally {
    start.wait();
    let mut rng = fastrand::Rng::with_seed(thread as u64);
    let mut tally = Tally::default();
    let create = |tally: &mut Tally| {
        let handle = pool
            .create_with_handle(|handle, r| {
                r.me = handle.to_bits();
                r.creator = thread;
                r.body.push(handle.to_bits());
                r.token = Some(Arc::clone(token));
            })
            .expect("the pool is sized never to fill");
        tally.created += 1;
        tally.kept.push(handle);
    };
    for _ in 0..OPS / THREADS {
        match rng.u8(0..8) {
            0..=2 if tally.kept.len() < KEPT => create(&mut tally),
            0..=2 | 5 => {
                if let Some(handle) = tally.kept.pop() {
                    pool.release(handle).expect("this thread owns it");
                    tally.released += 1;
                    assert!(pool.get(handle).is_none());
                }
            }
            3 => {
                if !tally.kept.is_empty() {
                    let handle = tally.kept[rng.usize(..tally.kept.len())];
                    check(&pool.get(handle).expect("live"), handle);
                }
            }
            4 => {
                // Another thread may release it at any moment: a guard still sees it whole.
                let bits = mailboxes[rng.usize(..MAILBOXES)].load(Ordering::Relaxed);
                if let Some(handle) = Handle::from_bits(bits)
                    && let Some(request) = pool.get(handle)
                {
                    check(&request, handle);
                }
            }
            6 => {
                let mut lease = pool.acquire(|r| r.creator = thread).expect("sized");
                assert!(lease.body.is_empty() && lease.token.is_none(), "reset");
                assert_eq!(lease.me, 0, "reset");
                lease.body.push(1);
                tally.lent += 1;
            }
            _ => {
                // Hand a handle over: swap ours into a mailbox, take over what was there.
                let ours = tally.kept.pop().map_or(0, Handle::to_bits);
                let theirs = mailboxes[rng.usize(..MAILBOXES)].swap(ours, Ordering::AcqRel);
                if let Some(handle) = Handle::from_bits(theirs) {
                    check(&pool.get(handle).expect("handed over live"), handle);
                    tally.kept.push(handle);
                }
            }
        }
    }
    tally
}

/// The same objects inside a `static` pool, with no allocation of its own.
const SIZE: usize = if cfg!(miri) { 128 } else { 512 };
static INLINE: SyncPool<Request, Fail, Inline<SIZE, 8>> = SyncPool::<_, _, Inline<SIZE, 8>>::new();

#[test]
fn eight_threads_and_every_object_accounted_for() {
    every_object_accounted_for(&RequestPool::new());
}

#[test]
fn eight_threads_on_a_static_inline_pool_and_every_object_accounted_for() {
    every_object_accounted_for(&INLINE);
}

fn every_object_accounted_for<B: Storage>(pool: &SyncPool<Request, Fail, B>) {
    let mailboxes: Vec<AtomicU64> = (0..MAILBOXES).map(|_| AtomicU64::new(0)).collect();
    let token = Arc::new(());
    let start = Barrier::new(THREADS);
    let tallies: Vec<Tally> = thread::scope(|s| {
        let workers: Vec<_> = (0..THREADS)
            .map(|thread| {
                let (mailboxes, token, start) = (&mailboxes, &token, &start);
                s.spawn(move || work(thread, pool, mailboxes, token, start))
            })
            .collect();
        workers.into_iter().map(|w| w.join().unwrap()).collect()
    });

    let mut live: Vec<Handle<Request>> = tallies.iter().flat_map(|t| t.kept.clone()).collect();
    live.extend(
        mailboxes
            .iter()
            .filter_map(|m| Handle::from_bits(m.load(Ordering::Relaxed))),
    );
    for &handle in &live {
        check(
            &pool.get(handle).expect("every kept handle is live"),
            handle,
        );
    }
    let mut indices: Vec<usize> = live.iter().map(|h| h.index()).collect();
    indices.sort_unstable();
    indices.dedup();
    assert_eq!(indices.len(), live.len(), "no slot holds two live objects");

    let created: u64 = tallies.iter().map(|t| t.created).sum();
    let released: u64 = tallies.iter().map(|t| t.released).sum();
    let lent: u64 = tallies.iter().map(|t| t.lent).sum();
    let stats = pool.stats();
    assert_eq!(pool.len(), live.len());
    assert_eq!(
        (stats.live, stats.leased, stats.retired),
        (live.len(), 0, 0)
    );
    assert_eq!(stats.free, stats.capacity - live.len());
    assert_eq!(stats.created, created + lent);
    assert_eq!(stats.released, released + lent);
    assert_eq!(created - released, live.len() as u64);
    // At most THREADS * (KEPT + 1) + MAILBOXES are in use at once; `high_water` counts the slots
    // ever used, which racing threads can push past that (a thread that finds no free slot on
    // the shards takes a new one, while another frees one behind its search).
    assert!(stats.high_water >= live.len() && stats.high_water <= stats.capacity);
    assert_eq!(
        Arc::strong_count(&token),
        1 + live.len(),
        "held by exactly the live objects"
    );
    assert!(created > (OPS / 10) as u64, "the mix did create: {created}");

    for handle in live {
        pool.release(handle).unwrap();
    }
    assert_eq!(Arc::strong_count(&token), 1);
    assert_eq!(pool.stats().free, pool.capacity());
}
