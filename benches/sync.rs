//! The pool shared across threads: churn (create one object, release it) and get (look up a
//! live object by key and read it) on 1, 2, 4 and 8 threads, against sharded-slab's `Pool`
//! (lock-free, per-thread shards), object-pool (a `parking_lot::Mutex` around a stack; it has
//! no keys, so only churn) and the single-threaded pool behind a std `Mutex`; and the
//! single-threaded `Pool` on one thread, for what sharing costs.
//!
//! One criterion iteration is one operation on every thread at once: the threads start together
//! behind a barrier, each runs `iters` operations, and the time is taken when the last one is
//! done. On a machine with fewer cores than threads, 4 and 8 threads show contention and
//! preemption rather than parallel speed-up. Self-contained: it needs nothing from `common/`.

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use pooling::{Handle, Pooled};
use std::hint::black_box;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Barrier, Mutex};
use std::thread;
use std::time::{Duration, Instant};

const THREADS: [usize; 4] = [1, 2, 4, 8];

/// Objects live during the get benchmark; every slot for churn is free.
const LIVE: usize = 256;
const CAPACITY: usize = 1024;

#[derive(Pooled)]
#[pool(size = 1024, sync)]
struct Job {
    id: u64,
    payload: Vec<u8>,
}

/// The same object for the single-threaded pool.
#[derive(Pooled)]
#[pool(size = 1024)]
struct LocalJob {
    id: u64,
    payload: Vec<u8>,
}

/// The same object for the peers, which build it with `Default` and (sharded-slab) reset it
/// with `Clear`.
#[derive(Default)]
struct PeerJob {
    id: u64,
    payload: Vec<u8>,
}

impl sharded_slab::Clear for PeerJob {
    fn clear(&mut self) {
        self.id = 0;
        self.payload.clear();
    }
}

/// Runs `work(thread, iters)` on `threads` threads started together; the wall time from the
/// start to the last thread's end. One thread runs on the bench's own, with no spawn to time.
fn on_threads(threads: usize, iters: u64, work: impl Fn(usize, u64) + Sync) -> Duration {
    if threads == 1 {
        let began = Instant::now();
        work(0, iters);
        return began.elapsed();
    }
    let start = Barrier::new(threads + 1);
    let mut began = None;
    thread::scope(|s| {
        for thread in 0..threads {
            let (start, work) = (&start, &work);
            s.spawn(move || {
                start.wait();
                work(thread, iters);
            });
        }
        start.wait();
        began = Some(Instant::now());
    });
    began.expect("the threads started").elapsed()
}

fn churn(c: &mut Criterion) {
    let mut group = c.benchmark_group("sync_churn");
    group.measurement_time(Duration::from_secs(2));
    for threads in THREADS {
        group.throughput(Throughput::Elements(threads as u64));

        let pool = JobPool::new();
        group.bench_function(BenchmarkId::new("pooling_sync", threads), |b| {
            b.iter_custom(|iters| {
                on_threads(threads, iters, |_, iters| {
                    for i in 0..iters {
                        let job = pool.create(|j| j.id = i).unwrap();
                        pool.release(black_box(job)).unwrap();
                    }
                })
            });
        });
        assert_eq!(pool.stats().free, CAPACITY);

        let slab = sharded_slab::Pool::<PeerJob>::new();
        group.bench_function(BenchmarkId::new("sharded_slab", threads), |b| {
            b.iter_custom(|iters| {
                on_threads(threads, iters, |_, iters| {
                    for i in 0..iters {
                        let key = slab.create_with(|j| j.id = i).unwrap();
                        assert!(slab.clear(black_box(key)));
                    }
                })
            });
        });

        let objects = object_pool::Pool::new(CAPACITY, PeerJob::default);
        group.bench_function(BenchmarkId::new("object_pool", threads), |b| {
            b.iter_custom(|iters| {
                on_threads(threads, iters, |_, iters| {
                    for i in 0..iters {
                        let mut job = objects.try_pull().unwrap();
                        job.id = i;
                        drop(black_box(job));
                    }
                })
            });
        });
        assert_eq!(objects.len(), CAPACITY);

        let locked = Mutex::new(LocalJobPool::new());
        group.bench_function(BenchmarkId::new("mutex_pool", threads), |b| {
            b.iter_custom(|iters| {
                on_threads(threads, iters, |_, iters| {
                    for i in 0..iters {
                        let job = locked.lock().unwrap().create(|j| j.id = i).unwrap();
                        locked.lock().unwrap().release(black_box(job)).unwrap();
                    }
                })
            });
        });
    }
    group.throughput(Throughput::Elements(1));
    let mut local = LocalJobPool::new();
    group.bench_function(BenchmarkId::new("pooling_single_threaded", 1), |b| {
        b.iter(|| {
            let job = local.create(|j| j.id = 1).unwrap();
            local.release(black_box(job)).unwrap();
        });
    });
    // The floor of a churn step that other threads may race: a compare-and-swap to take a
    // slot off a free list, one to end the object's life, one to put the slot back, each on
    // its own word and nothing else.
    let words: [AtomicU64; 3] = Default::default();
    group.bench_function(BenchmarkId::new("three_atomic_swaps", 1), |b| {
        b.iter(|| {
            for word in black_box(&words) {
                let now = word.load(Ordering::Relaxed);
                let _ = word.compare_exchange(now, now + 1, Ordering::AcqRel, Ordering::Relaxed);
            }
        });
    });
    group.finish();
}

/// The key for the `i`th lookup of thread `thread`: the threads walk the live keys with
/// different strides, so that they read different objects at once.
#[inline]
fn pick(i: u64, thread: usize) -> usize {
    #[expect(clippy::cast_possible_truncation, reason = "taken modulo LIVE")]
    let i = (i % LIVE as u64) as usize;
    (i * (2 * thread + 1)) % LIVE
}

fn get(c: &mut Criterion) {
    let mut group = c.benchmark_group("sync_get");
    group.measurement_time(Duration::from_secs(2));

    let pool = JobPool::new();
    let handles: Vec<Handle<Job>> = (0..LIVE as u64)
        .map(|id| pool.create(|j| j.id = id).unwrap())
        .collect();
    let slab = sharded_slab::Pool::<PeerJob>::new();
    let keys: Vec<usize> = (0..LIVE as u64)
        .map(|id| slab.create_with(|j| j.id = id).unwrap())
        .collect();
    let locked = Mutex::new(LocalJobPool::new());
    let local_handles: Vec<Handle<LocalJob>> = (0..LIVE as u64)
        .map(|id| locked.lock().unwrap().create(|j| j.id = id).unwrap())
        .collect();

    for threads in THREADS {
        group.throughput(Throughput::Elements(threads as u64));
        group.bench_function(BenchmarkId::new("pooling_sync", threads), |b| {
            b.iter_custom(|iters| {
                on_threads(threads, iters, |thread, iters| {
                    let mut sum = 0;
                    for i in 0..iters {
                        sum += pool.get(handles[pick(i, thread)]).unwrap().id;
                    }
                    black_box(sum);
                })
            });
        });
        group.bench_function(BenchmarkId::new("sharded_slab", threads), |b| {
            b.iter_custom(|iters| {
                on_threads(threads, iters, |thread, iters| {
                    let mut sum = 0;
                    for i in 0..iters {
                        sum += slab.get(keys[pick(i, thread)]).unwrap().id;
                    }
                    black_box(sum);
                })
            });
        });
        group.bench_function(BenchmarkId::new("mutex_pool", threads), |b| {
            b.iter_custom(|iters| {
                on_threads(threads, iters, |thread, iters| {
                    let mut sum = 0;
                    for i in 0..iters {
                        let handle = local_handles[pick(i, thread)];
                        sum += locked.lock().unwrap().get(handle).unwrap().id;
                    }
                    black_box(sum);
                })
            });
        });
    }
    group.throughput(Throughput::Elements(1));
    let local = locked.into_inner().unwrap();
    let mut i = 0;
    group.bench_function(BenchmarkId::new("pooling_single_threaded", 1), |b| {
        b.iter(|| {
            i += 1;
            black_box(local.get(local_handles[pick(i, 0)]).unwrap().id)
        });
    });
    // The floor of a guard that a release on another thread must wait for: a compare-and-swap
    // to count it in (from the value it is expected to have, as `get` does), a subtraction to
    // count it out, on one word, and nothing else.
    let word = AtomicU64::new(0);
    group.bench_function(BenchmarkId::new("two_atomic_swaps", 1), |b| {
        b.iter(|| {
            let word = black_box(&word);
            let _ = word.compare_exchange(0, 1, Ordering::Acquire, Ordering::Relaxed);
            word.fetch_sub(1, Ordering::AcqRel)
        });
    });
    group.finish();
}

criterion_group!(benches, churn, get);
criterion_main!(benches);
