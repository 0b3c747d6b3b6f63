//! Handles a pool never issued: from another pool of the same type, from a pool that was
//! replaced, or naming a slot that is free or lent. None of them ever reaches an object, and
//! none changes anything.

use pooling::{Handle, Pooled, TotalOrder};
use std::rc::Rc;

#[derive(Pooled, Debug)]
#[pool(size = 4)]
struct Msg {
    id: u32,
    body: Vec<u8>,
    sender: Option<Rc<str>>,
}

/// The books of a pool with nothing reachable by handle: all slots free but `leased`.
fn assert_untouched(pool: &MsgPool, leased: usize) {
    let stats = pool.stats();
    assert_eq!(pool.len(), 0);
    assert_eq!((stats.live, stats.leased), (0, leased));
    assert_eq!(stats.free + stats.leased, stats.capacity);
    assert_eq!(stats.released, stats.created - leased as u64);
    assert_eq!(pool.iter().count(), 0);
}

#[test]
fn a_handle_from_another_pool_never_reaches_a_lent_object() {
    let mut a = MsgPool::new();
    let from_a = a.create(|m| m.id = 1).unwrap();
    let mut b = MsgPool::new();
    let b = b.lender();
    let mut lease = b.acquire(|m| m.id = 2).unwrap();
    assert_eq!(
        from_a.index(),
        0,
        "the lease holds the slot the handle names"
    );

    // With the lease in place, a shared borrow of the lent object would be undefined
    // behaviour the moment the lease writes (Miri checks this test).
    let seen = b.get(from_a);
    lease.body.push(7);
    assert!(seen.is_none());
    assert!(!b.contains(from_a));
    assert_eq!(b.iter().count(), 0);
    assert_eq!(lease.body, [7]);
    drop(lease);
    assert_eq!(a.get(from_a).map(|m| m.id), Some(1), "a is untouched");
}

#[test]
fn a_handle_from_another_pool_is_refused_by_an_empty_pool() {
    let mut a = MsgPool::new();
    let from_a = a.create(|m| m.id = 1).unwrap();
    let mut b = MsgPool::new();
    assert!(b.get(from_a).is_none());
    assert!(b.get_mut(from_a).is_none());
    assert!(!b.contains(from_a));
    let error = b.release(from_a).unwrap_err();
    assert_eq!(
        (error.index(), error.version()),
        (0, from_a.version().get())
    );
    assert_untouched(&b, 0);
    // The free slot the handle named is still whole: all four can be created.
    let all: Vec<_> = (0..4).map(|i| b.create(|m| m.id = i).unwrap()).collect();
    assert_eq!(all.len(), 4);
    assert!(b.is_full());
    assert_eq!(b.len(), 4);
}

#[test]
fn a_handle_kept_from_a_replaced_pool_cannot_leak_state_into_the_next_object() {
    let sender: Rc<str> = Rc::from("level 1");
    let mut pool = MsgPool::new();
    let old = pool
        .create(|m| {
            m.id = 1;
            m.sender = Some(Rc::clone(&sender));
        })
        .unwrap();
    pool = MsgPool::new(); // the next level
    assert_eq!(Rc::strong_count(&sender), 1, "the old pool let go");
    assert!(!pool.contains(old));
    assert!(
        pool.get_mut(old).is_none(),
        "no write can land in a free slot"
    );
    assert!(pool.release(old).is_err());
    let new = pool
        .create(|m| {
            assert_eq!((m.id, m.body.len()), (0, 0), "init sees a blank object");
            assert!(m.sender.is_none());
            m.id = 2;
        })
        .unwrap();
    assert_eq!(new.index(), old.index());
    assert_ne!(new, old);
    assert!(pool.get(old).is_none(), "nor does it reach the live object");
}

#[test]
fn a_handle_from_another_pool_is_refused_even_where_that_slot_is_live() {
    // Under Miri, 16 pools: each of their lookups reaches the same unchecked reads.
    let count = if cfg!(miri) { 16 } else { 64 };
    let mut pools: Vec<MsgPool> = (0..count).map(|_| MsgPool::new()).collect();
    let handles: Vec<Vec<Handle<Msg>>> = (pools.iter_mut())
        .enumerate()
        .map(|(n, pool)| {
            // Different histories, so that versions move apart as well as starting apart.
            for _ in 0..n % 5 {
                let h = pool.create(|_| {}).unwrap();
                pool.release(h).unwrap();
            }
            (0..4).map(|i| pool.create(|m| m.id = i).unwrap()).collect()
        })
        .collect();
    for (n, pool) in pools.iter_mut().enumerate() {
        for (m, theirs) in handles.iter().enumerate() {
            for &handle in theirs {
                let own = m == n;
                assert_eq!(pool.contains(handle), own, "pool {n}, handle of pool {m}");
                assert_eq!(pool.get(handle).is_some(), own);
                assert_eq!(pool.get_mut(handle).is_some(), own);
            }
        }
        assert_eq!(pool.len(), 4);
    }
    // And a refused release changes nothing.
    let (first, rest) = pools.split_first_mut().unwrap();
    for &handle in &handles[0] {
        assert!(rest[0].release(handle).is_err());
    }
    assert_eq!(rest[0].len(), 4);
    for &handle in &handles[0] {
        first.release(handle).unwrap();
    }
}

#[test]
fn an_evicting_pool_never_names_a_lent_or_free_slot_as_victim() {
    #[derive(Pooled)]
    #[pool(size = 3, on_full = evict, evict_by = |v: &Voice| TotalOrder(v.volume))]
    struct Voice {
        volume: f32,
    }

    let mut voices = VoicePool::new();
    assert_eq!(voices.victim(), None, "no live object, no victim");
    let loud = voices.create(|v| v.volume = 0.9);
    {
        let lender = voices.lender();
        let lease = lender.acquire(|v| v.volume = 0.0).unwrap();
        let quietest = lender.iter().min_by_key(|(_, v)| TotalOrder(v.volume));
        assert_eq!(
            quietest.map(|(h, _)| h),
            Some(loud),
            "the quieter lease is not live"
        );
        drop(lease);
    }
    assert_eq!(voices.victim(), Some(loud));
    let quiet = voices.create(|v| v.volume = 0.1);
    voices.release(quiet).unwrap();
    assert_eq!(voices.victim(), Some(loud), "nor is the freed slot");
}

#[test]
fn a_lease_turned_into_a_handle_gets_a_version_no_older_handle_has() {
    let mut pool = MsgPool::with_capacity(1);
    let before = pool.create(|m| m.id = 1).unwrap();
    pool.release(before).unwrap();
    let pool = pool.lender();
    let lease = pool.acquire(|m| m.id = 2).unwrap();
    assert!(pool.get(before).is_none(), "the lent slot is not live");
    let after = lease.into_handle();
    assert_eq!(after.index(), before.index());
    assert!(pool.get(before).is_none());
    assert_eq!(pool.get(after).map(|m| m.id), Some(2));
    assert!(after.version() > before.version());
}

#[test]
fn iteration_after_release_all_finds_nothing_and_old_handles_stay_stale() {
    let mut pool = MsgPool::new();
    let old: Vec<_> = (0..4).map(|i| pool.create(|m| m.id = i).unwrap()).collect();
    pool.release_all();
    assert_eq!(pool.iter().count(), 0);
    assert_eq!(pool.values_mut().count(), 0);
    {
        let lender = pool.lender();
        let lease = lender.acquire(|m| m.id = 9).unwrap();
        for &handle in &old {
            assert!(lender.get(handle).is_none(), "{handle:?}");
        }
        drop(lease);
    }
    let new: Vec<_> = (0..4)
        .map(|i| pool.create(|m| m.id = 10 + i).unwrap())
        .collect();
    for (&handle, &fresh) in old.iter().zip(&new) {
        assert!(!pool.contains(handle));
        assert!(pool.contains(fresh));
    }
    assert_eq!(pool.iter().count(), 4);
}

#[test]
fn shrink_then_regrow_keeps_every_old_handle_stale() {
    #[derive(Pooled)]
    #[pool(size = 2, on_full = grow, max = 16)]
    struct Enemy {
        health: u32,
    }

    let mut enemies = EnemyPool::new();
    let mut other = EnemyPool::new();
    let theirs: Vec<_> = (0..8)
        .map(|_| other.create(|e| e.health = 1).unwrap())
        .collect();
    for round in 0..3 {
        let wave: Vec<_> = (0..8)
            .map(|_| enemies.create(|e| e.health = round).unwrap())
            .collect();
        for &enemy in &wave {
            enemies.release(enemy).unwrap();
        }
        assert_eq!(enemies.shrink(), 6);
        let regrown: Vec<_> = (0..8)
            .map(|_| enemies.create(|e| e.health = 7).unwrap())
            .collect();
        for handle in wave.iter().chain(&theirs) {
            assert!(enemies.get(*handle).is_none(), "round {round}: {handle:?}");
        }
        assert_eq!(regrown.len(), 8);
        enemies.release_all();
    }
}
