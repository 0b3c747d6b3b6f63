//! What slotmap and slab users reach for: `pool[handle]`, several objects borrowed mutably at
//! once, an `init` and a `retain` that see the handle, and handles as numbers.

use pooling::{Handle, Pool, Pooled};
use std::panic::{AssertUnwindSafe, catch_unwind};

#[derive(Pooled, Debug)]
#[pool(size = 4)]
struct Body {
    x: f32,
    hits: u32,
    me: Option<Handle<Body>>,
}

#[derive(Pooled)]
#[pool(size = 2, on_full = grow)]
struct Spark {
    heat: u32,
    me: Option<Handle<Spark>>,
}

#[derive(Pooled)]
#[pool(size = 1, on_full = panic)]
struct Alarm {
    me: Option<Handle<Alarm>>,
}

#[derive(Pooled)]
#[pool(size = 1, on_full = evict, evict_by = |voice| voice.volume)]
struct Voice {
    volume: u32,
    me: Option<Handle<Voice>>,
}

fn panic_message(run: impl FnOnce()) -> String {
    let payload = catch_unwind(AssertUnwindSafe(run)).expect_err("it panics");
    (payload.downcast_ref::<String>().cloned())
        .or_else(|| payload.downcast_ref::<&str>().map(|s| (*s).to_owned()))
        .unwrap_or_default()
}

#[test]
fn indexing_reads_and_writes_the_object() {
    let mut pool = BodyPool::new();
    let b = pool.create(|b| b.x = 1.0).unwrap();
    pool[b].x += 2.0;
    pool[b].hits = 4;
    assert_eq!(pool[b].x, 3.0);
    assert_eq!(pool.get(b).map(|b| b.hits), Some(4));
}

#[test]
fn indexing_with_a_stale_handle_panics_saying_what_to_use() {
    let mut pool = BodyPool::new();
    let b = pool.create(|_| {}).unwrap();
    pool.release(b).unwrap();
    let message = panic_message(|| {
        let _ = &pool[b];
    });
    assert!(
        message.starts_with(&format!("BodyPool[{b}]: no live object")),
        "{message}"
    );
    assert!(message.contains("use `get` or `get_mut`"), "{message}");
    let message = panic_message(|| pool[b].hits = 1);
    assert!(
        message.contains("released, or is from another pool"),
        "{message}"
    );
    assert!(pool.is_empty());
}

#[test]
fn a_handle_from_another_pool_does_not_index() {
    let mut mine = BodyPool::new();
    let mut theirs = BodyPool::new();
    let _ = mine.create(|_| {}).unwrap();
    let foreign = theirs.create(|_| {}).unwrap();
    assert!(catch_unwind(AssertUnwindSafe(|| mine[foreign].hits)).is_err());
}

#[test]
fn disjoint_borrows_reach_every_named_object_in_the_order_given() {
    let mut pool = BodyPool::new();
    let handles: Vec<_> = (0..4u8)
        .map(|i| pool.create(|b| b.x = f32::from(i)).unwrap())
        .collect();
    let [d, a, c] = pool
        .get_disjoint_mut([handles[3], handles[0], handles[2]])
        .unwrap();
    assert_eq!([d.x, a.x, c.x], [3.0, 0.0, 2.0]);
    d.hits = 30;
    a.hits = 1;
    c.hits = 20;
    let hits: Vec<_> = handles.iter().map(|&h| pool[h].hits).collect();
    assert_eq!(hits, [1, 0, 20, 30]);
    let none: [&mut Body; 0] = pool.get_disjoint_mut([]).unwrap();
    assert!(none.is_empty());
}

#[test]
fn disjoint_borrows_refuse_a_repeat_a_stale_handle_and_a_foreign_one() {
    let mut pool = BodyPool::new();
    let a = pool.create(|_| {}).unwrap();
    let b = pool.create(|_| {}).unwrap();
    let gone = pool.create(|_| {}).unwrap();
    pool.release(gone).unwrap();
    assert!(pool.get_disjoint_mut([a, a]).is_none());
    assert!(pool.get_disjoint_mut([b, a, b]).is_none());
    assert!(pool.get_disjoint_mut([a, gone]).is_none());
    let reused = pool.create(|_| {}).unwrap();
    assert_eq!(reused.index(), gone.index());
    assert!(pool.get_disjoint_mut([gone, reused]).is_none(), "same slot");
    assert!(pool.get_disjoint_mut([reused, a]).is_some());

    let mut other = BodyPool::new();
    let foreign = other.create(|_| {}).unwrap();
    assert!(pool.get_disjoint_mut([a, foreign]).is_none());
    let past_the_end = Handle::<Body>::from_bits(1 << 32 | 3).unwrap();
    assert!(pool.get_disjoint_mut([past_the_end]).is_none());
    assert_eq!(pool.len(), 3, "nothing changed");
}

#[test]
fn disjoint_borrows_span_grown_chunks() {
    let mut pool = SparkPool::new();
    let handles: Vec<_> = (0..9)
        .map(|i| pool.create(|s| s.heat = i).unwrap())
        .collect();
    assert!(pool.stats().chunks > 2);
    let [last, first, middle] = pool
        .get_disjoint_mut([handles[8], handles[0], handles[4]])
        .unwrap();
    assert_eq!([last.heat, first.heat, middle.heat], [8, 0, 4]);
    std::mem::swap(&mut last.heat, &mut first.heat);
    assert_eq!(pool[handles[0]].heat, 8);
    assert_eq!(pool[handles[8]].heat, 0);

    for &h in &handles[2..] {
        pool.release(h).unwrap();
    }
    assert!(pool.shrink() > 0);
    assert!(pool.get_disjoint_mut([handles[0], handles[8]]).is_none());
    assert!(pool.get_disjoint_mut([handles[1], handles[0]]).is_some());
}

#[test]
fn every_strategy_hands_init_the_objects_own_handle() {
    let mut bodies = BodyPool::new();
    let b = bodies.create_with_handle(|h, b| b.me = Some(h)).unwrap();
    assert_eq!(bodies[b].me, Some(b));
    let t = bodies
        .try_create_with_handle(|h, b| b.me = Some(h))
        .unwrap();
    assert_eq!(bodies[t].me, Some(t));

    let mut sparks = SparkPool::new();
    let handles: Vec<_> = (0..5)
        .map(|_| sparks.create_with_handle(|h, s| s.me = Some(h)).unwrap())
        .collect();
    assert!(
        handles.iter().all(|&h| sparks[h].me == Some(h)),
        "grown too"
    );

    let mut alarms = AlarmPool::new();
    let a = alarms.create_with_handle(|h, a| a.me = Some(h));
    assert_eq!(alarms[a].me, Some(a));

    let mut voices = VoicePool::new();
    let quiet = voices.create_with_handle(|h, v| v.me = Some(h));
    let loud = voices.create_with_handle(|h, v| {
        v.volume = 9;
        v.me = Some(h);
    });
    assert!(!voices.contains(quiet), "evicted to make room");
    assert_eq!(voices[loud].me, Some(loud));
}

#[test]
fn a_full_pool_refuses_create_with_handle_without_calling_init() {
    let mut bodies = BodyPool::with_capacity(0);
    let mut called = false;
    assert!(bodies.create_with_handle(|_, _| called = true).is_err());
    assert!(!called);
    assert_eq!(bodies.stats().failed, 1);
}

#[test]
fn retain_with_handle_sees_each_live_object_with_its_handle() {
    let mut pool = BodyPool::new();
    let handles: Vec<_> = (0..4)
        .map(|_| pool.create_with_handle(|h, b| b.me = Some(h)).unwrap())
        .collect();
    pool.release(handles[1]).unwrap();
    let mut seen = Vec::new();
    pool.retain_with_handle(|handle, body| {
        assert_eq!(body.me, Some(handle));
        seen.push(handle);
        handle != handles[2]
    });
    assert_eq!(seen, [handles[0], handles[2], handles[3]]);
    assert!(!pool.contains(handles[2]));
    assert_eq!(pool.len(), 2);
}

/// Generic code reaches the new methods through `Pool<T, S>` alone.
fn swap_x<T: Pooled + AsMut<f32>, S>(pool: &mut Pool<T, S>, a: Handle<T>, b: Handle<T>) -> bool {
    match pool.get_disjoint_mut([a, b]) {
        Some([a, b]) => {
            std::mem::swap(a.as_mut(), b.as_mut());
            true
        }
        None => false,
    }
}

impl AsMut<f32> for Body {
    fn as_mut(&mut self) -> &mut f32 {
        &mut self.x
    }
}

#[test]
fn generic_code_borrows_disjointly() {
    let mut pool = BodyPool::new();
    let a = pool.create(|b| b.x = 1.0).unwrap();
    let b = pool.create(|b| b.x = 2.0).unwrap();
    assert!(swap_x(&mut pool, a, b));
    assert_eq!((pool[a].x, pool[b].x), (2.0, 1.0));
    assert!(!swap_x(&mut pool, a, a));
}

#[test]
fn handles_round_trip_through_bits_and_print_short() {
    let mut pool = BodyPool::new();
    let a = pool.create(|_| {}).unwrap();
    let b = pool.create(|_| {}).unwrap();
    for h in [a, b] {
        assert_eq!(Handle::<Body>::from_bits(h.to_bits()), Some(h));
        assert_eq!(h.to_bits() & u64::from(u32::MAX), h.index() as u64);
        assert_eq!(h.to_string(), format!("{}v{}", h.index(), h.version()));
        assert_eq!(format!("{h:?}"), format!("Handle({h})"));
    }
    let back = Handle::<Body>::from_bits(b.to_bits()).unwrap();
    assert_eq!(pool[back].hits, 0);
}

#[test]
fn bits_no_pool_issues_are_refused() {
    assert_eq!(Handle::<Body>::from_bits(0), None);
    assert_eq!(Handle::<Body>::from_bits(7), None, "version 0");
    assert_eq!(Handle::<Body>::from_bits(4 << 32 | 7), None, "even version");
    assert_eq!(
        Handle::<Body>::from_bits(3 << 32 | u64::from(u32::MAX)),
        None,
        "index past the end"
    );
    assert_eq!(
        Handle::<Body>::from_bits(3 << 32 | u64::from(u32::MAX - 1)),
        None,
        "index at MAX_CAPACITY"
    );
    let last = Handle::<Body>::from_bits(3 << 32 | u64::from(u32::MAX - 2)).unwrap();
    assert_eq!(last.index(), BodyPool::MAX_CAPACITY - 1);
    let forged = Handle::<Body>::from_bits(u64::MAX >> 32 << 32).unwrap();
    assert!(BodyPool::new().get(forged).is_none());
}
