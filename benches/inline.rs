//! Inline pools against heap pools and `heapless`'s object pool (its closest pool type: objects
//! built once and reused, no allocator), on 1,024 slots of a 32-byte object:
//!
//! - `inline/churn/<peer>`: one release and one create, at 50 % live, the slot released picked
//!   round the live ones by a fixed stride;
//! - `inline/iterate/<peer>/<percent live>`: a sum over every live object at 10, 50 and 90 %.
//!   `heapless` has no iteration: a program keeps its live objects in a list, here a `Vec`.
//!
//! Before the timings, it prints the bytes each takes: `size_of` the pool plus what it allocates
//! (`heapless`'s blocks live in a `static` a program declares; they are counted, with the list
//! of live objects iteration needs).
//!
//! Self-contained: it shares nothing with the other benchmarks.
#![expect(
    clippy::cast_possible_truncation,
    reason = "slot numbers are below 1,024"
)]

use criterion::{BenchmarkId, Criterion, criterion_group, criterion_main};
use heapless::object_pool;
use heapless::pool::object::{Object, ObjectBlock, ObjectPoolImpl};
use pooling::{Fail, Handle, Pool, Pooled, Storage};
use std::hint::black_box;
use std::sync::Once;

const SLOTS: usize = 1024;

/// A 32-byte object. Public, as `object_pool!` makes its pool type public.
#[derive(Pooled)]
#[pool(size = 1024, storage = inline)]
pub struct Particle {
    x: f64,
    y: f64,
    velocity: f64,
    frames_left: u32,
}

/// The same object in a heap pool.
#[derive(Pooled)]
#[pool(size = 1024)]
struct HeapParticle {
    x: f64,
    y: f64,
    velocity: f64,
    frames_left: u32,
}

object_pool!(Heapless: Particle);

/// Gives `heapless`'s pool its 1,024 blocks, once for the process: they are `'static`, leaked
/// here as a `static` would hold them.
fn heapless_pool() -> Heapless {
    static MANAGED: Once = Once::new();
    MANAGED.call_once(|| {
        let blocks: Vec<ObjectBlock<Particle>> = (0..SLOTS)
            .map(|_| ObjectBlock::new(Particle::unpooled()))
            .collect();
        for block in blocks.leak() {
            Heapless.manage(block);
        }
    });
    Heapless
}

impl Particle {
    /// A blank particle for `heapless`, which builds its objects from a value.
    fn unpooled() -> Self {
        Self {
            x: 0.0,
            y: 0.0,
            velocity: 0.0,
            frames_left: 0,
        }
    }
}

/// Which of the 1,024 slots are live at `percent`: a fixed spread, the same for every peer.
fn live(percent: usize, slot: usize) -> bool {
    (slot * 37 + 11) % 100 < percent
}

fn inline_pool(percent: usize) -> (Box<ParticlePool>, Vec<Handle<Particle>>) {
    let mut pool = Box::new(ParticlePool::new());
    let kept = occupy(&mut pool, percent, |p, slot| p.frames_left = slot);
    (pool, kept)
}

fn heap_pool(percent: usize) -> (HeapParticlePool, Vec<Handle<HeapParticle>>) {
    let mut pool = HeapParticlePool::new();
    let kept = occupy(&mut pool, percent, |p, slot| p.frames_left = slot);
    (pool, kept)
}

/// Fills every slot of `pool`, numbering the objects by `set`, then releases all but `percent`
/// of them; the handles kept.
fn occupy<T: Pooled, B: Storage>(
    pool: &mut Pool<T, Fail, B>,
    percent: usize,
    set: impl Fn(&mut T, u32),
) -> Vec<Handle<T>> {
    let all: Vec<_> = (0..SLOTS)
        .map(|slot| pool.create(|p| set(p, slot as u32)).unwrap())
        .collect();
    let mut kept = Vec::new();
    for (slot, handle) in all.into_iter().enumerate() {
        if live(percent, slot) {
            kept.push(handle);
        } else {
            pool.release(handle).unwrap();
        }
    }
    kept
}

fn heapless_objects(percent: usize) -> Vec<Object<Heapless>> {
    let pool = heapless_pool();
    let mut all: Vec<_> = (0..SLOTS)
        .map(|slot| {
            let mut object = pool.request().expect("1,024 blocks");
            object.frames_left = slot as u32;
            Some(object)
        })
        .collect();
    for (slot, object) in all.iter_mut().enumerate() {
        if !live(percent, slot) {
            drop(object.take());
        }
    }
    all.into_iter().flatten().collect()
}

/// The step between the live objects a churn releases: prime to the live count, so every one
/// is reached.
const STRIDE: usize = 7;

fn churn(c: &mut Criterion) {
    let mut group = c.benchmark_group("inline/churn");
    let (mut pool, mut handles) = inline_pool(50);
    let mut at = 0;
    group.bench_function("inline", |b| {
        b.iter(|| {
            pool.release(handles[at]).unwrap();
            handles[at] = pool.create(|p| p.frames_left = at as u32).unwrap();
            at = (at + STRIDE) % handles.len();
        });
    });
    drop(pool);
    let (mut pool, mut handles) = heap_pool(50);
    let mut at = 0;
    group.bench_function("heap", |b| {
        b.iter(|| {
            pool.release(handles[at]).unwrap();
            handles[at] = pool.create(|p| p.frames_left = at as u32).unwrap();
            at = (at + STRIDE) % handles.len();
        });
    });
    drop(pool);
    let mut objects = heapless_objects(50);
    let mut at = 0;
    group.bench_function("heapless", |b| {
        b.iter(|| {
            drop(objects.swap_remove(at));
            let mut object = Heapless.request().expect("half the blocks are free");
            object.frames_left = at as u32;
            objects.push(object);
            at = (at + STRIDE) % objects.len();
        });
    });
    group.finish();
}

fn iterate(c: &mut Criterion) {
    let mut group = c.benchmark_group("inline/iterate");
    for percent in [10, 50, 90] {
        let (pool, _) = inline_pool(percent);
        group.bench_function(BenchmarkId::new("inline", percent), |b| {
            b.iter(|| {
                let pool = black_box(&pool);
                pool.values().map(|p| u64::from(p.frames_left)).sum::<u64>()
            });
        });
        let (pool, _) = heap_pool(percent);
        group.bench_function(BenchmarkId::new("heap", percent), |b| {
            b.iter(|| {
                let pool = black_box(&pool);
                pool.values().map(|p| u64::from(p.frames_left)).sum::<u64>()
            });
        });
        let objects = heapless_objects(percent);
        group.bench_function(BenchmarkId::new("heapless", percent), |b| {
            b.iter(|| {
                let objects = black_box(&objects);
                objects
                    .iter()
                    .map(|p| u64::from(p.frames_left))
                    .sum::<u64>()
            });
        });
    }
    group.finish();
}

/// The bytes each pool of 1,024 objects takes, printed once.
fn bytes(_: &mut Criterion) {
    let inline = size_of::<ParticlePool>();
    let heap_alloc = allocation_counter::measure(|| drop(black_box(HeapParticlePool::new())));
    let heap = size_of::<HeapParticlePool>() + heap_alloc.bytes_total as usize;
    let heapless =
        size_of::<ObjectPoolImpl<Particle>>() + SLOTS * size_of::<ObjectBlock<Particle>>();
    let list = SLOTS * size_of::<Object<Heapless>>();
    println!(
        "bytes for 1,024 objects of {} bytes:",
        size_of::<Particle>()
    );
    println!("  inline   {inline:>6} (size_of the pool; no allocation)");
    println!(
        "  heap     {heap:>6} (size_of the pool + {} allocated)",
        heap_alloc.bytes_total
    );
    println!(
        "  heapless {heapless:>6} (the pool + its blocks; + up to {list} for a list of the live objects)"
    );
}

criterion_group! {
    name = benches;
    config = Criterion::default();
    targets = bytes, churn, iterate
}
criterion_main!(benches);
