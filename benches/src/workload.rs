//! One generic loop per workload, and the checks that every peer did the same work, run before
//! measuring. Each loop is `#[inline(never)]`: one function per peer in the binary, which is what
//! criterion times and what callgrind counts. Each is the loop a user writes: no key passes
//! through `black_box` (only the sums a loop returns do, so that the loop is not dropped), which
//! would send each key through memory and time the store's forwarding rather than the peer.

use crate::particle::{NAMES, Owner, Particle};
use crate::peer::{Container, Peer, Release};
use crate::reuse::Reuse;
use crate::{
    Bursts, CAPACITY, CHURN_LIVE, Churn, Lookups, Occupancy, Spawn, Step, WARM_UP_FRAMES, peer,
};
use std::hint::black_box;
use std::rc::Rc;

/// Churn iterations run before measuring, to check that every peer holds the same objects.
pub const CHECKED: usize = 2;

/// Churn: each step releases the key at its position and stores there the key of a new object.
#[inline(never)]
pub fn churn<P: Release>(peer: &mut P, live: &mut [P::Key], steps: &[Step]) {
    for step in steps {
        let key = &mut live[step.position];
        peer.release(key);
        *key = peer.create(&step.spawn);
    }
}

/// The churn's starting state, after `CHECKED` iterations that must leave every peer with the
/// same `CHURN_LIVE` objects: the peer and the keys of its live objects.
pub fn churned<P: Release>(churn: &Churn, mut peer: P) -> (P, Vec<P::Key>) {
    let mut live: Vec<P::Key> = churn.initial.iter().map(|s| peer.create(s)).collect();
    for _ in 0..CHECKED {
        self::churn(&mut peer, &mut live, &churn.steps);
    }
    let found: Vec<f64> = live
        .iter()
        .filter_map(|k| peer.get(k).map(|p| p.x))
        .collect();
    assert_eq!(found.len(), CHURN_LIVE, "{}: live objects", P::NAME);
    let sum: f64 = found.iter().sum();
    assert_eq!(sum, churn.expected_sum(CHECKED), "{}: sum of x", P::NAME);
    (peer, live)
}

/// Iterate: the sum of `frames_left` over every live object.
#[inline(never)]
pub fn sum<P: Container>(peer: &P) -> u64 {
    let mut sum = 0u64;
    for p in peer.values() {
        sum += u64::from(p.frames_left);
    }
    black_box(sum)
}

/// Iterate with keys: the sum of `frames_left` and of the keys' bits over every live object.
#[inline(never)]
pub fn sum_keyed<P: Container>(peer: &P) -> u64 {
    let mut sum = 0u64;
    for (key, p) in peer.keyed() {
        sum = sum.wrapping_add(u64::from(p.frames_left) ^ key);
    }
    black_box(sum)
}

/// A peer of `occupancy` (`occupy` or `dense`), checked: its live objects sum to what the
/// occupancy says.
pub fn occupied<P: Container>(occupancy: &Occupancy, peer: P) -> P {
    assert_eq!(
        peer.len(),
        occupancy.live_count(),
        "{} at {}%: live objects",
        P::NAME,
        occupancy.percent
    );
    assert_eq!(
        sum(&peer),
        occupancy.expected_sum(),
        "{} at {}%: sum of frames_left",
        P::NAME,
        occupancy.percent
    );
    peer
}

/// A peer of `occupancy` with every slot's object created, then the released ones released.
pub fn occupy<P: Container + Release>(occupancy: &Occupancy, mut peer: P) -> (P, Vec<P::Key>) {
    let keys = peer::occupy(occupancy, &mut peer);
    (occupied(occupancy, peer), keys)
}

/// A dense peer of `occupancy`: only the live objects.
pub fn dense<P: Container>(occupancy: &Occupancy, mut peer: P) -> (P, Vec<P::Key>) {
    let keys = peer::dense(occupancy, &mut peer);
    (occupied(occupancy, peer), keys)
}

/// Get: looks up every key and sums the `frames_left` of those it finds.
#[inline(never)]
pub fn get<P: Peer>(peer: &P, keys: &[P::Key]) -> u64 {
    let mut sum = 0u64;
    for key in keys {
        if let Some(p) = peer.get(key) {
            sum += u64::from(p.frames_left);
        }
    }
    black_box(sum)
}

/// The get workload's keys for a peer holding the 50% occupancy with `live` keys, checked: the
/// peer finds the same objects as every other.
pub fn lookups<P: Peer>(lookups: &Lookups, peer: &P, live: &[P::Key]) -> Vec<P::Key>
where
    P::Key: Copy,
{
    let keys = lookups.keys(live);
    assert_eq!(
        get(peer, &keys),
        lookups.expected_sum(),
        "{}: sum of frames_left",
        P::NAME
    );
    keys
}

/// The particle frame: spawns the burst (what does not fit in `CAPACITY` is skipped), then
/// animates every live particle and releases the dead.
#[inline(never)]
pub fn frame<P: Container>(peer: &mut P, burst: &[Spawn]) {
    for spawn in burst {
        let Some(key) = peer.try_create(spawn, CAPACITY) else {
            break;
        };
        black_box(key);
    }
    peer.animate();
}

/// Runs `WARM_UP_FRAMES` frames, reaching the steady state (about 8,000 live), and checks that
/// the peer then holds what the dense `Vec` holds: the same count and sum of `x` (exact in any
/// order). Returns the number of the next frame.
pub fn warm_up<P: Container>(bursts: &Bursts, peer: &mut P) -> usize {
    fn state<P: Container>(bursts: &Bursts, peer: &mut P) -> (usize, f64) {
        for n in 0..WARM_UP_FRAMES {
            frame(peer, bursts.burst(n));
        }
        (peer.len(), crate::sum_x(peer.values()))
    }
    let expected = state(bursts, &mut Vec::<Particle>::with_capacity(CAPACITY));
    let warm = state(bursts, peer);
    assert_eq!(
        warm,
        expected,
        "{}: (live, sum of x) after warming up",
        P::NAME
    );
    assert!(
        warm.0 > CAPACITY / 2,
        "{}: not warmed up: {warm:?}",
        P::NAME
    );
    WARM_UP_FRAMES
}

/// Heavy reuse: acquires and fills one object per name, all held at once, then gives them all
/// back.
#[inline(never)]
pub fn reuse<R: Reuse>(peer: &mut R, held: &mut Vec<R::Held>, owner: &Rc<Owner>) {
    for name in NAMES {
        held.push(peer.acquire(name, owner));
    }
    for object in held.drain(..) {
        peer.release(object);
    }
}

/// Checks that a round lets every reference to the owner go (all 16 objects were released and
/// reset, or dropped): before measuring, and after.
pub fn check_reuse<R: Reuse>(peer: &mut R, held: &mut Vec<R::Held>, owner: &Rc<Owner>) {
    reuse(peer, held, owner);
    assert_eq!(
        Rc::strong_count(owner),
        1,
        "{}: an object kept its owner",
        R::NAME
    );
}
