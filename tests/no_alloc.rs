//! After `new()`, the pool never touches the heap: thousands of operations, zero allocations.

use pooling::Pooled;
use std::rc::Rc;

#[derive(Pooled)]
#[pool(size = 256)]
struct Particle {
    frames_left: u32,
    x: f64,
    y: f64,
    trail: Vec<(f64, f64)>,
    emitter: Option<Rc<u32>>,
}

#[test]
fn the_counter_sees_allocations() {
    let info = allocation_counter::measure(|| drop(std::hint::black_box(Box::new(1u64))));
    assert_eq!(info.count_total, 1);
}

#[test]
fn churn_lookups_iteration_and_retain_allocate_nothing() {
    let emitter = Rc::new(7);
    let mut pool = ParticlePool::new();
    let mut handles = Vec::with_capacity(256);
    let mut rng = fastrand::Rng::with_seed(2);
    // Each slot's trail allocates the first time it is used, and keeps that capacity.
    for _ in 0..256 {
        handles.push(pool.create(|p| p.trail.reserve(8)).unwrap());
    }
    pool.release_all();
    handles.clear();

    let mut checksum = 0.0;
    let info = allocation_counter::measure(|| {
        let steps = if cfg!(miri) { 300 } else { 20_000 };
        for step in 0..steps {
            match rng.u8(0..10) {
                0..=3 => {
                    if let Ok(h) = pool.create(|p| {
                        p.frames_left = rng.u32(1..20);
                        p.x = f64::from(step);
                        p.trail.push((p.x, p.y));
                        p.emitter = Some(Rc::clone(&emitter));
                    }) {
                        handles.push(h);
                    }
                }
                4..=5 if !handles.is_empty() => {
                    let h = handles.swap_remove(rng.usize(..handles.len()));
                    pool.release(h).unwrap();
                    assert!(pool.release(h).is_err());
                }
                6 if !handles.is_empty() => {
                    let h = handles[rng.usize(..handles.len())];
                    if let Some(p) = pool.get_mut(h) {
                        p.y += 1.0;
                    }
                    checksum += pool.get(h).map_or(0.0, |p| p.y);
                }
                7 => checksum += pool.iter().map(|(_, p)| p.x).sum::<f64>(),
                8 => pool.retain(|p| {
                    p.frames_left -= 1;
                    p.frames_left > 0
                }),
                _ => {
                    for (_, p) in &mut pool {
                        p.x += 0.5;
                    }
                }
            }
            handles.retain(|h| pool.contains(*h));
        }
        pool.release_all();
    });
    assert!(checksum > 0.0);
    assert_eq!(info.count_total, 0, "{info:?}");
    assert_eq!(Rc::strong_count(&emitter), 1);
    assert!(pool.stats().high_water > if cfg!(miri) { 20 } else { 100 });
}

#[derive(Pooled)]
#[pool(size = 64, on_full = panic)]
struct Boss {
    health: u32,
    minions: Vec<u32>,
}

#[derive(Pooled)]
#[pool(size = 16, on_full = evict, evict_by = Voice::priority)]
struct Voice {
    priority: u32,
    sample: Option<Rc<u32>>,
}

impl Voice {
    fn priority(&self) -> u32 {
        self.priority
    }
}

#[test]
fn panicking_and_evicting_pools_allocate_nothing_either() {
    let sample = Rc::new(1);
    let mut bosses = BossPool::new();
    let mut voices = VoicePool::new();
    let mut rng = fastrand::Rng::with_seed(5);
    let mut live_bosses = Vec::with_capacity(64);
    // Give each boss slot its buffer once.
    for _ in 0..64 {
        live_bosses.push(bosses.create(|b| b.minions.reserve(4)));
    }
    bosses.release_all();
    live_bosses.clear();

    let steps = if cfg!(miri) { 300 } else { 20_000 };
    let info = allocation_counter::measure(|| {
        for step in 0..steps {
            if live_bosses.len() < 64 && rng.bool() {
                live_bosses.push(bosses.create(|b| {
                    b.health = step;
                    b.minions.push(step);
                }));
            } else if !live_bosses.is_empty() {
                let b = live_bosses.swap_remove(rng.usize(..live_bosses.len()));
                bosses.release(b).unwrap();
            }
            voices.create(|v| {
                v.priority = rng.u32(..100);
                v.sample = Some(Rc::clone(&sample));
            });
        }
    });
    assert_eq!(info.count_total, 0, "{info:?}");
    assert!(voices.stats().evicted > 0);
    assert_eq!(Rc::strong_count(&sample), 17);
}

#[derive(Pooled)]
#[pool(size = 64, sync)]
struct Job {
    id: u64,
    payload: Vec<u8>,
}

#[test]
fn the_sync_pool_allocates_nothing_after_new() {
    let pool = JobPool::new();
    // Each slot's payload allocates the first time it is used, and keeps that capacity.
    let warm: Vec<_> = (0..64)
        .map(|_| pool.create(|j| j.payload.reserve(16)).unwrap())
        .collect();
    for job in warm {
        pool.release(job).unwrap();
    }
    let mut handles = Vec::with_capacity(64);
    let mut rng = fastrand::Rng::with_seed(3);
    let mut checksum = 0;
    let info = allocation_counter::measure(|| {
        let steps = if cfg!(miri) { 300 } else { 20_000 };
        for step in 0..steps {
            match rng.u8(0..5) {
                0 | 1 => {
                    if let Ok(h) = pool.create(|j| {
                        j.id = step;
                        j.payload.push(1);
                    }) {
                        handles.push(h);
                    }
                }
                2 if !handles.is_empty() => {
                    let h = handles.swap_remove(rng.usize(..handles.len()));
                    let guard = pool.get(h).unwrap();
                    pool.release(h).unwrap(); // the reset waits for the guard
                    checksum += guard.id;
                }
                3 => {
                    if let Ok(mut lease) = pool.acquire(|j| j.id = step) {
                        lease.payload.push(2);
                        checksum += lease.id;
                    }
                }
                _ => checksum += pool.stats().created,
            }
        }
    });
    assert_eq!(info.count_total, 0, "allocations after new()");
    assert!(checksum > 0);
    assert_eq!(pool.len(), handles.len());
}

#[test]
fn a_threads_first_use_of_a_sync_pool_allocates_nothing() {
    // The thread's first operation claims its thread id and registers the id's return at exit.
    let pool = JobPool::new();
    let info = std::thread::scope(|s| {
        s.spawn(|| {
            allocation_counter::measure(|| {
                let job = pool.create(|j| j.id = 1).unwrap();
                pool.release(job).unwrap();
            })
        })
        .join()
        .unwrap()
    });
    assert_eq!(info.count_total, 0, "{info:?}");
    assert_eq!(pool.stats().created, 1);
}

#[derive(Pooled)]
#[pool(size = 256, layout = columns)]
struct Spark {
    x: f32,
    y: f32,
    frames_left: u32,
}

#[derive(Pooled)]
#[pool(size = 256, storage = inline)]
struct Chirp {
    pitch: u16,
}

/// What `new()` allocates, exactly as the docs say: a heap pool four blocks (its objects, their
/// slots' words, a bit per slot, the free list), a sync pool two (its slots, the free stacks),
/// a column pool one per column beside the books' three (words, bits, free list) and an inline
/// pool none; each the pool's size, whatever the size. Objects whose blank value allocates add
/// their own (none here).
#[test]
fn new_makes_the_allocations_the_docs_count() {
    let count = |build: &dyn Fn()| allocation_counter::measure(build).count_total;
    assert_eq!(count(&|| drop(ParticlePool::new())), 4, "Pool");
    let large = if cfg!(miri) { 1_000 } else { 10_000 };
    assert_eq!(count(&|| drop(ParticlePool::with_capacity(large))), 4);
    assert_eq!(count(&|| drop(JobPool::new())), 2, "SyncPool");
    assert_eq!(
        count(&|| drop(SparkPool::new())),
        3 + 3,
        "ColumnPool of 3 fields"
    );
    assert_eq!(count(&|| drop(ChirpPool::new())), 0, "an inline Pool");
}
