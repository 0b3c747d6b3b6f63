//! `Reset` for the types of `core`, `alloc` and `std` beyond the numbers and collections of
//! `tests/reset.rs`: atomics, locks, cells, wrappers, weak references, paths. Each is set, reset
//! and compared with its blank; and pooled structs hold them as fields, on both kinds of pool.

use pooling::{Pooled, Reset};
use std::cell::{OnceCell, UnsafeCell};
use std::cmp::Reverse;
use std::collections::LinkedList;
use std::ffi::OsString;
use std::io::{Cursor, Write};
use std::marker::PhantomPinned;
use std::num::Saturating;
use std::path::PathBuf;
use std::rc::{self, Rc};
use std::sync::atomic::{
    AtomicBool, AtomicI8, AtomicI16, AtomicI32, AtomicI64, AtomicIsize, AtomicU8, AtomicU16,
    AtomicU32, AtomicU64, AtomicUsize, Ordering,
};
use std::sync::{self as sync, Arc, Mutex, OnceLock, RwLock};

/// Resets `value` after `set` changed it, and checks it against a blank with `read`.
fn resets_to_blank<T: Reset, R: PartialEq + std::fmt::Debug>(
    set: impl FnOnce(&mut T),
    read: impl Fn(&T) -> R,
) {
    let mut value = T::blank();
    let blank = read(&value);
    set(&mut value);
    assert_ne!(read(&value), blank, "the setter changed something");
    value.reset();
    assert_eq!(read(&value), blank);
}

#[test]
fn atomics_store_their_default() {
    resets_to_blank(
        |a: &mut AtomicBool| a.store(true, Ordering::Relaxed),
        |a| a.load(Ordering::Relaxed),
    );
    resets_to_blank(
        |a: &mut AtomicU8| a.store(8, Ordering::Relaxed),
        |a| a.load(Ordering::Relaxed),
    );
    resets_to_blank(
        |a: &mut AtomicI8| a.store(-8, Ordering::Relaxed),
        |a| a.load(Ordering::Relaxed),
    );
    resets_to_blank(
        |a: &mut AtomicU16| a.store(16, Ordering::Relaxed),
        |a| a.load(Ordering::Relaxed),
    );
    resets_to_blank(
        |a: &mut AtomicI16| a.store(-16, Ordering::Relaxed),
        |a| a.load(Ordering::Relaxed),
    );
    resets_to_blank(
        |a: &mut AtomicU32| a.store(32, Ordering::Relaxed),
        |a| a.load(Ordering::Relaxed),
    );
    resets_to_blank(
        |a: &mut AtomicI32| a.store(-32, Ordering::Relaxed),
        |a| a.load(Ordering::Relaxed),
    );
    resets_to_blank(
        |a: &mut AtomicU64| a.store(64, Ordering::Relaxed),
        |a| a.load(Ordering::Relaxed),
    );
    resets_to_blank(
        |a: &mut AtomicI64| a.store(-64, Ordering::Relaxed),
        |a| a.load(Ordering::Relaxed),
    );
    resets_to_blank(
        |a: &mut AtomicUsize| a.store(7, Ordering::Relaxed),
        |a| a.load(Ordering::Relaxed),
    );
    resets_to_blank(
        |a: &mut AtomicIsize| a.store(-7, Ordering::Relaxed),
        |a| a.load(Ordering::Relaxed),
    );
    assert!(!AtomicBool::blank().load(Ordering::Relaxed));
    assert_eq!(AtomicU32::blank().load(Ordering::Relaxed), 0);
}

/// Poisons a lock: `hold` takes a guard, which a panic then drops.
fn poison<G>(hold: impl FnOnce() -> G) {
    let poisoned = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        let _guard = hold();
        panic!("poisons the lock");
    }));
    assert!(poisoned.is_err());
}

#[test]
fn a_mutex_resets_what_it_holds_and_is_no_longer_poisoned() {
    let mut mutex = Mutex::new(Vec::with_capacity(8));
    mutex.get_mut().unwrap().extend([1u8, 2, 3]);
    poison(|| mutex.lock());
    assert!(mutex.is_poisoned());
    mutex.reset();
    assert!(!mutex.is_poisoned());
    let bytes = mutex.lock().unwrap();
    assert!(bytes.is_empty());
    assert!(bytes.capacity() >= 8, "the capacity is kept");
}

#[test]
fn an_rwlock_resets_what_it_holds_and_is_no_longer_poisoned() {
    let mut lock = RwLock::new(String::from("left over"));
    poison(|| lock.write());
    assert!(lock.is_poisoned());
    lock.reset();
    assert!(!lock.is_poisoned());
    assert!(lock.read().unwrap().is_empty());
    assert!(lock.read().unwrap().capacity() >= 9);
    assert!(RwLock::<u32>::blank().read().is_ok_and(|v| *v == 0));
}

#[test]
fn once_cells_are_emptied() {
    resets_to_blank(
        |c: &mut OnceCell<String>| c.set("set".into()).unwrap(),
        |c| c.get().cloned(),
    );
    resets_to_blank(
        |c: &mut OnceLock<String>| c.set("set".into()).unwrap(),
        |c| c.get().cloned(),
    );
}

#[test]
fn wrappers_reset_what_they_hold() {
    resets_to_blank(
        |c: &mut UnsafeCell<u32>| *c.get_mut() = 4,
        |c| {
            // SAFETY: nothing else refers to the cell while the test reads it.
            unsafe { *c.get() }
        },
    );
    resets_to_blank(|s: &mut Saturating<u8>| s.0 = 200, |s| s.0);
    resets_to_blank(|r: &mut Reverse<i64>| r.0 = -3, |r| r.0);
    resets_to_blank(
        |c: &mut Cursor<Vec<u8>>| c.write_all(b"abc").unwrap(),
        |c| (c.position(), c.get_ref().clone()),
    );
    let mut pinned = PhantomPinned::blank();
    pinned.reset();
}

#[test]
fn collections_and_paths_are_cleared_keeping_their_capacity() {
    resets_to_blank(|l: &mut LinkedList<u8>| l.push_back(1), LinkedList::len);
    let mut path = PathBuf::blank();
    path.push("/some/where/far");
    let capacity = path.capacity();
    path.reset();
    assert_eq!(path, PathBuf::new());
    assert_eq!(path.capacity(), capacity);
    let mut name = OsString::blank();
    name.push("a name");
    name.reset();
    assert!(name.is_empty() && name.capacity() >= 6);
}

#[test]
fn weak_references_are_let_go() {
    let strong = Rc::new(5);
    let mut weak = Rc::downgrade(&strong);
    weak.reset();
    assert_eq!((Rc::weak_count(&strong), weak.upgrade()), (0, None));
    assert!(rc::Weak::<u8>::blank().upgrade().is_none());

    let shared = Arc::new(6);
    let mut weak = Arc::downgrade(&shared);
    weak.reset();
    assert_eq!((Arc::weak_count(&shared), weak.upgrade()), (0, None));
    assert!(sync::Weak::<u8>::blank().upgrade().is_none());
}

/// What the sync pool's docs recommend for shared mutation: atomics and a `Mutex` field.
#[derive(Pooled)]
#[pool(size = 2, sync)]
struct Connection {
    bytes_in: AtomicU32,
    log: Mutex<Vec<u8>>,
}

#[derive(Pooled)]
#[pool(size = 1)]
struct Counter {
    hits: AtomicU32,
    log: Mutex<Vec<u8>>,
    first_seen: OnceLock<u64>,
}

#[test]
fn a_pooled_struct_with_an_atomic_and_a_mutex_derives_and_resets() {
    let mut counters = CounterPool::new();
    let counter = counters
        .create(|c| {
            c.hits.store(3, Ordering::Relaxed);
            c.log.get_mut().unwrap().extend_from_slice(b"hello");
            c.first_seen.set(9).unwrap();
        })
        .unwrap();
    counters.release(counter).unwrap();
    let again = counters.create(|_| {}).unwrap();
    let c = &counters[again];
    assert_eq!(c.hits.load(Ordering::Relaxed), 0);
    let log = c.log.lock().unwrap();
    assert!(
        log.is_empty() && log.capacity() >= 5,
        "cleared, capacity kept"
    );
    assert_eq!(c.first_seen.get(), None);
}

#[test]
fn threads_share_a_sync_pools_atomics_and_mutex_and_the_next_user_finds_them_blank() {
    let connections = ConnectionPool::new();
    let connection = connections.create(|_| {}).unwrap();
    std::thread::scope(|s| {
        for byte in 0..4u8 {
            let connections = &connections;
            s.spawn(move || {
                let guard = connections.get(connection).unwrap();
                guard.bytes_in.fetch_add(10, Ordering::Relaxed);
                guard.log.lock().unwrap().push(byte);
            });
        }
    });
    let guard = connections.get(connection).unwrap();
    assert_eq!(guard.bytes_in.load(Ordering::Relaxed), 40);
    assert_eq!(guard.log.lock().unwrap().len(), 4);
    drop(guard);
    connections.release(connection).unwrap();
    let lease = connections.acquire(|_| {}).unwrap();
    let other = connections.acquire(|_| {}).unwrap();
    for blank in [&lease, &other] {
        assert_eq!(blank.bytes_in.load(Ordering::Relaxed), 0);
        assert!(blank.log.lock().unwrap().is_empty());
    }
}
