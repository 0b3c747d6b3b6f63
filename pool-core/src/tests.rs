//! Engine tests that need its internals (forcing a generation) or must run under Miri without
//! the derive.

use crate::{Handle, Pool, PoolFull, PoolToken, Pooled, StaleHandle};
use alloc::rc::Rc;
use alloc::vec::Vec;

/// A hand-written `Pooled` type: `value` is plain data, `owned` holds a reference.
struct Probe {
    value: u32,
    owned: Option<Rc<()>>,
}

impl Pooled for Probe {
    const SIZE: usize = 4;

    fn blank(_: PoolToken<'_>) -> Self {
        Probe {
            value: 0,
            owned: None,
        }
    }

    fn reset_at_release(&mut self) {
        self.owned = None;
    }

    fn reset_at_reuse(&mut self) {
        self.value = 0;
    }
}

fn filled(pool: &mut Pool<Probe>, value: u32) -> Handle<Probe> {
    pool.create(|p| p.value = value).unwrap()
}

#[test]
fn a_slot_whose_generation_would_wrap_is_retired() {
    let mut pool = Pool::<Probe>::with_capacity(1);
    let first = filled(&mut pool, 1);
    pool.force_generation(first, u32::MAX - 1);
    let stale_first = first;

    let old = pool.iter().next().unwrap().0;
    assert_eq!(old.generation().get(), u32::MAX - 1);
    pool.release(old).unwrap();

    let last = filled(&mut pool, 2);
    assert_eq!(last.generation().get(), u32::MAX);
    assert!(pool.get(old).is_none());
    assert!(pool.get(stale_first).is_none());

    pool.release(last).unwrap();
    assert!(pool.is_full(), "the retired slot is not reused");
    assert_eq!(
        pool.create(|_| {}),
        Err(PoolFull::new(1)),
        "a retired slot never comes back"
    );
    for handle in [old, last, stale_first] {
        assert!(!pool.contains(handle));
        assert_eq!(pool.release(handle), Err(StaleHandle::new(handle)));
    }
    let stats = pool.stats();
    assert_eq!((stats.live, stats.free, stats.retired), (0, 0, 1));
}

#[test]
fn release_all_retires_slots_at_the_last_generation() {
    let mut pool = Pool::<Probe>::with_capacity(2);
    let wrapping = filled(&mut pool, 1);
    let other = filled(&mut pool, 2);
    pool.force_generation(wrapping, u32::MAX);
    pool.release_all();

    assert_eq!(pool.stats().retired, 1);
    assert_eq!(pool.stats().free, 1);
    let again = filled(&mut pool, 3);
    assert_eq!(again.index(), other.index());
    assert!(pool.is_full());
}

#[test]
fn freed_slots_are_reused_last_in_first_out() {
    let mut pool = Pool::<Probe>::new();
    let handles: Vec<_> = (0..4).map(|v| filled(&mut pool, v)).collect();
    assert_eq!(
        handles.iter().map(|h| h.index()).collect::<Vec<_>>(),
        [0, 1, 2, 3]
    );
    pool.release(handles[1]).unwrap();
    pool.release(handles[3]).unwrap();
    assert_eq!(filled(&mut pool, 9).index(), 3);
    assert_eq!(filled(&mut pool, 9).index(), 1);
}

#[test]
fn iteration_crosses_occupancy_words() {
    let mut pool = Pool::<Probe>::with_capacity(200);
    let handles: Vec<_> = (0..200).map(|v| filled(&mut pool, v)).collect();
    for handle in &handles {
        if ![0, 63, 64, 127, 128, 199].contains(&handle.index()) {
            pool.release(*handle).unwrap();
        }
    }
    let seen: Vec<(usize, u32)> = pool.iter().map(|(h, p)| (h.index(), p.value)).collect();
    assert_eq!(
        seen,
        [
            (0, 0),
            (63, 63),
            (64, 64),
            (127, 127),
            (128, 128),
            (199, 199)
        ]
    );
    assert_eq!(pool.iter().len(), 6);
    for (_, probe) in &mut pool {
        probe.value += 1000;
    }
    let values: Vec<u32> = pool.iter().map(|(_, p)| p.value).collect();
    assert_eq!(values, [1000, 1063, 1064, 1127, 1128, 1199]);
}

#[test]
fn a_zero_capacity_pool_is_always_full() {
    let mut pool = Pool::<Probe>::with_capacity(0);
    assert!(pool.is_full() && pool.is_empty());
    assert_eq!(pool.create(|_| {}), Err(PoolFull::new(0)));
    assert_eq!(pool.iter().count(), 0);
}

#[test]
fn a_handle_past_the_capacity_is_stale() {
    let mut big = Pool::<Probe>::with_capacity(10);
    let far = (0..10).map(|v| filled(&mut big, v)).last().unwrap();
    let mut small = Pool::<Probe>::with_capacity(2);
    assert!(small.get(far).is_none());
    assert!(small.get_mut(far).is_none());
    assert_eq!(small.release(far), Err(StaleHandle::new(far)));
}

#[test]
fn references_are_let_go_at_release_and_plain_data_reset_at_reuse() {
    let shared = Rc::new(());
    let mut pool = Pool::<Probe>::with_capacity(1);
    let handle = pool
        .create(|p| {
            p.value = 7;
            p.owned = Some(Rc::clone(&shared));
        })
        .unwrap();
    assert_eq!(Rc::strong_count(&shared), 2);
    pool.release(handle).unwrap();
    assert_eq!(Rc::strong_count(&shared), 1, "let go at release");

    let reused = pool.create(|_| {}).unwrap();
    assert_eq!(pool.get(reused).unwrap().value, 0, "reset before init");
}

#[test]
fn objects_held_through_shared_borrows_interleave_with_iteration() {
    let mut pool = Pool::<Probe>::new();
    let a = filled(&mut pool, 1);
    let b = filled(&mut pool, 2);
    let first = pool.get(a).unwrap();
    let mut iter = pool.iter();
    let (_, second) = iter.nth(1).unwrap();
    assert_eq!(first.value + second.value, 3);
    assert_eq!(pool.get(b).unwrap().value, 2);
    let total: u32 = pool.iter().map(|(_, p)| p.value).sum();
    assert_eq!(total, 3);
}

#[test]
fn a_panicking_init_returns_the_slot_reset() {
    extern crate std;
    let shared = Rc::new(());
    let mut pool = Pool::<Probe>::with_capacity(1);
    let outcome = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        pool.create(|p| {
            p.owned = Some(Rc::clone(&shared));
            panic!("init failed");
        })
    }));
    assert!(outcome.is_err());
    assert_eq!(Rc::strong_count(&shared), 1, "the half-built object let go");
    let stats = pool.stats();
    assert_eq!((stats.live, stats.free, stats.high_water), (0, 1, 0));
    filled(&mut pool, 1);
    assert!(pool.is_full());
}

#[test]
fn a_slot_costs_eight_bytes_beside_its_object() {
    use crate::slot::Slot;
    assert_eq!(size_of::<Slot<u64>>(), 16);
    assert_eq!(size_of::<Slot<[f64; 4]>>(), 40);
    assert_eq!(size_of::<Slot<u8>>(), 12);
}
