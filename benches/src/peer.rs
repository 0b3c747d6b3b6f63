//! What every particle workload asks of a peer, said once per peer (in `peers.rs`), so that each
//! workload is one generic loop (in `workload.rs`).

use crate::particle::Particle;
use crate::{Occupancy, Spawn};
use std::ops::Deref;

/// A peer that hands out a key (a handle, an index, or for the guard pools the guard itself) for
/// each object it creates.
pub trait Peer {
    /// The name in benchmark ids, tables and failed checks.
    const NAME: &'static str;
    /// What `create` hands back.
    type Key;
    /// Creates a particle from `spawn`. The workloads never ask a fixed-size peer for more than
    /// it holds: one that is full panics.
    fn create(&mut self, spawn: &Spawn) -> Self::Key;
    /// The particle `key` names, if it is live.
    fn get<'a>(&'a self, key: &'a Self::Key) -> Option<impl Deref<Target = Particle> + 'a>;
}

/// A peer that releases one object by its key (every peer but the dense `Vec`s, whose keys are
/// positions that a removal moves).
pub trait Release: Peer {
    /// Releases the object `key` names; `key` names nothing afterwards.
    fn release(&mut self, key: &mut Self::Key);
}

/// A peer that owns its live objects (not the guard pools, whose objects sit in the guards):
/// iteration and the particle frame.
pub trait Container: Peer {
    /// Live objects, O(1) where the peer counts them (not the seed's pools: for checks only).
    fn len(&self) -> usize;
    /// The live objects, in the peer's order.
    fn values(&self) -> impl Iterator<Item = &Particle>;
    /// The live objects with their keys' bits, in the peer's order: the walk a user writes
    /// when they need the handles too (the peers without one give 0).
    fn keyed(&self) -> impl Iterator<Item = (u64, &Particle)> {
        self.values().map(|p| (0, p))
    }
    /// Creates a particle from `spawn`, or returns `None` when the peer holds `capacity`
    /// (the particle frame's bound, which the growable peers would otherwise pass).
    fn try_create(&mut self, spawn: &Spawn, capacity: usize) -> Option<Self::Key>;
    /// The seed's frame: moves every live particle and releases those whose time is up.
    fn animate(&mut self);
}

/// Fills `peer` as `occupancy` says: every slot's object created in slot order, then the
/// released ones released. Returns the keys of the live objects, in slot order.
pub fn occupy<P: Release>(occupancy: &Occupancy, peer: &mut P) -> Vec<P::Key> {
    let mut keys: Vec<P::Key> = occupancy.spawns.iter().map(|s| peer.create(s)).collect();
    for &slot in &occupancy.released {
        peer.release(&mut keys[slot]);
    }
    (keys.into_iter().zip(&occupancy.live))
        .filter_map(|(key, &live)| live.then_some(key))
        .collect()
}

/// Fills a dense peer with only the live objects of `occupancy`, in slot order: its keys are
/// positions.
pub fn dense<P: Peer>(occupancy: &Occupancy, peer: &mut P) -> Vec<P::Key> {
    occupancy.live_spawns().map(|s| peer.create(s)).collect()
}
