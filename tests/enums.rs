//! Enums in a pool: objects of several shapes, one pool sized for the largest. Release resets an
//! object to its `#[pool(blank)]` variant: if it is that variant, its fields are reset in place
//! as a struct's are (capacity and `keep` fields kept); any other variant is replaced by a
//! freshly built blank variant, dropping everything it owned.

use pooling::{Handle, Pooled, Reset};
use std::cell::Cell;
use std::rc::Rc;

#[derive(Debug, PartialEq)]
struct Target;

fn clear_hits(hits: &mut Vec<u32>) {
    hits.clear();
    hits.reserve(2);
}

#[derive(Default, Debug, Clone, Copy, PartialEq, Eq)]
struct SpriteId(u32);

#[derive(Pooled, Debug)]
#[pool(size = 2)]
#[expect(
    dead_code,
    reason = "the variants' fields are held for release to drop"
)]
enum Shot {
    #[pool(blank)]
    Bullet {
        speed: f32,
        #[pool(reset = 1.0)]
        damage: f32,
        #[pool(reset_with = clear_hits)]
        hits: Vec<u32>,
        path: Vec<(f32, f32)>,
        #[pool(keep)]
        sprite: SpriteId,
        owner: Option<Rc<Target>>,
    },
    /// A bare `Rc`: a field of a variant other than the blank one is dropped, never reset, so it
    /// needs no blank state.
    Missile {
        trail: Vec<(f32, f32)>,
        target: Rc<Target>,
    },
    Laser(f32, Rc<Target>),
}

impl Shot {
    fn is_blank_bullet(&self) -> bool {
        matches!(
            self,
            Shot::Bullet { speed, damage, hits, path, owner, .. }
                if *speed == 0.0 && *damage == 1.0 && hits.is_empty() && path.is_empty()
                    && owner.is_none()
        )
    }

    fn path(&self) -> &Vec<(f32, f32)> {
        match self {
            Shot::Bullet { path, .. } => path,
            other => panic!("not a bullet: {other:?}"),
        }
    }
}

fn missile(pool: &mut ShotPool, target: &Rc<Target>) -> Handle<Shot> {
    pool.create(|shot| {
        *shot = Shot::Missile {
            trail: vec![(0.0, 0.0); 16],
            target: Rc::clone(target),
        };
    })
    .unwrap()
}

#[test]
fn a_new_object_is_the_blank_variant_with_its_fields_blank() {
    let mut pool = ShotPool::new();
    let mut seen = false;
    let shot = pool.create(|shot| seen = shot.is_blank_bullet()).unwrap();
    assert!(seen, "init sees the blank variant");
    let Shot::Bullet { hits, sprite, .. } = pool.get(shot).unwrap() else {
        panic!("not the blank variant");
    };
    assert!(hits.capacity() >= 2, "`reset_with` runs on the first blank");
    assert_eq!(*sprite, SpriteId(0), "`keep` starts from Default");
}

#[test]
fn release_drops_what_another_variant_owned_and_reuse_sees_the_blank_variant() {
    let target = Rc::new(Target);
    let mut pool = ShotPool::with_capacity(1);
    let shot = missile(&mut pool, &target);
    assert_eq!(Rc::strong_count(&target), 2);
    pool.release(shot).unwrap();
    assert_eq!(Rc::strong_count(&target), 1, "let go at release, not reuse");

    let laser = pool
        .create(|shot| *shot = Shot::Laser(4.0, Rc::clone(&target)))
        .unwrap();
    pool.release(laser).unwrap();
    assert_eq!(Rc::strong_count(&target), 1);

    let mut seen = false;
    let again = pool.create(|shot| seen = shot.is_blank_bullet()).unwrap();
    assert!(
        seen,
        "a slot that held a missile and a laser hands out a blank bullet"
    );
    assert!(
        pool.get(again).unwrap().path().capacity() == 0,
        "the bullet was built afresh: the missile's trail is not reused"
    );
}

#[test]
fn the_blank_variant_is_reset_in_place_keeping_capacity_and_keep_fields() {
    let target = Rc::new(Target);
    let mut pool = ShotPool::with_capacity(1);
    let shot = pool
        .create(|shot| {
            if let Shot::Bullet {
                speed,
                damage,
                hits,
                path,
                sprite,
                owner,
            } = shot
            {
                *speed = 9.0;
                *damage = 3.0;
                hits.extend([1, 2, 3, 4, 5]);
                path.extend([(1.0, 1.0); 40]);
                *sprite = SpriteId(7);
                *owner = Some(Rc::clone(&target));
            }
        })
        .unwrap();
    let path_at = pool.get(shot).unwrap().path().as_ptr();
    pool.release(shot).unwrap();
    assert_eq!(
        Rc::strong_count(&target),
        1,
        "the bullet's `Option<Rc>` let go"
    );

    let again = pool.create(|_| {}).unwrap();
    let bullet = pool.get(again).unwrap();
    assert!(bullet.is_blank_bullet(), "{bullet:?}");
    let Shot::Bullet {
        hits, path, sprite, ..
    } = bullet
    else {
        unreachable!()
    };
    assert!(
        path.capacity() >= 40,
        "a bullet reused as a bullet keeps its buffers"
    );
    assert_eq!(path.as_ptr(), path_at, "the same allocation");
    assert!(hits.capacity() >= 5);
    assert_eq!(
        *sprite,
        SpriteId(7),
        "`keep` survives while it stays a bullet"
    );
}

#[test]
fn a_bullet_that_was_something_else_starts_from_default_again() {
    let target = Rc::new(Target);
    let mut pool = ShotPool::with_capacity(1);
    let shot = pool
        .create(|shot| {
            if let Shot::Bullet { sprite, path, .. } = shot {
                *sprite = SpriteId(7);
                path.reserve(40);
            }
        })
        .unwrap();
    pool.release(shot).unwrap();
    let shot = missile(&mut pool, &target);
    pool.release(shot).unwrap();

    let again = pool.create(|_| {}).unwrap();
    let Shot::Bullet { sprite, path, .. } = pool.get(again).unwrap() else {
        panic!("not the blank variant");
    };
    assert_eq!(
        *sprite,
        SpriteId(0),
        "`keep` lasts only while it stays a bullet"
    );
    assert_eq!(path.capacity(), 0);
}

#[test]
fn retain_release_all_leases_and_drop_let_go_of_every_variant() {
    let target = Rc::new(Target);
    let mut pool = ShotPool::with_capacity(2);
    missile(&mut pool, &target);
    pool.create(|shot| *shot = Shot::Laser(1.0, Rc::clone(&target)))
        .unwrap();
    assert_eq!(Rc::strong_count(&target), 3);
    pool.retain(|shot| matches!(shot, Shot::Laser(..)));
    assert_eq!(Rc::strong_count(&target), 2, "retain dropped the missile");
    pool.release_all();
    assert_eq!(
        Rc::strong_count(&target),
        1,
        "release_all dropped the laser"
    );

    {
        let pool = pool.lender();
        let lease = pool
            .acquire(|shot| *shot = Shot::Laser(2.0, Rc::clone(&target)))
            .unwrap();
        assert!(matches!(*lease, Shot::Laser(..)));
        assert_eq!(Rc::strong_count(&target), 2);
    }
    assert_eq!(Rc::strong_count(&target), 1, "a dropped lease is reset");

    missile(&mut pool, &target);
    drop(pool);
    assert_eq!(Rc::strong_count(&target), 1);
}

#[derive(Pooled)]
#[pool(size = 2, on_full = evict, evict_by = Order::rank)]
#[expect(
    dead_code,
    reason = "the variants' fields are held for release to drop"
)]
enum Order {
    #[pool(blank)]
    Idle,
    Move {
        to: (i32, i32),
        path: Vec<(i32, i32)>,
    },
    Attack {
        rank: u8,
        target: Rc<Target>,
    },
}

impl Order {
    fn rank(&self) -> u8 {
        match self {
            Order::Idle => 0,
            Order::Move { .. } => 1,
            Order::Attack { rank, .. } => *rank,
        }
    }
}

#[test]
fn an_evicted_object_is_reset_to_its_unit_blank_variant() {
    let target = Rc::new(Target);
    let mut pool = OrderPool::new();
    let attack = pool.create(|order| {
        *order = Order::Attack {
            rank: 2,
            target: Rc::clone(&target),
        };
    });
    pool.create(|order| {
        *order = Order::Move {
            to: (1, 1),
            path: vec![(0, 0)],
        };
    });
    let third = pool.create(|order| {
        assert!(matches!(order, Order::Idle), "the evicted slot is blank");
        *order = Order::Attack {
            rank: 3,
            target: Rc::clone(&target),
        };
    });
    assert!(pool.contains(attack), "the move ranked lowest");
    assert_eq!(pool.get(third).map(Order::rank), Some(3));
    pool.release(attack).unwrap();
    assert_eq!(Rc::strong_count(&target), 2);
}

thread_local! {
    /// How many `Noisy` values this thread dropped.
    static DROPS: Cell<u32> = const { Cell::new(0) };
}

struct Noisy;

impl Drop for Noisy {
    fn drop(&mut self) {
        DROPS.with(|drops| drops.set(drops.get() + 1));
    }
}

#[derive(Pooled)]
#[pool(size = 1)]
#[expect(
    dead_code,
    reason = "the variants' fields are held for release to drop"
)]
enum Slot {
    #[pool(blank)]
    Empty,
    Full(Noisy, Box<Noisy>),
}

#[test]
fn every_owned_value_of_a_released_variant_is_dropped_once() {
    let before = DROPS.with(Cell::get);
    let mut pool = SlotPool::new();
    let full = pool
        .create(|slot| *slot = Slot::Full(Noisy, Box::new(Noisy)))
        .unwrap();
    assert_eq!(DROPS.with(Cell::get), before, "nothing dropped while live");
    pool.release(full).unwrap();
    assert_eq!(DROPS.with(Cell::get), before + 2);
    drop(pool);
    assert_eq!(
        DROPS.with(Cell::get),
        before + 2,
        "the blank variant owns none"
    );
}

#[derive(Reset, Debug, PartialEq)]
enum Stance {
    #[pool(blank)]
    Standing {
        #[pool(reset = 1.0)]
        balance: f32,
        log: Vec<u8>,
    },
    Jumping {
        height: f32,
        landing: Rc<Target>,
    },
    Crouching,
}

#[derive(Reset, Debug, PartialEq, Clone, Copy)]
enum Facing {
    North,
    #[pool(blank)]
    South,
}

#[derive(Pooled)]
#[pool(size = 1)]
struct Hero {
    stance: Stance,
    facing: Facing,
    facings: [Facing; 2],
}

#[test]
fn an_enum_that_derives_reset_is_a_field_that_needs_no_attribute() {
    let target = Rc::new(Target);
    let mut pool = HeroPool::new();
    let hero = pool
        .create(|hero| {
            assert_eq!(hero.facing, Facing::South);
            hero.stance = Stance::Jumping {
                height: 2.0,
                landing: Rc::clone(&target),
            };
            hero.facing = Facing::North;
            hero.facings = [Facing::North; 2];
        })
        .unwrap();
    pool.release(hero).unwrap();
    assert_eq!(Rc::strong_count(&target), 1, "the stance let go at release");

    let hero = pool
        .create(|hero| {
            assert_eq!(hero.facing, Facing::South, "plain data reset at reuse");
            assert_eq!(hero.facings, [Facing::South; 2]);
            if let Stance::Standing { log, .. } = &mut hero.stance {
                log.extend([1, 2, 3]);
            }
        })
        .unwrap();
    pool.release(hero).unwrap();
    let hero = pool.create(|_| {}).unwrap();
    let Stance::Standing { balance, log } = &pool.get(hero).unwrap().stance else {
        panic!("not the blank variant");
    };
    assert_eq!(*balance, 1.0);
    assert!(log.is_empty() && log.capacity() >= 3, "reset in place");
}

#[test]
fn reset_and_blank_of_a_derived_enum() {
    assert_eq!(
        Stance::blank(),
        Stance::Standing {
            balance: 1.0,
            log: Vec::new()
        }
    );
    let mut stance = Stance::Crouching;
    stance.reset();
    assert_eq!(stance, Stance::blank());
    let mut stance = Stance::Standing {
        balance: 0.5,
        log: Vec::with_capacity(8),
    };
    stance.reset();
    let Stance::Standing { balance, log } = &stance else {
        panic!("not the blank variant");
    };
    assert_eq!(*balance, 1.0);
    assert!(log.capacity() >= 8);
    let mut facing = Facing::North;
    facing.reset();
    assert_eq!(facing, Facing::South);
}

#[derive(Pooled, Debug, PartialEq)]
#[pool(size = 2)]
enum Bin<T> {
    #[pool(blank)]
    Empty(Vec<T>),
    Single(T),
}

#[test]
fn a_generic_enum_with_a_tuple_blank_variant() {
    let mut pool: BinPool<String> = BinPool::new();
    let a = pool.create(|cell| *cell = Bin::Single("a".into())).unwrap();
    let b = pool
        .create(|cell| {
            if let Bin::Empty(items) = cell {
                items.push("b".into());
            }
        })
        .unwrap();
    assert_eq!(pool.get(b), Some(&Bin::Empty(vec!["b".into()])));
    pool.release(a).unwrap();
    pool.release(b).unwrap();
    let c = pool.create(|_| {}).unwrap();
    let d = pool.create(|_| {}).unwrap();
    for handle in [c, d] {
        assert_eq!(pool.get(handle), Some(&Bin::Empty(Vec::new())));
    }
}

#[derive(Pooled)]
#[pool(size = 1)]
enum Only {
    #[pool(blank)]
    One { count: u32, names: Vec<String> },
}

#[test]
fn an_enum_of_one_variant_resets_like_a_struct() {
    let mut pool = OnlyPool::new();
    let one = pool
        .create(|Only::One { count, names }| {
            *count = 3;
            names.push("x".into());
        })
        .unwrap();
    pool.release(one).unwrap();
    let one = pool.create(|_| {}).unwrap();
    let Only::One { count, names } = pool.get(one).unwrap();
    assert_eq!(*count, 0);
    assert!(names.is_empty() && names.capacity() >= 1);
}
