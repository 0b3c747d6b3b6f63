//! A panic in user code (`init`, a `reset_with` function, a field's `Drop`) leaves the pool
//! consistent: every slot is live or free, never lost, never shared.

use pooled::Pooled;
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
