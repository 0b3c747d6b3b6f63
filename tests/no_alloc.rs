//! After `new()`, the pool never touches the heap: thousands of operations, zero allocations.

use pooled::Pooled;
use std::rc::Rc;

#[derive(Pooled)]
#[pool(size = 256)]
struct Particle {
    frames_left: u32,
    x: f64,
    y: f64,
    trail: Vec<(f64, f64)>,
    emitter: Option<Rc<u32>>,
}

#[test]
fn the_counter_sees_allocations() {
    let info = allocation_counter::measure(|| drop(std::hint::black_box(Box::new(1u64))));
    assert_eq!(info.count_total, 1);
}

#[test]
fn churn_lookups_iteration_and_retain_allocate_nothing() {
    let emitter = Rc::new(7);
    let mut pool = ParticlePool::new();
    let mut handles = Vec::with_capacity(256);
    let mut rng = fastrand::Rng::with_seed(2);
    // Each slot's trail allocates the first time it is used, and keeps that capacity.
    for _ in 0..256 {
        handles.push(pool.create(|p| p.trail.reserve(8)).unwrap());
    }
    pool.release_all();
    handles.clear();

    let mut checksum = 0.0;
    let info = allocation_counter::measure(|| {
        let steps = if cfg!(miri) { 300 } else { 20_000 };
        for step in 0..steps {
            match rng.u8(0..10) {
                0..=3 => {
                    if let Ok(h) = pool.create(|p| {
                        p.frames_left = rng.u32(1..20);
                        p.x = f64::from(step);
                        p.trail.push((p.x, p.y));
                        p.emitter = Some(Rc::clone(&emitter));
                    }) {
                        handles.push(h);
                    }
                }
                4..=5 if !handles.is_empty() => {
                    let h = handles.swap_remove(rng.usize(..handles.len()));
                    pool.release(h).unwrap();
                    assert!(pool.release(h).is_err());
                }
                6 if !handles.is_empty() => {
                    let h = handles[rng.usize(..handles.len())];
                    if let Some(p) = pool.get_mut(h) {
                        p.y += 1.0;
                    }
                    checksum += pool.get(h).map_or(0.0, |p| p.y);
                }
                7 => checksum += pool.iter().map(|(_, p)| p.x).sum::<f64>(),
                8 => pool.retain(|p| {
                    p.frames_left -= 1;
                    p.frames_left > 0
                }),
                _ => {
                    for (_, p) in &mut pool {
                        p.x += 0.5;
                    }
                }
            }
            handles.retain(|h| pool.contains(*h));
        }
        pool.release_all();
    });
    assert!(checksum > 0.0);
    assert_eq!(info.count_total, 0, "{info:?}");
    assert_eq!(Rc::strong_count(&emitter), 1);
    assert!(pool.stats().high_water > if cfg!(miri) { 20 } else { 100 });
}
