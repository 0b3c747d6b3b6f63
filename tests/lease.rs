//! Leases: objects borrowed through a pool's lender and given back, reset, when the lease drops.

use pooling::{Handle, Lease, Lender, Pooled};
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::rc::Rc;

#[derive(Pooled, Debug)]
#[pool(size = 4)]
struct Scratch {
    id: u32,
    points: Vec<[f32; 3]>,
    owner: Option<Rc<str>>,
}

fn lease<'l>(pool: &'l Lender<'_, Scratch>, id: u32) -> Lease<'l, Scratch> {
    pool.acquire(|s| s.id = id).expect("a free slot")
}

#[test]
fn many_leases_at_once_each_given_back_reset_when_it_drops() {
    let owner: Rc<str> = Rc::from("frame");
    let mut pool = ScratchPool::new();
    let pool = pool.lender();
    let mut a = lease(&pool, 1);
    let mut b = lease(&pool, 2);
    let mut c = lease(&pool, 3);
    for (lease, n) in [(&mut a, 1), (&mut b, 2), (&mut c, 3)] {
        lease.points.extend((0..n).map(|i: u8| [f32::from(i); 3]));
        lease.owner = Some(Rc::clone(&owner));
    }
    assert_eq!((a.points.len(), b.points.len(), c.points.len()), (1, 2, 3));
    assert_eq!(Rc::strong_count(&owner), 4);
    assert_eq!(pool.stats().leased, 3);
    assert_eq!(pool.len(), 0, "leased objects are not live");
    assert_eq!(
        pool.iter().count(),
        0,
        "iteration never yields a leased object"
    );

    drop(b);
    assert_eq!(Rc::strong_count(&owner), 3, "let go when the lease dropped");
    let d = lease(&pool, 4);
    assert!(
        d.points.is_empty() && d.owner.is_none(),
        "the reused object is blank"
    );
    assert!(d.points.capacity() >= 2, "and keeps the capacity b gave it");
    drop(c);
    drop(a);
    drop(d);
    let stats = pool.stats();
    assert_eq!((stats.leased, stats.free, stats.high_water), (0, 4, 3));
    assert_eq!((stats.created, stats.released), (4, 4));
    assert_eq!(Rc::strong_count(&owner), 1);
}

#[test]
fn leases_and_handles_mix_on_one_pool() {
    let mut pool = ScratchPool::new();
    let live = pool.create(|s| s.id = 10).unwrap();
    let (kept, ended) = {
        let pool = pool.lender();
        let a = lease(&pool, 1);
        let b = lease(&pool, 2);
        assert_eq!(
            pool.get(live).unwrap().id,
            10,
            "get works while leases are out"
        );
        assert_eq!(a.id + b.id, 3);
        let kept = b.into_handle();
        assert_eq!(
            pool.get(kept).unwrap().id,
            2,
            "into_handle makes the object live"
        );
        assert_eq!(pool.len(), 2);
        assert_eq!(pool.stats().leased, 1);
        let ids: Vec<u32> = pool.iter().map(|(_, s)| s.id).collect();
        assert_eq!(
            ids.len(),
            2,
            "the kept object is iterated, the leased one not"
        );
        (kept, a.id)
    };
    assert_eq!(ended, 1);
    assert_eq!(pool.stats().leased, 0);
    pool.get_mut(kept).unwrap().id = 20;
    pool.release(kept).unwrap();
    assert!(!pool.contains(kept));
    assert_eq!(pool.get(live).unwrap().id, 10);
}

#[test]
fn a_panic_while_leases_are_out_gives_them_back_during_unwinding() {
    let owner: Rc<str> = Rc::from("doomed frame");
    let mut pool = ScratchPool::new();
    let pool = pool.lender();
    let result = catch_unwind(AssertUnwindSafe(|| {
        let mut a = lease(&pool, 1);
        a.owner = Some(Rc::clone(&owner));
        let _b = lease(&pool, 2);
        panic!("the frame failed");
    }));
    assert!(result.is_err());
    assert_eq!(Rc::strong_count(&owner), 1);
    let stats = pool.stats();
    assert_eq!((stats.leased, stats.free, stats.live), (0, 4, 0));
    let all: Vec<_> = (0..4).map(|id| lease(&pool, id)).collect();
    assert_eq!(all.len(), 4, "no slot was lost");
}

#[test]
fn a_panicking_init_leaves_no_lease_behind() {
    let mut pool = ScratchPool::new();
    let pool = pool.lender();
    let result = catch_unwind(AssertUnwindSafe(|| {
        pool.acquire(|s| {
            s.points.push([1.0; 3]);
            panic!("init failed");
        })
    }));
    assert!(result.is_err());
    assert_eq!(pool.stats().leased, 0);
    assert_eq!(pool.stats().free, 4);
    assert!(lease(&pool, 1).points.is_empty());
}

#[test]
fn acquire_may_be_called_from_inside_init() {
    let mut pool = ScratchPool::new();
    let pool = pool.lender();
    let mut inner = None;
    let outer = pool
        .acquire(|s| {
            s.id = 1;
            inner = Some(lease(&pool, 2));
        })
        .unwrap();
    let inner = inner.unwrap();
    assert_eq!((outer.id, inner.id), (1, 2));
    assert_eq!(pool.stats().leased, 2);
}

#[test]
fn a_full_pool_refuses_a_lease_and_changes_nothing() {
    let mut pool = ScratchPool::new();
    let pool = pool.lender();
    let leases: Vec<_> = (0..4).map(|id| lease(&pool, id)).collect();
    let mut called = false;
    assert!(pool.acquire(|_| called = true).is_err());
    assert!(!called);
    assert_eq!(pool.stats().failed, 1);
    drop(leases);
    assert!(pool.acquire(|_| {}).is_ok());
}

#[derive(Pooled)]
#[pool(size = 1, on_full = panic)]
struct Boss {
    health: u32,
}

#[derive(Pooled)]
#[pool(size = 1, on_full = evict, evict_by = Voice::volume)]
struct Voice {
    volume: u32,
}

impl Voice {
    fn volume(&self) -> u32 {
        self.volume
    }
}

#[derive(Pooled)]
#[pool(size = 2, on_full = grow, max = 8)]
struct Enemy {
    health: u32,
}

#[test]
fn each_full_pool_strategy_applies_to_acquire_as_far_as_it_can() {
    let mut bosses = BossPool::new();
    let bosses = bosses.lender();
    let boss = bosses.acquire(|b| b.health = 900);
    assert_eq!(boss.health, 900);
    assert!(bosses.try_acquire(|_| {}).is_err());
    let Err(panic) = catch_unwind(AssertUnwindSafe(|| bosses.acquire(|_| {}))) else {
        panic!("a full panicking pool lent an object");
    };
    let message = panic.downcast_ref::<String>().unwrap();
    assert!(
        message.starts_with("BossPool is full: all 1 slots are in use"),
        "{message}"
    );
    drop(boss);

    let mut voices = VoicePool::new();
    let playing = voices.create(|v| v.volume = 1);
    assert!(
        voices.lender().acquire(|_| {}).is_err(),
        "acquire never evicts"
    );
    assert!(voices.contains(playing));

    let mut enemies = EnemyPool::new();
    let enemies = enemies.lender();
    let leased: Vec<_> = (0..8)
        .map(|h| enemies.acquire(|e| e.health = h).unwrap())
        .collect();
    assert_eq!(
        enemies.capacity(),
        8,
        "acquire grew the pool through the lender"
    );
    assert!(enemies.acquire(|_| {}).is_err(), "up to max");
    let healths: Vec<u32> = leased.iter().map(|e| e.health).collect();
    assert_eq!(healths, (0..8).collect::<Vec<_>>());
}

#[test]
fn growing_through_a_lease_moves_no_object_that_is_borrowed() {
    let mut enemies = EnemyPool::new();
    let first: Handle<Enemy> = enemies.create(|e| e.health = 7).unwrap();
    let second = enemies.create(|e| e.health = 8).unwrap();
    let enemies = enemies.lender();
    let borrowed = enemies.get(first).unwrap();
    let mut iter = enemies.iter();
    let (_, from_iter) = iter.next().unwrap();
    let leases: Vec<_> = (0..6)
        .map(|h| enemies.acquire(|e| e.health = h).unwrap())
        .collect();
    assert_eq!(enemies.stats().chunks, 3);
    assert_eq!(borrowed.health, 7);
    assert_eq!(from_iter.health, 7);
    let (rest, _) = iter.next().unwrap();
    assert_eq!(rest, second);
    assert!(iter.next().is_none(), "the grown chunks hold only leases");
    assert_eq!(leases.iter().map(|e| e.health).sum::<u32>(), 15);
}

#[test]
fn iteration_meets_leases_turning_into_handles() {
    let mut pool = ScratchPool::new();
    let first = pool.create(|s| s.id = 1).unwrap();
    let pool = pool.lender();
    let a = lease(&pool, 2);
    let b = lease(&pool, 3);
    let mut iter = pool.iter();
    let (seen, _) = iter.next().unwrap();
    assert_eq!(seen, first);
    let _ = a.into_handle();
    let _ = b.into_handle();
    let later: Vec<u32> = iter.map(|(_, s)| s.id).collect();
    assert!(
        later.iter().all(|id| [2, 3].contains(id)),
        "objects made live since may be met, nothing else: {later:?}"
    );
    assert_eq!(pool.len(), 3);
    assert_eq!(pool.iter().count(), 3, "a new iteration sees them all");
}

#[derive(Pooled)]
#[pool(size = 2)]
struct Plain {
    value: u64,
}

fn is_send_and_sync<T: Send + Sync>(_: &T) {}

#[test]
fn the_pool_is_send_and_sync_when_its_objects_are() {
    let shared = PlainPool::new();
    is_send_and_sync(&shared);
    std::thread::scope(|s| {
        for _ in 0..2 {
            s.spawn(|| assert!(shared.is_empty()));
        }
    });
    let mut plain = PlainPool::new();
    let handle = plain.create(|p| p.value = 3).unwrap();
    let plain = std::thread::spawn(move || {
        plain.get_mut(handle).unwrap().value += 1;
        plain
    })
    .join()
    .unwrap();
    assert_eq!(plain.get(handle).unwrap().value, 4);
}

#[derive(Pooled)]
#[pool(size = 2, on_full = grow, max = 16)]
struct Buffer {
    bytes: Vec<u8>,
}

/// `live + free + leased` is the capacity, and creating fills exactly the free slots.
fn assert_books(pool: &mut BufferPool, leased: usize) {
    let stats = pool.stats();
    assert_eq!(stats.leased, leased);
    assert_eq!(stats.live + stats.free + stats.leased, stats.capacity);
    let capacity = stats.capacity;
    let made: Vec<_> = (0..stats.free)
        .map(|_| pool.create(|b| b.bytes.push(1)).unwrap())
        .collect();
    assert_eq!(pool.capacity(), capacity, "the free slots were enough");
    for handle in made {
        assert_eq!(
            pool.get(handle).unwrap().bytes,
            [1],
            "{handle:?} held a blank object"
        );
        pool.release(handle).unwrap();
    }
}

#[test]
fn a_forgotten_lease_keeps_its_chunk_and_its_slot_out_of_the_free_list() {
    let mut pool = BufferPool::new();
    let live: Vec<_> = (0..4).map(|_| pool.create(|_| {}).unwrap()).collect();
    assert_eq!(pool.capacity(), 4);
    std::mem::forget(pool.lender().acquire(|b| b.bytes.push(9)).unwrap());
    assert_eq!(pool.capacity(), 8, "the lease grew the pool");
    for handle in live {
        pool.release(handle).unwrap();
    }
    assert_eq!(
        pool.shrink(),
        2,
        "only the chunk without the forgotten lease goes"
    );
    assert_eq!(pool.capacity(), 6);
    assert_books(&mut pool, 1);
    assert_eq!(pool.shrink(), 0);
    assert_books(&mut pool, 1);
}

#[test]
fn a_grown_chunk_holding_only_forgotten_leases_is_never_freed() {
    let mut pool = BufferPool::new();
    let live: Vec<_> = (0..2).map(|_| pool.create(|_| {}).unwrap()).collect();
    for _ in 0..2 {
        std::mem::forget(pool.lender().acquire(|b| b.bytes.push(9)).unwrap());
    }
    assert_eq!(pool.capacity(), 4);
    for handle in live {
        pool.release(handle).unwrap();
    }
    assert_eq!(pool.shrink(), 0);
    assert_eq!(pool.capacity(), 4);
    assert_books(&mut pool, 2);
    pool.release_all();
    assert_eq!(pool.iter().count(), 0);
    assert_books(&mut pool, 2);
}

fn refuse_thirteen(volume: &mut u32) {
    assert_ne!(*volume, 13, "a reset that fails");
    *volume = 0;
}

#[derive(Pooled)]
#[pool(size = 1, on_full = evict, evict_by = Chime::volume)]
struct Chime {
    #[pool(reset_with = refuse_thirteen)]
    volume: u32,
}

impl Chime {
    fn volume(&self) -> u32 {
        self.volume
    }
}

/// Found by the model checker: a lease whose reset panics retires its slot, so an evicting pool
/// can be full with nothing to evict; its `create` then panics as documented, and changes nothing.
#[test]
fn an_evicting_pool_whose_slots_all_retired_panics_on_create_and_stays_whole() {
    let mut chimes = ChimePool::new();
    let dropped = catch_unwind(AssertUnwindSafe(|| {
        drop(chimes.lender().acquire(|c| c.volume = 13));
    }));
    assert!(dropped.is_err());
    assert_eq!(chimes.stats().retired, 1);
    assert!(chimes.is_full() && chimes.victim().is_none());
    let Err(panic) = catch_unwind(AssertUnwindSafe(|| chimes.create(|c| c.volume = 1))) else {
        panic!("an evicting create with nothing to evict returned a handle");
    };
    let message = panic.downcast_ref::<String>().unwrap();
    assert!(message.contains("cannot evict"), "{message}");
    chimes.check_consistency().unwrap();
    assert_eq!((chimes.len(), chimes.stats().created), (0, 1));
}

/// A lender finds a chunk each time it needs one (issue 38): a `&mut` taken from a lease before
/// the lender grows the pool, and before an `init` reaches the lender again, is still the
/// object's, and writes through it land (Miri checks under stacked and tree borrows that no
/// step in between made a reference over it).
#[test]
fn a_leases_object_borrowed_across_growth_and_a_reentrant_init_stays_its_own() {
    let mut enemies = EnemyPool::new();
    let old = enemies.create(|e| e.health = 70).unwrap();
    let enemies = enemies.lender();
    let mut first = enemies.acquire(|e| e.health = 1).unwrap();
    let held: &mut Enemy = &mut first;
    let read = enemies.get(old).unwrap();
    let outer = enemies
        .acquire(|e| {
            e.health = 2;
            // Full: this grows the pool while `held`, `read` and the outer object are out.
            let inner = enemies.acquire(|i| i.health = 3).unwrap();
            assert_eq!(enemies.get(old).unwrap().health, 70);
            assert_eq!(inner.health, 3);
        })
        .unwrap();
    assert_eq!(enemies.capacity(), 4, "the inner acquire grew the pool");
    let grown: Vec<_> = (0..5)
        .map(|h| enemies.acquire(|e| e.health = 10 + h).unwrap())
        .collect();
    assert_eq!(enemies.capacity(), 8);
    held.health += 100;
    assert_eq!(read.health, 70);
    assert_eq!((first.health, outer.health), (101, 2));
    let healths: Vec<u32> = grown.iter().map(|e| e.health).collect();
    assert_eq!(healths, [10, 11, 12, 13, 14]);
    assert_eq!(enemies.stats().leased, 7);
}

#[derive(Pooled)]
#[pool(size = 100, storage = inline)]
struct Mote {
    heat: u32,
}

/// A lender is pointers to the pool's slots and books, made in a few stores (issue 38: it was
/// 2,192 bytes on the heap, a table of every chunk set up by each `lender()`).
#[test]
fn a_lender_is_a_few_words() {
    let words = |bytes: usize| bytes / std::mem::size_of::<usize>();
    assert!(words(size_of::<Lender<'_, Scratch>>()) <= 8);
    assert!(words(size_of::<Lender<'_, Enemy, pooling::Grow<8>>>()) <= 8);
    assert!(
        words(size_of::<
            Lender<'_, Mote, pooling::Fail, pooling::Inline<100, 2>>,
        >()) <= 8
    );
    let mut motes = MotePool::new();
    let lender = motes.lender();
    assert_eq!(lender.acquire(|m| m.heat = 3).unwrap().heat, 3);
}
