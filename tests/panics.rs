//! A panic in user code (`init`, a `reset_with` function, a field's `Drop`) leaves the pool
//! consistent: every slot is live or free, never lost, never shared.

use pooling::Pooled;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::rc::Rc;

thread_local! {
    static FAIL_RESET: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

fn fallible_reset(value: &mut u32) {
    assert!(!FAIL_RESET.get(), "reset failed");
    *value = 0;
}

#[derive(Pooled)]
#[pool(size = 2)]
struct Fragile {
    #[pool(reset_with = fallible_reset)]
    value: u32,
    held: Option<Rc<()>>,
}

#[test]
fn a_panic_in_init_puts_the_slot_back_reset() {
    let shared = Rc::new(());
    let mut pool = FragilePool::new();
    let result = catch_unwind(AssertUnwindSafe(|| {
        pool.create(|f| {
            f.held = Some(Rc::clone(&shared));
            panic!("init failed");
        })
    }));
    assert!(result.is_err());
    assert_eq!(Rc::strong_count(&shared), 1);
    assert!(pool.is_empty());
    assert_eq!(pool.stats().free, 2);
    let a = pool.create(|f| f.value = 1).unwrap();
    let b = pool.create(|f| f.value = 2).unwrap();
    assert_ne!(a.index(), b.index(), "the slot was not handed out twice");
    assert!(pool.is_full());
}

#[test]
fn a_panic_in_a_reset_function_leaves_the_object_live() {
    let mut pool = FragilePool::new();
    let h = pool.create(|f| f.value = 5).unwrap();
    FAIL_RESET.set(true);
    let result = catch_unwind(AssertUnwindSafe(|| pool.release(h)));
    FAIL_RESET.set(false);
    assert!(result.is_err());
    assert!(
        pool.contains(h),
        "the object stays live and its handle valid"
    );
    assert_eq!(pool.len(), 1);
    pool.release(h).unwrap();
    assert!(pool.is_empty());
    assert_eq!(pool.stats().free, 2);
}

#[test]
fn a_panic_in_retain_keeps_what_was_decided() {
    let mut pool = FragilePool::new();
    let a = pool.create(|f| f.value = 1).unwrap();
    let b = pool.create(|f| f.value = 2).unwrap();
    let result = catch_unwind(AssertUnwindSafe(|| {
        pool.retain(|f| {
            assert_ne!(f.value, 2, "keep failed");
            false
        });
    }));
    assert!(result.is_err());
    assert!(!pool.contains(a), "released before the panic");
    assert!(pool.contains(b), "untouched after it");
    assert_eq!(pool.len(), 1);
}

struct Bomb(bool);

impl Drop for Bomb {
    fn drop(&mut self) {
        assert!(!self.0, "drop failed");
    }
}

#[derive(Pooled)]
#[pool(size = 1)]
struct Armed {
    bombs: Vec<Bomb>,
}

#[test]
fn a_panicking_drop_during_release_leaves_the_pool_usable() {
    let mut pool = ArmedPool::new();
    let h = pool.create(|a| a.bombs.push(Bomb(true))).unwrap();
    let result = catch_unwind(AssertUnwindSafe(|| pool.release(h)));
    assert!(result.is_err());
    // `Vec::clear` empties the vector before dropping its elements, so the object is blank and
    // still live: release it again.
    assert!(pool.get(h).is_some_and(|a| a.bombs.is_empty()));
    pool.release(h).unwrap();
    assert!(pool.create(|_| {}).is_ok());
}

#[derive(Pooled)]
#[pool(size = 2, on_full = evict, evict_by = Voice::priority)]
struct Voice {
    priority: u32,
    sample: Option<Rc<()>>,
}

impl Voice {
    fn priority(&self) -> u32 {
        self.priority
    }
}

#[test]
fn a_panic_in_init_after_an_eviction_leaves_the_victim_gone_and_the_slot_free() {
    let sample = Rc::new(());
    let mut pool = VoicePool::new();
    let quiet = pool.create(|v| {
        v.priority = 1;
        v.sample = Some(Rc::clone(&sample));
    });
    let loud = pool.create(|v| v.priority = 9);
    let result = catch_unwind(AssertUnwindSafe(|| {
        pool.create(|v| {
            v.sample = Some(Rc::clone(&sample));
            panic!("init failed");
        })
    }));
    assert!(result.is_err());
    assert!(
        !pool.contains(quiet),
        "the victim was evicted before init ran"
    );
    assert!(pool.contains(loud));
    assert_eq!(
        Rc::strong_count(&sample),
        1,
        "both the victim and the half-built voice let go"
    );
    let stats = pool.stats();
    assert_eq!((stats.live, stats.free, stats.evicted), (1, 1, 1));
    let next = pool.create(|v| v.priority = 5);
    assert_eq!(next.index(), quiet.index(), "the freed slot is reused");
}

#[derive(Pooled)]
#[pool(size = 1, on_full = grow, max = 4)]
struct Enemy {
    loot: Vec<u32>,
}

#[test]
fn a_panic_in_init_after_growing_leaves_the_new_slots_free() {
    let mut pool = EnemyPool::new();
    let first = pool.create(|e| e.loot.push(1)).unwrap();
    let result = catch_unwind(AssertUnwindSafe(|| {
        pool.create(|e| {
            e.loot.push(2);
            panic!("init failed");
        })
    }));
    assert!(result.is_err());
    let stats = pool.stats();
    assert_eq!((stats.capacity, stats.live, stats.free), (2, 1, 1));
    let second = pool.create(|_| {}).unwrap();
    assert!(
        pool.get(second).unwrap().loot.is_empty(),
        "no loot left from the panicked init"
    );
    assert_eq!(pool.get(first).unwrap().loot, [1]);
}

thread_local! {
    static FAIL_DROP: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// Panics in `drop` once, when `FAIL_DROP` is set.
#[derive(Default)]
struct Fuse;

impl Drop for Fuse {
    fn drop(&mut self) {
        assert!(!FAIL_DROP.replace(false), "drop failed");
    }
}

#[derive(Pooled)]
#[pool(size = 2, on_full = grow, max = 32)]
struct Cargo {
    id: u32,
    #[pool(keep)]
    _fuse: Fuse,
}

#[test]
fn a_panicking_drop_while_shrink_frees_chunks_leaves_the_pool_consistent() {
    let mut pool = CargoPool::new();
    let handles: Vec<_> = (0..14)
        .map(|i| pool.create(|c| c.id = i).unwrap())
        .collect();
    assert_eq!((pool.capacity(), pool.stats().chunks), (16, 4));
    let kept = handles[0];
    for &handle in &handles[1..] {
        pool.release(handle).unwrap();
    }
    FAIL_DROP.set(true);
    let result = catch_unwind(AssertUnwindSafe(|| pool.shrink()));
    assert!(result.is_err(), "the drop's panic reaches the caller");
    assert!(!FAIL_DROP.get(), "the drop ran");

    // Every wholly free chunk was freed, the others dropping while the panic unwound.
    let stats = pool.stats();
    assert_eq!((stats.capacity, stats.chunks, stats.live), (2, 1, 1));
    assert_eq!(stats.free, 1);
    assert_eq!(
        pool.iter().map(|(h, c)| (h, c.id)).collect::<Vec<_>>(),
        [(kept, 0)]
    );
    for &handle in &handles[1..] {
        assert!(!pool.contains(handle));
    }
    // The free list holds exactly the slots that are left: fill the pool and grow it again.
    let again: Vec<_> = (0..15)
        .map(|i| pool.create(|c| c.id = 100 + i).unwrap())
        .collect();
    assert_eq!(pool.capacity(), 16);
    assert_eq!(pool.len(), 16);
    let mut indices: Vec<usize> = again.iter().map(|h| h.index()).collect();
    indices.sort_unstable();
    indices.dedup();
    assert_eq!(indices.len(), 15, "no slot handed out twice");
    assert_eq!(pool.values().map(|c| c.id).sum::<u32>(), (100..115).sum());
}
