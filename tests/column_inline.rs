//! Inline column pools (issue 33): `storage = inline` with `layout = columns` keeps an array of
//! each field inside the pool, with no allocation, behind the same handles, strategies, leases
//! and saves as a heap column pool.

use pooling::{Handle, Pooled, TotalOrder};
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::rc::Rc;

#[derive(Pooled)]
#[pool(size = 8, storage = inline, layout = columns)]
struct Spark {
    x: f32,
    heat: u32,
    trail: Vec<u8>,
    emitter: Option<Rc<()>>,
}

/// `Spark` in a heap column pool: the model.
#[derive(Pooled)]
#[pool(size = 8, layout = columns)]
struct HeapSpark {
    x: f32,
    heat: u32,
    trail: Vec<u8>,
    emitter: Option<Rc<()>>,
}

#[derive(Pooled)]
#[pool(size = 3, storage = inline, on_full = evict, evict_by = |v| TotalOrder(*v.volume), layout = columns)]
struct Voice {
    volume: f32,
}

#[derive(Pooled)]
#[pool(size = 1, storage = inline, on_full = panic, layout = columns)]
struct Boss {
    health: u32,
}

#[test]
fn an_inline_column_pool_creates_reads_and_resets_as_a_heap_one() {
    let emitter = Rc::new(());
    let mut pool = SparkPool::new();
    assert_eq!((pool.capacity(), pool.len()), (8, 0));
    let a = pool
        .create(|s| {
            *s.heat = 3;
            s.trail.push(1);
            *s.emitter = Some(Rc::clone(&emitter));
        })
        .unwrap();
    let b = pool.create(|s| *s.x = 2.0).unwrap();
    assert_eq!(*pool.get(a).unwrap().heat, 3);
    *pool.get_mut(b).unwrap().x += 1.0;
    for run in pool.runs_mut() {
        for heat in run.heat.iter_mut() {
            *heat += 1;
        }
    }
    let rows: Vec<_> = pool.iter().map(|(h, s)| (h, *s.x, *s.heat)).collect();
    assert_eq!(rows, [(a, 0.0, 4), (b, 3.0, 1)]);
    pool.release(a).unwrap();
    assert!(pool.get(a).is_none());
    assert_eq!(Rc::strong_count(&emitter), 1, "the released row let go");
    let c = pool.create(|_| {}).unwrap();
    assert_eq!(c.index(), a.index(), "the slot reused");
    assert!(pool.get(c).unwrap().trail.is_empty());
    assert_eq!(
        pool.create_many(10, |_, _| {}),
        6,
        "as many as there is room for"
    );
    assert!(pool.create(|_| {}).is_err());
    pool.retain(|s| *s.heat > 0);
    assert_eq!(pool.len(), 1);
    pool.check_consistency().unwrap();
}

#[test]
fn an_inline_column_pool_lends_rows() {
    let mut pool = SparkPool::new();
    let live = pool.create(|s| *s.heat = 9).unwrap();
    let sparks = pool.lender();
    let mut a = sparks.acquire(|s| *s.heat = 1).unwrap();
    let b = sparks.acquire(|s| s.trail.push(2)).unwrap();
    a.row_mut().trail.extend_from_slice(b.row().trail);
    assert_eq!(*sparks.get(live).unwrap().heat, 9);
    assert_eq!(sparks.iter().count(), 1, "leases are not live");
    let kept = a.into_handle();
    drop(b);
    assert_eq!(*sparks.get(kept).unwrap().trail, [2]);
    let held: Vec<_> = (0..6).map(|_| sparks.acquire(|_| {}).unwrap()).collect();
    assert!(sparks.acquire(|_| {}).is_err(), "every slot live or lent");
    assert_eq!(sparks.stats().leased, 6);
    drop(held);
    assert_eq!((sparks.len(), sparks.stats().leased), (2, 0));
}

#[test]
fn strategies_apply_to_inline_column_pools() {
    let mut voices = VoicePool::new();
    let loud = voices.create(|v| *v.volume = 0.9);
    let quiet = voices.create(|v| *v.volume = 0.1);
    voices.create(|v| *v.volume = 0.5);
    let new = voices.create(|v| *v.volume = 0.7);
    assert!(voices.contains(loud) && voices.contains(new) && !voices.contains(quiet));
    assert_eq!(voices.stats().evicted, 1);

    let mut bosses = BossPool::new();
    bosses.create(|b| *b.health = 1);
    let full = catch_unwind(AssertUnwindSafe(|| bosses.create(|_| {})));
    assert!(full.is_err());
    assert_eq!(bosses.len(), 1);
}

#[test]
fn random_operations_match_a_heap_column_pool() {
    let emitter = Rc::new(());
    for seed in 0..if cfg!(miri) { 2 } else { 30 } {
        let mut rng = fastrand::Rng::with_seed(seed);
        let (mut inline, mut heap) = (SparkPool::new(), HeapSparkPool::new());
        let mut handles: Vec<(Handle<Spark>, Handle<HeapSpark>)> = Vec::new();
        for step in 0..150 {
            match rng.u8(..6) {
                0..=2 => {
                    let warmth = rng.u32(..100);
                    let a = inline.create(|s| {
                        *s.heat = warmth;
                        *s.emitter = Some(Rc::clone(&emitter));
                    });
                    let b = heap.create(|s| {
                        *s.heat = warmth;
                        *s.emitter = Some(Rc::clone(&emitter));
                    });
                    assert_eq!(a.is_ok(), b.is_ok());
                    if let (Ok(a), Ok(b)) = (a, b) {
                        assert_eq!(a.index(), b.index(), "seed {seed}, step {step}");
                        handles.push((a, b));
                    }
                }
                3 if !handles.is_empty() => {
                    let (a, b) = handles.swap_remove(rng.usize(..handles.len()));
                    assert_eq!(inline.release(a).is_ok(), heap.release(b).is_ok());
                }
                4 => {
                    let cut = rng.u32(..100);
                    inline.retain(|s| *s.heat >= cut);
                    heap.retain(|s| *s.heat >= cut);
                    handles.retain(|(a, _)| inline.contains(*a));
                }
                _ => {
                    let lender = inline.lender();
                    let kept = lender
                        .acquire(|s| *s.heat = 50)
                        .map(pooling::ColumnLease::into_handle);
                    let model = heap
                        .lender()
                        .acquire(|s| *s.heat = 50)
                        .map(pooling::ColumnLease::into_handle);
                    assert_eq!(kept.is_ok(), model.is_ok());
                    if let (Ok(a), Ok(b)) = (kept, model) {
                        handles.push((a, b));
                    }
                }
            }
            let rows: Vec<_> = inline.iter().map(|(h, s)| (h.index(), *s.heat)).collect();
            let model: Vec<_> = heap.iter().map(|(h, s)| (h.index(), *s.heat)).collect();
            assert_eq!(rows, model, "seed {seed}, step {step}");
            let (a, b) = (inline.stats(), heap.stats());
            assert_eq!(
                (a.live, a.created, a.released),
                (b.live, b.created, b.released)
            );
        }
        inline.check_consistency().unwrap();
        drop((inline, heap));
        assert_eq!(Rc::strong_count(&emitter), 1, "seed {seed}");
    }
}

#[test]
fn an_inline_column_pool_saves_and_loads() {
    let mut pool = VoicePool::new();
    let a = pool.create(|v| *v.volume = 0.25);
    let json = serde_json::to_string(&pool).unwrap();
    let loaded: VoicePool = serde_json::from_str(&json).unwrap();
    assert_eq!(*loaded.get(a).unwrap().volume, 0.25);
    assert_eq!(loaded.stats(), pool.stats());
}
