//! `Handle<T>`: its size, its traits for any `T`, and that it never reaches a reused slot.

use pooling::{Handle, Pooled};
use std::collections::{BTreeSet, HashSet};

/// Deliberately neither `Copy`, `Clone`, `Eq`, `Ord`, `Hash` nor `Debug`, nor `Send`/`Sync`.
#[derive(Pooled)]
#[pool(size = 4)]
struct Opaque {
    marker: std::marker::PhantomData<*const u8>,
    trail: Vec<u8>,
}

fn assert_traits<H: Copy + Eq + Ord + std::hash::Hash + std::fmt::Debug + Send + Sync>() {}

#[test]
fn a_handle_is_eight_bytes_and_so_is_an_optional_one() {
    assert_eq!(size_of::<Handle<Opaque>>(), 8);
    assert_eq!(size_of::<Option<Handle<Opaque>>>(), 8);
    assert_traits::<Handle<Opaque>>();
}

#[test]
fn handles_compare_hash_and_print_by_slot_and_version() {
    let mut pool = OpaquePool::new();
    let a = pool.create(|_| {}).unwrap();
    let b = pool.create(|_| {}).unwrap();
    let copy = a;
    assert_eq!(a, copy);
    assert_ne!(a, b);
    assert!(a < b);
    pool.release(a).unwrap();
    let a_again = pool.create(|_| {}).unwrap();
    assert_eq!(a_again.index(), a.index());
    assert_ne!(a_again, a, "same slot, new version");
    assert!(a < a_again);

    let hashed: HashSet<_> = [a, b, a_again, copy].into_iter().collect();
    assert_eq!(hashed.len(), 3);
    let ordered: Vec<_> = [a_again, b, a]
        .into_iter()
        .collect::<BTreeSet<_>>()
        .into_iter()
        .collect();
    assert_eq!(ordered, [a, a_again, b]);
    let first = a.version();
    assert_eq!(first.get() % 2, 1, "handles carry odd versions");
    assert_eq!(
        b.version(),
        first,
        "every slot starts at the pool's first version"
    );
    assert_eq!(a_again.version().get(), first.get() + 2);
    assert_eq!(
        format!("{a:?} {a_again:?} {b:?}"),
        format!(
            "Handle(0v{first}) Handle(0v{}) Handle(1v{first})",
            first.get() + 2
        )
    );
}

#[test]
fn a_released_handle_never_reaches_a_reused_slot() {
    let mut pool = OpaquePool::with_capacity(1);
    let first = pool.create(|o| o.trail.push(1)).unwrap();
    let start = first.version().get();
    pool.release(first).unwrap();
    let rounds = if cfg!(miri) { 100 } else { 10_000 };
    for round in 0..rounds {
        let current = pool.create(|o| o.trail.push(2)).unwrap();
        assert_eq!(current.index(), first.index());
        assert_eq!(current.version().get(), start + 2 * (round + 1));
        assert!(pool.get(first).is_none());
        assert!(pool.get_mut(first).is_none());
        assert!(!pool.contains(first));
        assert!(pool.release(first).is_err());
        assert_eq!(pool.get(current).unwrap().trail, [2]);
        pool.release(current).unwrap();
    }
}
