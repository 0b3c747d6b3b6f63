//! The generated pool's operations and their error cases.

use pooling::{Handle, PoolFull, Pooled, StaleHandle, Stats};

#[derive(Pooled, Debug)]
#[pool(size = 8)]
pub struct Particle {
    frames_left: u32,
    x: f64,
    trail: Vec<(f64, f64)>,
}

fn spawn(pool: &mut ParticlePool, frames_left: u32) -> Handle<Particle> {
    pool.create(|p| {
        p.frames_left = frames_left;
        p.x = f64::from(frames_left);
        p.trail.push((p.x, 0.0));
    })
    .expect("pool has room")
}

#[test]
fn a_new_pool_has_every_slot_free() {
    let pool = ParticlePool::new();
    assert_eq!(pool.capacity(), 8);
    assert_eq!(pool.len(), 0);
    assert!(pool.is_empty() && !pool.is_full());
    assert_eq!(pool.iter().count(), 0);
    let stats = pool.stats();
    assert_eq!(
        (
            stats.capacity,
            stats.live,
            stats.free,
            stats.high_water,
            stats.retired
        ),
        (8, 0, 8, 0, 0)
    );
    assert_eq!(ParticlePool::default().capacity(), 8);
    assert_eq!(ParticlePool::with_capacity(3).capacity(), 3);
}

#[test]
fn create_hands_a_blank_object_to_init_and_returns_its_handle() {
    let mut pool = ParticlePool::new();
    let mut seen = None;
    let h = pool
        .create(|p| {
            seen = Some((p.frames_left, p.x, p.trail.len()));
            p.frames_left = 5;
        })
        .unwrap();
    assert_eq!(seen, Some((0, 0.0, 0)));
    assert_eq!(pool.get(h).unwrap().frames_left, 5);
    assert!(pool.contains(h));
    assert_eq!(pool.len(), 1);
}

#[test]
fn a_full_pool_refuses_create_and_changes_nothing() {
    let mut pool = ParticlePool::new();
    let handles: Vec<_> = (1..=8).map(|f| spawn(&mut pool, f)).collect();
    assert!(pool.is_full());
    let before = pool.stats();
    let mut called = false;
    let error = pool.create(|_| called = true).unwrap_err();
    assert!(!called, "init is not called when the pool is full");
    assert_eq!(error.capacity(), 8);
    assert_eq!(
        error.to_string(),
        "pool is full: none of its 8 slots is free"
    );
    let after = pool.stats();
    assert_eq!(after.failed, before.failed + 1, "the refusal is counted");
    let unchanged = |s: Stats| {
        (
            s.capacity,
            s.live,
            s.free,
            s.high_water,
            s.created,
            s.released,
        )
    };
    assert_eq!(unchanged(after), unchanged(before));
    for (h, frames) in handles.iter().zip(1..) {
        assert_eq!(pool.get(*h).unwrap().frames_left, frames);
    }
}

#[test]
fn get_mut_changes_the_object_in_place() {
    let mut pool = ParticlePool::new();
    let h = spawn(&mut pool, 3);
    pool.get_mut(h).unwrap().trail.push((9.0, 9.0));
    assert_eq!(pool.get(h).unwrap().trail, [(3.0, 0.0), (9.0, 9.0)]);
}

#[test]
fn release_frees_the_slot_and_makes_the_handle_stale() {
    let mut pool = ParticlePool::new();
    let keep = spawn(&mut pool, 1);
    let h = spawn(&mut pool, 2);
    pool.release(h).unwrap();
    assert_eq!(pool.len(), 1);
    assert!(pool.get(h).is_none());
    let error = pool.release(h).unwrap_err();
    assert_eq!(error, pooling::StaleHandle::clone(&error));
    assert_eq!((error.index(), error.version()), (1, h.version().get()));
    assert!(pool.get(keep).is_some(), "other objects are untouched");
}

#[test]
fn iter_yields_live_objects_with_their_handles_in_slot_order() {
    let mut pool = ParticlePool::new();
    let handles: Vec<_> = (1..=6).map(|f| spawn(&mut pool, f)).collect();
    pool.release(handles[0]).unwrap();
    pool.release(handles[3]).unwrap();
    let seen: Vec<_> = pool.iter().map(|(h, p)| (h, p.frames_left)).collect();
    assert_eq!(
        seen,
        [
            (handles[1], 2),
            (handles[2], 3),
            (handles[4], 5),
            (handles[5], 6)
        ]
    );
    assert_eq!(pool.iter().size_hint(), (4, Some(4)));
    assert_eq!(pool.iter().len(), 4);
    let by_ref: Vec<_> = (&pool).into_iter().map(|(h, _)| h).collect();
    assert_eq!(by_ref, [handles[1], handles[2], handles[4], handles[5]]);
}

#[test]
fn iter_mut_changes_every_live_object() {
    let mut pool = ParticlePool::new();
    let a = spawn(&mut pool, 1);
    let b = spawn(&mut pool, 2);
    pool.iter_mut().for_each(|(_, p)| p.x *= 10.0);
    for (_, p) in &mut pool {
        p.x += 1.0;
    }
    assert_eq!(pool.get(a).unwrap().x, 11.0);
    assert_eq!(pool.get(b).unwrap().x, 21.0);
}

#[test]
fn retain_releases_the_objects_it_rejects() {
    let mut pool = ParticlePool::new();
    let handles: Vec<_> = (1..=8).map(|f| spawn(&mut pool, f)).collect();
    let mut frames = 0;
    while !pool.is_empty() {
        pool.retain(|p| {
            p.frames_left -= 1;
            p.frames_left > 0
        });
        frames += 1;
        assert_eq!(pool.len(), 8 - frames);
        for (h, frames_left) in handles.iter().zip(1..) {
            assert_eq!(pool.contains(*h), frames_left > frames);
        }
    }
    assert_eq!(frames, 8);
    assert_eq!(pool.stats().high_water, 8);
}

#[test]
fn release_all_makes_every_handle_stale() {
    let mut pool = ParticlePool::new();
    let handles: Vec<_> = (1..=5).map(|f| spawn(&mut pool, f)).collect();
    pool.release_all();
    assert!(pool.is_empty());
    assert_eq!(pool.stats().free, 8);
    for h in &handles {
        assert!(pool.get(*h).is_none());
        assert!(pool.release(*h).is_err());
    }
    let fresh: Vec<_> = (1..=8).map(|f| spawn(&mut pool, f)).collect();
    for h in &handles {
        assert!(!fresh.contains(h), "no new object answers to an old handle");
        assert!(pool.get(*h).is_none());
    }
}

#[test]
fn stats_track_the_high_water_mark() {
    let mut pool = ParticlePool::new();
    let handles: Vec<_> = (1..=6).map(|f| spawn(&mut pool, f)).collect();
    for h in &handles[..4] {
        pool.release(*h).unwrap();
    }
    spawn(&mut pool, 1);
    let Stats {
        capacity,
        live,
        free,
        high_water,
        retired,
        ..
    } = pool.stats();
    assert_eq!((capacity, live, free, high_water, retired), (8, 3, 5, 6, 0));
}

#[test]
fn the_pool_prints_its_stats() {
    let mut pool = ParticlePool::new();
    spawn(&mut pool, 1);
    assert_eq!(
        format!("{pool:?}"),
        "ParticlePool { capacity: 8, live: 1, leased: 0, free: 7, high_water: 1, created: 1, \
         released: 0, failed: 0, evicted: 0, chunks: 1, retired: 0, waited: 0, waiting: 0 }"
    );
}

#[test]
fn errors_are_std_errors() {
    fn is_error<E: std::error::Error + Send + Sync + 'static>(_: &E) {}
    let mut pool = ParticlePool::with_capacity(1);
    let h = spawn(&mut pool, 1);
    let full: PoolFull = pool.create(|_| {}).unwrap_err();
    pool.release(h).unwrap();
    let stale: StaleHandle = pool.release(h).unwrap_err();
    is_error(&full);
    is_error(&stale);
    let boxed: Box<dyn std::error::Error> = Box::new(stale);
    assert!(boxed.to_string().contains("does not name a live object"));
}

#[test]
fn the_generated_pool_is_the_engine_and_generic_code_takes_any_pool() {
    fn live<T: Pooled, S>(pool: &mut pooling::Pool<T, S>) -> usize {
        pool.try_create(|_| {}).unwrap();
        pool.iter().count()
    }
    let mut pool: pooling::Pool<Particle> = ParticlePool::new();
    pool.create(|p| p.x = 1.0).unwrap();
    assert_eq!(live(&mut pool), 2);
    assert!(
        format!("{pool:?}").starts_with("ParticlePool { capacity: 8, live: 2, leased: 0, free: 6,")
    );
}
