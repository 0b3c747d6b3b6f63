//! The kernel path for plain types (issue 39): `groups_mut` hands out each stretch of occupancy
//! words with a live slot in each and all the slots they cover, free ones included; what a kernel writes in a free
//! slot never shows in an object, a clone or a save.
#![expect(
    clippy::cast_possible_truncation,
    clippy::cast_precision_loss,
    reason = "ids and slots below 1,000"
)]

use pooling::Pooled;
use std::collections::BTreeSet;

/// Fields reset at reuse by their type (`id`, `x`) and by a value (`tag`).
#[derive(Pooled)]
#[pool(size = 150, layout = columns)]
struct Dot {
    id: u32,
    x: f32,
    #[pool(reset = 7)]
    tag: u32,
}

#[derive(Pooled, Clone, serde::Serialize, serde::Deserialize)]
#[pool(size = 150)]
struct Spot {
    id: u32,
    x: f32,
    #[pool(reset = 7)]
    tag: u32,
}

#[derive(Pooled)]
#[pool(size = 100, on_full = grow, max = 1000, layout = columns)]
struct GrownDot {
    id: u32,
    x: f32,
}

#[derive(Pooled)]
#[pool(size = 100, on_full = grow, max = 1000)]
struct GrownSpot {
    id: u32,
    x: f32,
}

#[derive(Pooled)]
#[pool(size = 100, storage = inline, layout = columns)]
struct InlineDot {
    id: u32,
    x: f32,
}

#[derive(Pooled)]
#[pool(size = 100, storage = inline)]
struct InlineSpot {
    id: u32,
    x: f32,
}

/// What a walk of groups saw: each group's masks and the ids its slots hold.
type Seen = Vec<(Vec<u64>, Vec<u32>)>;

/// Whether slot `i` of a group is live, by the group's masks.
fn bit(mask: &[u64], i: usize) -> bool {
    mask[i / 64] >> (i % 64) & 1 == 1
}

/// The groups' masks against the objects: a group's slots are consecutive (a fresh pool's
/// object `n` is in slot `n`, and a release resets no plain field, so a free slot keeps its
/// id), 64 a mask (fewer in the last), every mask has a live slot, a bit is set exactly for
/// the live ones and none past the slots, and the live slots in mask order are the pool's
/// objects in order.
fn check(seen: &Seen, live: &[u32]) {
    let live_set: BTreeSet<u32> = live.iter().copied().collect();
    let mut in_masks = Vec::new();
    for (mask, ids) in seen {
        assert!(
            ids.len() > 64 * (mask.len() - 1) && ids.len() <= 64 * mask.len(),
            "a group of {} slots and {} masks",
            ids.len(),
            mask.len()
        );
        assert!(mask.iter().all(|&m| m != 0), "a mask with no live slot");
        if ids.len() % 64 != 0 {
            assert_eq!(
                mask[mask.len() - 1] >> (ids.len() % 64),
                0,
                "a bit past the slots"
            );
        }
        let first = mask[0].trailing_zeros();
        let base = ids[first as usize] - first;
        for (i, &id) in ids.iter().enumerate() {
            // A slot never used holds its blank object.
            let never = id == 0 && !bit(mask, i);
            assert!(id == base + i as u32 || never, "the group's slots in order");
            if never && id != base + i as u32 {
                continue;
            }
            assert_eq!(bit(mask, i), live_set.contains(&id), "slot of {id}");
            if bit(mask, i) {
                in_masks.push(id);
            }
        }
    }
    assert_eq!(in_masks, live, "the live slots, by the masks");
}

/// A seeded fraction of `0..n` to release, and slots 64..128 all of them (a group all free).
fn dead(n: u32) -> BTreeSet<u32> {
    let mut rng = fastrand::Rng::with_seed(39);
    (0..n)
        .filter(|&id| (64..128).contains(&id) || rng.u8(..) < 100)
        .collect()
}

fn dots() -> (DotPool, Vec<u32>) {
    let mut pool = DotPool::new();
    let handles: Vec<_> = (0..150)
        .map(|id| pool.create(|d| *d.id = id).unwrap())
        .collect();
    let dead = dead(150);
    for &id in &dead {
        pool.release(handles[id as usize]).unwrap();
    }
    (pool, (0..150).filter(|id| !dead.contains(id)).collect())
}

fn spots() -> (SpotPool, Vec<u32>) {
    let mut pool = SpotPool::new();
    let handles: Vec<_> = (0..150)
        .map(|id| pool.create(|s| s.id = id).unwrap())
        .collect();
    let dead = dead(150);
    for &id in &dead {
        pool.release(handles[id as usize]).unwrap();
    }
    (pool, (0..150).filter(|id| !dead.contains(id)).collect())
}

/// The kernel: live slots get `x = id`, free ones `FREE` in every field; and what it saw.
const FREE: u32 = 424_242;

fn scribble_dots<'a>(groups: impl Iterator<Item = (&'a [u64], DotSlicesMut<'a>)>) -> Seen {
    groups
        .map(|(mask, group)| {
            let ids = group.id.to_vec();
            for i in 0..ids.len() {
                if bit(mask, i) {
                    group.x[i] = group.id[i] as f32;
                } else {
                    (group.id[i], group.x[i], group.tag[i]) = (FREE, FREE as f32, FREE);
                }
            }
            (mask.to_vec(), ids)
        })
        .collect()
}

fn scribble_spots<'a>(groups: impl Iterator<Item = (&'a [u64], &'a mut [Spot])>) -> Seen {
    groups
        .map(|(mask, group)| {
            let ids = group.iter().map(|s| s.id).collect();
            for (i, s) in group.iter_mut().enumerate() {
                if bit(mask, i) {
                    s.x = s.id as f32;
                } else {
                    (s.id, s.x, s.tag) = (FREE, FREE as f32, FREE);
                }
            }
            (mask.to_vec(), ids)
        })
        .collect()
}

#[test]
fn a_column_pools_groups_have_its_live_slots_in_their_masks_and_free_writes_never_show() {
    let (mut pool, live) = dots();
    let seen = scribble_dots(pool.groups_mut());
    check(&seen, &live);
    let lens: Vec<usize> = seen.iter().map(|(_, ids)| ids.len()).collect();
    assert_eq!(
        lens,
        [64, 22],
        "the free group skipped, the chunk's end cut"
    );
    let rows: Vec<_> = pool.values().map(|d| (*d.id, *d.x, *d.tag)).collect();
    let expected: Vec<_> = live.iter().map(|&id| (id, id as f32, 7)).collect();
    assert_eq!(rows, expected, "the live objects as the kernel left them");
    let saved = serde_json::to_string(&pool).unwrap();
    assert!(
        !saved.contains("424242"),
        "a free slot's writes in a save: {saved}"
    );
    let copy = pool.clone();
    let loaded: DotPool = serde_json::from_str(&saved).unwrap();
    for mut pool in [pool, copy, loaded] {
        let free = pool.capacity() - pool.len();
        for _ in 0..free {
            let new = pool.create(|_| {}).unwrap();
            let d = pool.get(new).unwrap();
            assert_eq!((*d.id, *d.x, *d.tag), (0, 0.0, 7), "a reused slot is blank");
        }
        assert!(pool.values().all(|d| *d.tag == 7 && *d.id != FREE));
        pool.check_consistency().unwrap();
    }
}

#[test]
fn a_pools_groups_have_its_live_slots_in_their_masks_and_free_writes_never_show() {
    let (mut pool, live) = spots();
    let seen = scribble_spots(pool.groups_mut());
    check(&seen, &live);
    let lens: Vec<usize> = seen.iter().map(|(_, ids)| ids.len()).collect();
    assert_eq!(
        lens,
        [64, 22],
        "the free group skipped, the chunk's end cut"
    );
    let objects: Vec<_> = pool.values().map(|s| (s.id, s.x, s.tag)).collect();
    let expected: Vec<_> = live.iter().map(|&id| (id, id as f32, 7)).collect();
    assert_eq!(
        objects, expected,
        "the live objects as the kernel left them"
    );
    let saved = serde_json::to_string(&pool).unwrap();
    assert!(
        !saved.contains("424242"),
        "a free slot's writes in a save: {saved}"
    );
    let copy = pool.clone();
    let loaded: SpotPool = serde_json::from_str(&saved).unwrap();
    for mut pool in [pool, copy, loaded] {
        let free = pool.capacity() - pool.len();
        for _ in 0..free {
            let new = pool.create(|_| {}).unwrap();
            assert_eq!((pool[new].id, pool[new].x, pool[new].tag), (0, 0.0, 7));
        }
        assert!(pool.values().all(|s| s.tag == 7 && s.id != FREE));
        pool.check_consistency().unwrap();
    }
}

#[test]
fn groups_stop_at_each_chunk_of_a_grown_pool_and_follow_it_shrunk() {
    let mut columns = GrownDotPool::new();
    let mut objects = GrownSpotPool::new();
    let handles: Vec<_> = (0..300)
        .map(|id| {
            (
                columns.create(|d| *d.id = id).unwrap(),
                objects.create(|s| s.id = id).unwrap(),
            )
        })
        .collect();
    assert!(columns.capacity() > 100 && columns.capacity() == objects.capacity());
    let dead = dead(300);
    for &id in &dead {
        let (c, o) = handles[id as usize];
        columns.release(c).unwrap();
        objects.release(o).unwrap();
    }
    let live: Vec<u32> = (0..300).filter(|id| !dead.contains(id)).collect();
    // Twice: a second walk finds what the first left. Once under Miri (the same unsafe code).
    for _ in 0..if cfg!(miri) { 1 } else { 2 } {
        let groups = |seen: &Seen| seen.iter().map(|(_, ids)| ids.len()).collect::<Vec<_>>();
        let by_columns: Seen = columns
            .groups_mut()
            .map(|(mask, group)| {
                group.x.fill(5.0);
                (mask.to_vec(), group.id.to_vec())
            })
            .collect();
        let by_objects: Seen = objects
            .groups_mut()
            .map(|(mask, group)| {
                for s in group.iter_mut() {
                    s.x = 5.0;
                }
                (mask.to_vec(), group.iter().map(|s| s.id).collect())
            })
            .collect();
        check(&by_columns, &live);
        check(&by_objects, &live);
        // No group crosses from the first chunk (100 slots) to the next.
        for (_, ids) in &by_columns {
            assert!(!(ids.contains(&99) && ids.contains(&100)), "{ids:?}");
        }
        assert_eq!(groups(&by_columns), groups(&by_objects));
        assert!(columns.values().all(|d| *d.x == 5.0));
        assert!(objects.values().all(|s| s.x == 5.0));
    }
    // Shrunk back to the first chunk: its groups only; a reused slot blank.
    for id in live.iter().copied().filter(|&id| id >= 100) {
        let (c, o) = handles[id as usize];
        columns.release(c).unwrap();
        objects.release(o).unwrap();
    }
    assert!(columns.shrink() > 0 && objects.shrink() > 0);
    assert_eq!((columns.capacity(), objects.capacity()), (100, 100));
    let live: Vec<u32> = live.into_iter().filter(|&id| id < 100).collect();
    let by_columns: Seen = columns
        .groups_mut()
        .map(|(mask, group)| {
            group.x.fill(5.0);
            (mask.to_vec(), group.id.to_vec())
        })
        .collect();
    check(&by_columns, &live);
    let by_objects: Seen = objects
        .groups_mut()
        .map(|(mask, group)| {
            for s in group.iter_mut() {
                s.x = 5.0;
            }
            (mask.to_vec(), group.iter().map(|s| s.id).collect())
        })
        .collect();
    check(&by_objects, &live);
    let c = columns.create(|_| {}).unwrap();
    let o = objects.create(|_| {}).unwrap();
    assert_eq!((*columns.get(c).unwrap().x, objects[o].x), (0.0, 0.0));
}

#[test]
fn an_inline_pools_groups_cover_its_slots_built_and_a_forgotten_lease_is_a_free_slot() {
    let mut columns = InlineDotPool::new();
    let mut objects = InlineSpotPool::new();
    let handles: Vec<_> = (0..70)
        .map(|id| {
            (
                columns.create(|d| *d.id = id).unwrap(),
                objects.create(|s| s.id = id).unwrap(),
            )
        })
        .collect();
    // A lease forgotten (in slot 70): its slot neither live nor free, out of reach for good.
    std::mem::forget(columns.lender().acquire(|d| *d.id = 70).unwrap());
    std::mem::forget(objects.lender().acquire(|s| s.id = 70).unwrap());
    for &(c, o) in handles.iter().step_by(2) {
        columns.release(c).unwrap();
        objects.release(o).unwrap();
    }
    let live: Vec<u32> = (0..70).filter(|id| id % 2 == 1).collect();
    let by_columns: Seen = columns
        .groups_mut()
        .map(|(mask, group)| {
            let ids = group.id.to_vec();
            group.x.fill(3.0);
            (mask.to_vec(), ids)
        })
        .collect();
    let by_objects: Seen = objects
        .groups_mut()
        .map(|(mask, group)| {
            let ids = group.iter().map(|s| s.id).collect();
            for s in group.iter_mut() {
                s.x = 3.0;
            }
            (mask.to_vec(), ids)
        })
        .collect();
    for seen in [&by_columns, &by_objects] {
        check(seen, &live);
        let lens: Vec<usize> = seen.iter().map(|(_, ids)| ids.len()).collect();
        assert_eq!(
            lens,
            [71],
            "the slots built, the leased one among them, as one group"
        );
    }
    assert!(columns.values().all(|d| *d.x == 3.0) && objects.values().all(|s| s.x == 3.0));
    let c = columns.create(|_| {}).unwrap();
    let o = objects.create(|_| {}).unwrap();
    assert_eq!((*columns.get(c).unwrap().x, objects[o].x), (0.0, 0.0));
    columns.check_consistency().unwrap();
    objects.check_consistency().unwrap();
}
