//! Inline pools (`#[pool(storage = inline)]`): slots inside the pool, a `const fn new()` that
//! builds nothing, blank objects built on first use up to a watermark and never again, and
//! everything else as on the heap.

use pooling::{Evictable, Handle, Inline, Lender, Pool, Pooled, Reset, Storage};
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering::Relaxed};

/// Counts per test, so that tests running at once do not share counters.
static BUILT: [AtomicUsize; 8] = [const { AtomicUsize::new(0) }; 8];
static DROPPED: [AtomicUsize; 8] = [const { AtomicUsize::new(0) }; 8];

/// A field that counts how often it is built blank and dropped, under its test's `ID`.
#[derive(Debug, Clone)]
struct Counted<const ID: usize>;

impl<const ID: usize> Reset for Counted<ID> {
    fn reset(&mut self) {}

    fn blank() -> Self {
        BUILT[ID].fetch_add(1, Relaxed);
        Counted
    }
}

impl<const ID: usize> Drop for Counted<ID> {
    fn drop(&mut self) {
        DROPPED[ID].fetch_add(1, Relaxed);
    }
}

fn built(id: usize) -> usize {
    BUILT[id].load(Relaxed)
}

fn dropped(id: usize) -> usize {
    DROPPED[id].load(Relaxed)
}

#[derive(Pooled, Clone)]
#[pool(size = 100, storage = inline)]
struct Packet {
    len: u16,
    bytes: [u8; 16],
}

/// The pool lives in a `static`, behind a lock, as firmware holds one.
static PACKETS: Mutex<PacketPool> = Mutex::new(PacketPool::new());

#[test]
fn a_pool_in_a_static_behind_a_lock() {
    let mut pool = PACKETS.lock().unwrap();
    let a = pool.create(|p| p.len = 3).unwrap();
    let b = pool.create(|p| p.bytes[0] = 9).unwrap();
    assert_eq!((pool[a].len, pool[b].bytes[0]), (3, 9));
    pool.release(a).unwrap();
    assert!(pool.get(a).is_none());
    assert_eq!(pool.len(), 1);
    pool.release_all();
    assert!(pool.is_empty());
}

#[test]
fn const_new_builds_nothing_and_holds_the_slots_inline() {
    // `new` is `const` and builds nothing; the pool's size is the objects it holds, no heap.
    let pool = const { PacketPool::new() };
    assert_eq!(pool.capacity(), 100);
    assert!(pool.is_empty());
    assert_eq!(pool.stats().free, 100);
    assert!(size_of::<PacketPool>() >= 100 * size_of::<Packet>());
    let info = allocation_counter::measure(|| {
        let mut pool = PacketPool::new();
        for round in 0..3 {
            let handles: Vec<_> = (0..100)
                .map(|i| pool.create(|p| p.len = i + round).unwrap())
                .collect();
            assert!(pool.create(|_| {}).is_err());
            for h in handles {
                pool.release(h).unwrap();
            }
        }
    });
    // The `Vec` of handles is the test's own: three of them.
    assert_eq!(info.count_total, 3);
}

#[derive(Pooled)]
#[pool(size = 70, storage = inline)]
struct Watermark {
    n: u32,
    counted: Counted<0>,
}

#[test]
fn each_slot_is_built_once_on_first_use() {
    let mut pool = WatermarkPool::new();
    assert_eq!(built(0), 0);
    let a = pool.create(|w| w.n = 1).unwrap();
    let b = pool.create(|w| w.n = 2).unwrap();
    assert_eq!(built(0), 2);
    pool.release(a).unwrap();
    // A free slot is reused before another is built.
    let c = pool.create(|w| w.n = 3).unwrap();
    assert_eq!(c.index(), a.index());
    assert_eq!(built(0), 2);
    let lease = pool.lender().try_acquire(|w| w.n = 4).map(drop);
    assert_eq!(lease, Ok(()));
    assert_eq!(built(0), 3);
    let mut all = vec![b, c];
    while let Ok(h) = pool.try_create(|_| {}) {
        all.push(h);
    }
    assert_eq!(all.len(), 70);
    assert_eq!(built(0), 70);
    // Handed out in index order, as a heap pool's are.
    let mut indices: Vec<_> = all.iter().map(|h| h.index()).collect();
    indices.sort_unstable();
    assert_eq!(indices, (0..70).collect::<Vec<_>>());
    pool.release_all();
    for _ in 0..3 {
        let hs: Vec<_> = (0..70).map(|_| pool.create(|_| {}).unwrap()).collect();
        for h in hs {
            pool.release(h).unwrap();
        }
    }
    assert_eq!(built(0), 70, "never built again");
    assert_eq!(pool.stats().high_water, 70);
}

#[derive(Pooled)]
#[pool(size = 10, storage = inline)]
struct Prefilled {
    counted: Counted<1>,
}

#[test]
fn prefill_builds_every_slot_up_front_in_order() {
    let mut pool = PrefilledPool::new();
    let first = pool.create(|_| {}).unwrap();
    assert_eq!(built(1), 1);
    pool.prefill();
    assert_eq!(built(1), 10);
    let order: Vec<_> = (0..9)
        .map(|_| pool.create(|_| {}).unwrap().index())
        .collect();
    assert_eq!(order, (1..10).collect::<Vec<_>>());
    pool.prefill(); // nothing left to build
    assert_eq!(built(1), 10);
    assert!(pool.contains(first));
    assert!(pool.is_full());
}

#[derive(Pooled)]
#[pool(size = 6, storage = inline)]
struct Peaked {
    n: u32,
}

#[test]
fn prefill_leaves_the_high_water_mark_to_the_objects_in_use() {
    let mut pool = PeakedPool::new();
    let a = pool.create(|_| {}).unwrap();
    let b = pool.create(|_| {}).unwrap();
    pool.release(b).unwrap();
    pool.prefill();
    assert_eq!(pool.stats().high_water, 2);
    // The new slots are taken first, in order, then the one freed before the prefill.
    let order: Vec<_> = (0..5)
        .map(|n| {
            let h = pool.create(|_| {}).unwrap();
            assert_eq!(pool.stats().high_water, (n + 2).max(2));
            h.index()
        })
        .collect();
    assert_eq!(order, [2, 3, 4, 5, 1]);
    assert!(pool.contains(a));
}

#[derive(Pooled)]
#[pool(size = 130, storage = inline)]
struct Dropping {
    n: u32,
    counted: Counted<2>,
}

#[test]
fn dropping_the_pool_drops_only_the_built_slots() {
    let mut pool = DroppingPool::new();
    for n in 0..5 {
        pool.create(|d| d.n = n).unwrap();
    }
    assert!(pool.lender().try_acquire(|_| {}).is_ok());
    assert_eq!(built(2), 6);
    assert_eq!(dropped(2), 0);
    drop(pool);
    assert_eq!(dropped(2), 6);
}

#[derive(Pooled, Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
#[pool(size = 200, storage = inline)]
struct Particle {
    id: u32,
    frames_left: u32,
}

#[test]
fn iteration_and_retain_cross_words_of_occupancy() {
    let mut pool = ParticlePool::new();
    let handles: Vec<Handle<Particle>> = (0..200)
        .map(|id| pool.create(|p| p.id = id).unwrap())
        .collect();
    for h in handles.iter().filter(|h| h.index() % 3 != 0) {
        pool.release(*h).unwrap();
    }
    let ids: Vec<u32> = pool.values().map(|p| p.id).collect();
    assert_eq!(ids, (0..200).step_by(3).collect::<Vec<_>>());
    for (h, p) in &pool {
        assert_eq!(h.index(), p.id as usize);
    }
    for p in pool.values_mut() {
        p.frames_left = p.id % 2;
    }
    pool.retain(|p| p.frames_left > 0);
    assert!(pool.values().all(|p| p.id % 2 == 1 && p.id % 3 == 0));
    assert_eq!(
        pool.len(),
        (0..200).step_by(3).filter(|i| i % 2 == 1).count()
    );
    let mut seen = 0;
    pool.retain_with_handle(|h, p| {
        assert_eq!(h.index(), p.id as usize);
        seen += 1;
        true
    });
    assert_eq!(seen, pool.len());
}

#[test]
fn leases_handles_index_and_disjoint_borrows() {
    let mut pool = ParticlePool::new();
    let a = pool.create(|p| p.id = 1).unwrap();
    let b = pool.create(|p| p.id = 2).unwrap();
    if let Some([x, y]) = pool.get_disjoint_mut([a, b]) {
        std::mem::swap(&mut x.id, &mut y.id);
    }
    assert_eq!((pool[a].id, pool[b].id), (2, 1));
    assert!(pool.get_disjoint_mut([a, a]).is_none());
    pool[a].frames_left = 7;
    {
        let pool = pool.lender();
        let mut one = pool.try_acquire(|p| p.id = 10).unwrap();
        let two = pool.try_acquire(|p| p.id = 20).unwrap();
        one.frames_left = 1;
        assert_eq!(pool.stats().leased, 2);
        assert_eq!(pool.iter().count(), 2, "leased objects are not iterated");
        let kept = two.into_handle();
        assert_eq!(pool.get(kept).map(|p| p.id), Some(20));
    }
    let stats = pool.stats();
    assert_eq!((stats.live, stats.leased, stats.created), (3, 0, 4));
    assert_eq!(stats.free, 197);
    pool.release(a).unwrap();
    assert!(pool.release(a).is_err());
    assert!(pool.get(a).is_none());
}

#[test]
fn a_clone_keeps_every_handle_and_lent_slots_come_back_free() {
    let mut pool = ParticlePool::new();
    let a = pool.create(|p| p.id = 1).unwrap();
    let b = pool.create(|p| p.id = 2).unwrap();
    pool.release(a).unwrap();
    // A forgotten lease: its slot stays lent in the pool, and is free in a copy.
    std::mem::forget(pool.lender().try_acquire(|p| p.id = 3).unwrap());
    let copy = pool.clone();
    assert_eq!(copy.get(b), pool.get(b));
    assert!(copy.get(a).is_none());
    assert_eq!(copy.stats().leased, 0);
    assert_eq!(copy.len(), 1);
    assert_eq!(copy.stats().free, pool.stats().free + 1);
    let mut copy = copy;
    let mut original = pool;
    // The lent slot is on the copy's free list, which an inline pool takes from before it
    // builds a slot; then the same creates give the same handles in both.
    assert_eq!(
        copy.create(|_| {}).map(pooling::Handle::index),
        Ok(a.index())
    );
    for _ in 0..5 {
        assert_eq!(
            copy.create(|_| {}).unwrap(),
            original.create(|_| {}).unwrap()
        );
    }
    copy.check_consistency().unwrap();
}

/// A handle from another inline pool of the same type is refused.
#[test]
fn handles_from_another_pool_are_stale() {
    let mut one = ParticlePool::new();
    let mut two = ParticlePool::new();
    let h1 = one.create(|p| p.id = 1).unwrap();
    let h2 = two.create(|p| p.id = 2).unwrap();
    assert_eq!(h1.index(), h2.index());
    assert!(one.get(h2).is_none());
    assert!(two.get(h1).is_none());
    assert!(two.release(h1).is_err());
}

#[derive(Pooled)]
#[pool(size = 2, storage = inline, on_full = panic)]
struct Boss {
    health: u32,
}

#[derive(Pooled)]
#[pool(size = 3, storage = inline, on_full = evict, evict_by = |v| v.volume)]
struct Voice {
    volume: u32,
}

#[test]
fn every_strategy_but_grow() {
    let mut bosses = BossPool::new();
    bosses.create(|b| b.health = 1);
    bosses.create(|b| b.health = 2);
    let full = catch_unwind(AssertUnwindSafe(|| bosses.create(|_| {})));
    assert!(full.is_err());
    assert_eq!(bosses.stats().failed, 1);

    let mut voices = VoicePool::new();
    let quiet = voices.create(|v| v.volume = 1);
    let loud = voices.create(|v| v.volume = 9);
    voices.create(|v| v.volume = 5);
    assert_eq!(voices.victim(), Some(quiet));
    let newest = voices.create(|v| v.volume = 7);
    assert!(!voices.contains(quiet));
    assert!(voices.contains(loud) && voices.contains(newest));
    assert_eq!(voices.stats().evicted, 1);

    let mut packets = PacketPool::new();
    for _ in 0..100 {
        packets.create(|_| {}).unwrap();
    }
    assert!(packets.create(|_| {}).is_err());
    assert_eq!(packets.stats().failed, 1);
}

/// Generic code over every storage reaches every common method.
fn loudest<T: Evictable, S, B: Storage>(pool: &Pool<T, S, B>) -> Option<Handle<T>> {
    pool.iter()
        .max_by_key(|(_, v)| v.importance())
        .map(|(h, _)| h)
}

#[test]
fn generic_code_takes_inline_pools() {
    let mut voices: Pool<Voice, pooling::Evict, Inline<3, 1>> = VoicePool::new();
    voices.create(|v| v.volume = 4);
    let loud = voices.create(|v| v.volume = 8);
    assert_eq!(loudest(&voices), Some(loud));
}

thread_local! {
    /// A leaked pool's leaked lender, which a blank object's code reaches.
    static NESTED: &'static Lender<'static, Nested, pooling::Fail, Inline<4, 1>> =
        Box::leak(Box::new(Box::leak(Box::new(NestedPool::new())).lender()));
    static PANIC_NEXT: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// A field whose blank value reaches its own pool, or panics, when told to.
struct Meddler;

impl Reset for Meddler {
    fn reset(&mut self) {}

    fn blank() -> Self {
        assert!(!PANIC_NEXT.replace(false), "a field's blank value panicked");
        Meddler
    }
}

#[derive(Pooled)]
#[pool(size = 4, storage = inline)]
struct Nested {
    id: u32,
    meddler: Meddler,
    #[pool(keep)]
    #[expect(dead_code, reason = "held for the code its `Default` runs")]
    reach: Reach,
}

/// A kept field built from `Default`: the user code a blank object runs.
struct Reach;

impl Default for Reach {
    fn default() -> Self {
        if REACH.replace(false) {
            NESTED.with(|pool| drop(pool.try_acquire(|_| {})));
        }
        Reach
    }
}

thread_local! {
    static REACH: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// Tests that reach a leaked pool, which Miri runs with leaks allowed (`.ci/run`).
mod leaked_pool {
    use super::*;

    #[test]
    fn building_a_blank_object_that_reaches_its_pool_panics_and_the_pool_stays_whole() {
        NESTED.with(|pool| {
            let first = pool.try_acquire(|n| n.id = 1).unwrap().into_handle();
            REACH.set(true);
            let refused = catch_unwind(AssertUnwindSafe(|| pool.try_acquire(|_| {})));
            let message = refused.err().expect("re-entry panics");
            let message = message.downcast_ref::<&str>().copied().unwrap_or_default();
            assert!(message.contains("must not create or acquire"), "{message}");
            assert_eq!(pool.len(), 1);
            assert_eq!(pool.stats().leased, 0);
            // The watermark did not move: the next slot builds as if nothing happened.
            let lease = pool.try_acquire(|n| n.id = 2).unwrap();
            assert_eq!((lease.id, pool.get(first).map(|n| n.id)), (2, Some(1)));
        });
    }
}

#[test]
fn a_blank_object_that_panics_leaves_the_slot_unbuilt() {
    let mut pool = NestedPool::new();
    let a = pool.create(|n| n.id = 1).unwrap();
    PANIC_NEXT.set(true);
    assert!(catch_unwind(AssertUnwindSafe(|| pool.create(|_| {}))).is_err());
    assert_eq!(pool.len(), 1);
    assert_eq!(pool.stats().created, 1);
    let b = pool.create(|n| n.id = 2).unwrap();
    assert_eq!(b.index(), 1);
    assert_eq!((pool[a].id, pool[b].id), (1, 2));
    PANIC_NEXT.set(true);
    assert!(catch_unwind(AssertUnwindSafe(|| pool.prefill())).is_err());
    pool.prefill();
    assert_eq!(pool.len(), 2);
    assert_eq!(pool.stats().free, 2);
    let order: Vec<_> = (0..2)
        .map(|_| pool.create(|_| {}).unwrap().index())
        .collect();
    assert_eq!(order, [2, 3]);
}

#[derive(Pooled, serde::Serialize, serde::Deserialize, Debug, PartialEq)]
#[pool(size = 8, storage = inline)]
struct Saved {
    score: u32,
    target: Option<Handle<Saved>>,
}

#[test]
fn an_inline_pool_saves_and_loads_slot_for_slot() {
    let mut pool = SavedPool::new();
    let a = pool.create(|s| s.score = 10).unwrap();
    let b = pool.create(|s| s.target = Some(a)).unwrap();
    let dead = pool.create(|_| {}).unwrap();
    pool.release(dead).unwrap();
    let save = serde_json::to_string(&pool).unwrap();
    let mut loaded: SavedPool = serde_json::from_str(&save).unwrap();
    assert_eq!(loaded[a].score, 10);
    assert_eq!(loaded[b].target, Some(a));
    assert!(loaded.get(dead).is_none());
    assert_eq!(loaded.stats(), pool.stats());
    // Free slots are taken in the same order, and unbuilt ones built as before.
    for _ in 0..6 {
        assert_eq!(loaded.create(|_| {}).unwrap(), pool.create(|_| {}).unwrap());
    }
    // A heap pool's save loads into an inline pool it fits in.
    let mut heap = Pool::<Saved, pooling::Fail, pooling::Heap>::with_capacity(4);
    let kept = heap.create(|s| s.score = 7).unwrap();
    let moved: SavedPool = serde_json::from_str(&serde_json::to_string(&heap).unwrap()).unwrap();
    assert_eq!(moved.get(kept).map(|s| s.score), Some(7));
    assert_eq!(moved.capacity(), 8);
    // A save with more slots than the pool holds is refused.
    let mut big = ParticlePool::new();
    for id in 0..20 {
        big.create(|p| p.id = id).unwrap();
    }
    let too_many = serde_json::to_string(&big).unwrap();
    let small: Result<Pool<Particle, pooling::Fail, Inline<8, 1>>, _> =
        serde_json::from_str(&too_many);
    assert!(small.is_err());
}

const VOICES: usize = 130;

#[derive(Pooled)]
#[pool(size = VOICES, storage = inline)]
struct Sized130 {
    n: u32,
}

#[test]
fn a_constant_size_gets_its_words_of_bits_computed() {
    let mut pool = Sized130Pool::new();
    let same: &Pool<Sized130, pooling::Fail, Inline<130, 3>> = &pool;
    assert_eq!(same.capacity(), VOICES);
    let handles: Vec<_> = (0..130)
        .map(|n| pool.create(|s| s.n = n).unwrap())
        .collect();
    assert_eq!(pool.values().count(), 130);
    assert_eq!(pool[handles[129]].n, 129);
}
