//! Every peer's [`Peer`], [`Release`] and [`Container`], each method one call into the peer.
//! Keys go in and out as a user's code passes them, through no `black_box`. Every peer's
//! `create` and `release` are
//! `#[inline(always)]`, as a user's loop has them: left to the inliner, one build of the
//! callgrind suite called pooling's `release` out of line (86 instructions a churn step) where
//! another inlined it (78).
#![allow(
    clippy::inline_always,
    reason = "the peers' steps inline as in a user's loop"
)]

use crate::particle::{Particle, ParticlePool};
use crate::peer::{Container, Peer, Release};
use crate::seed::{SeedFreeListPool, SeedScanPool};
use crate::{Occupancy, Spawn};
use pooling::Handle;
use slotmap::{DefaultKey, DenseSlotMap, Key, SlotMap};
use std::borrow::Borrow;
use std::ops::Deref;

impl Peer for ParticlePool {
    const NAME: &'static str = "pooling";
    type Key = Handle<Particle>;
    #[inline(always)]
    fn create(&mut self, spawn: &Spawn) -> Self::Key {
        ParticlePool::create(self, |p| spawn.write(p)).unwrap()
    }
    #[inline]
    fn get<'a>(&'a self, key: &'a Self::Key) -> Option<impl Deref<Target = Particle> + 'a> {
        ParticlePool::get(self, *key)
    }
}

impl Release for ParticlePool {
    #[inline(always)]
    fn release(&mut self, key: &mut Self::Key) {
        ParticlePool::release(self, *key).unwrap();
    }
}

impl Container for ParticlePool {
    fn len(&self) -> usize {
        ParticlePool::len(self)
    }
    #[inline]
    fn values(&self) -> impl Iterator<Item = &Particle> {
        ParticlePool::values(self)
    }
    #[inline]
    fn keyed(&self) -> impl Iterator<Item = (u64, &Particle)> {
        ParticlePool::iter(self).map(|(h, p)| (h.to_bits(), p))
    }
    #[inline]
    fn try_create(&mut self, spawn: &Spawn, _: usize) -> Option<Self::Key> {
        ParticlePool::create(self, |p| spawn.write(p)).ok()
    }
    #[inline]
    fn animate(&mut self) {
        self.retain(|p| !p.animate());
    }
}

/// The containers that store values and grow: slab, slotmap's two maps and thunderdome.
/// `|s| values` iterates the values of container `s`; `|k| remove` removes key `k` from that same
/// `s` (their removals return different things).
macro_rules! growable {
    ($type:ty, $name:literal, $key:ty, |$this:ident| $values:expr, $keyed:expr, |$k:ident| $remove:expr) => {
        impl Peer for $type {
            const NAME: &'static str = $name;
            type Key = $key;
            #[inline(always)]
            fn create(&mut self, spawn: &Spawn) -> Self::Key {
                self.insert(spawn.particle())
            }
            #[inline]
            fn get<'a>(&'a self, key: &'a Self::Key) -> Option<impl Deref<Target = Particle> + 'a> {
                <$type>::get(self, *key)
            }
        }

        impl Release for $type {
            #[inline(always)]
            fn release(&mut self, key: &mut Self::Key) {
                let ($this, $k) = (self, *key);
                $remove;
            }
        }

        impl Container for $type {
            fn len(&self) -> usize {
                <$type>::len(self)
            }
            #[inline]
            fn values(&self) -> impl Iterator<Item = &Particle> {
                let $this = self;
                $values
            }
            #[inline]
            fn keyed(&self) -> impl Iterator<Item = (u64, &Particle)> {
                self.iter().map($keyed)
            }
            #[inline]
            fn try_create(&mut self, spawn: &Spawn, capacity: usize) -> Option<Self::Key> {
                (<$type>::len(self) < capacity).then(|| self.insert(spawn.particle()))
            }
            #[inline]
            fn animate(&mut self) {
                self.retain(|_, p| !p.animate());
            }
        }
    };
}

growable!(
    slab::Slab<Particle>,
    "slab",
    usize,
    |s| s.iter().map(|(_, p)| p),
    |(k, p)| (k as u64, p),
    |k| { s.remove(k) }
);
growable!(
    SlotMap<DefaultKey, Particle>,
    "slotmap",
    DefaultKey,
    |s| s.values(),
    |(k, p)| (k.data().as_ffi(), p),
    |k| { s.remove(k).unwrap() }
);
growable!(
    DenseSlotMap<DefaultKey, Particle>,
    "dense_slotmap",
    DefaultKey,
    |s| s.values(),
    |(k, p)| (k.data().as_ffi(), p),
    |k| { s.remove(k).unwrap() }
);
growable!(
    thunderdome::Arena<Particle>,
    "thunderdome",
    thunderdome::Index,
    |s| s.iter().map(|(_, p)| p),
    |(k, p)| (k.to_bits(), p),
    |k| { s.remove(k).unwrap() }
);

/// No capacity to give: it adds pages as it needs them. Its `get` returns a guard that counts
/// the reference (atomically) while held; `clear` resets the object (`Clear`) and frees the slot.
impl Peer for sharded_slab::Pool<Particle> {
    const NAME: &'static str = "sharded_slab";
    type Key = usize;
    #[inline(always)]
    fn create(&mut self, spawn: &Spawn) -> Self::Key {
        self.create_with(|p| spawn.write(p)).unwrap()
    }
    #[inline]
    fn get<'a>(&'a self, key: &'a Self::Key) -> Option<impl Deref<Target = Particle> + 'a> {
        sharded_slab::Pool::get(self, *key)
    }
}

impl Release for sharded_slab::Pool<Particle> {
    #[inline(always)]
    fn release(&mut self, key: &mut Self::Key) {
        assert!(self.clear(*key));
    }
}

/// All objects built up front; a guard holds its object by value while it is out, and dropping
/// it resets the object (`Recycleable::reset`) and moves it back.
impl<'p> Peer for &'p lifeguard::Pool<Particle> {
    const NAME: &'static str = "lifeguard";
    type Key = Option<lifeguard::Recycled<'p, Particle>>;
    #[inline(always)]
    fn create(&mut self, spawn: &Spawn) -> Self::Key {
        let pool: &'p lifeguard::Pool<Particle> = self;
        let mut p = pool.new();
        spawn.write(&mut p);
        Some(p)
    }
    #[inline]
    fn get<'a>(&'a self, key: &'a Self::Key) -> Option<impl Deref<Target = Particle> + 'a> {
        key.as_deref()
    }
}

impl Release for &lifeguard::Pool<Particle> {
    #[inline(always)]
    fn release(&mut self, key: &mut Self::Key) {
        drop(key.take());
    }
}

/// Dropping a guard moves the object back as it is: object-pool does not reset. `create` writes
/// every field, so none is needed to be equivalent.
impl<'p> Peer for &'p object_pool::Pool<Particle> {
    const NAME: &'static str = "object_pool";
    type Key = Option<object_pool::Reusable<'p, Particle>>;
    #[inline(always)]
    fn create(&mut self, spawn: &Spawn) -> Self::Key {
        let pool: &'p object_pool::Pool<Particle> = self;
        let mut p = pool.try_pull().unwrap();
        spawn.write(&mut p);
        Some(p)
    }
    #[inline]
    fn get<'a>(&'a self, key: &'a Self::Key) -> Option<impl Deref<Target = Particle> + 'a> {
        key.as_deref()
    }
}

impl Release for &object_pool::Pool<Particle> {
    #[inline(always)]
    fn release(&mut self, key: &mut Self::Key) {
        drop(key.take());
    }
}

/// One heap allocation per object, freed at release: the key is the box.
pub struct Boxes;

impl Peer for Boxes {
    const NAME: &'static str = "box";
    type Key = Option<Box<Particle>>;
    #[inline(always)]
    fn create(&mut self, spawn: &Spawn) -> Self::Key {
        Some(Box::new(spawn.particle()))
    }
    #[inline]
    fn get<'a>(&'a self, key: &'a Self::Key) -> Option<impl Deref<Target = Particle> + 'a> {
        key.as_deref()
    }
}

impl Release for Boxes {
    #[inline(always)]
    fn release(&mut self, key: &mut Self::Key) {
        drop(key.take());
    }
}

/// The seed's pools check no versions: their key is an index.
macro_rules! seed {
    ($type:ty, $name:literal) => {
        impl Peer for $type {
            const NAME: &'static str = $name;
            type Key = usize;
            #[inline(always)]
            fn create(&mut self, spawn: &Spawn) -> Self::Key {
                <$type>::create(self, |p| spawn.write(p)).unwrap()
            }
            #[inline]
            fn get<'a>(&'a self, key: &'a Self::Key) -> Option<impl Deref<Target = Particle> + 'a> {
                <$type>::get(self, *key)
            }
        }

        impl Release for $type {
            #[inline(always)]
            fn release(&mut self, key: &mut Self::Key) {
                <$type>::release(self, *key);
            }
        }

        impl Container for $type {
            fn len(&self) -> usize {
                <$type>::len(self)
            }
            #[inline]
            fn values(&self) -> impl Iterator<Item = &Particle> {
                <$type>::iter(self)
            }
            #[inline]
            fn try_create(&mut self, spawn: &Spawn, _: usize) -> Option<Self::Key> {
                <$type>::create(self, |p| spawn.write(p))
            }
            #[inline]
            fn animate(&mut self) {
                <$type>::animate(self);
            }
        }
    };
}

seed!(SeedScanPool, "seed_scan");
seed!(SeedFreeListPool, "seed_free_list");

/// The dense peers hold only the live objects; a key is a position, which a removal moves, so
/// they release nothing by key.
macro_rules! dense {
    ($type:ty, $name:literal, $new:expr) => {
        impl Peer for $type {
            const NAME: &'static str = $name;
            type Key = usize;
            #[inline(always)]
            fn create(&mut self, spawn: &Spawn) -> Self::Key {
                self.push($new(spawn));
                self.len() - 1
            }
            #[inline]
            fn get<'a>(&'a self, key: &'a Self::Key) -> Option<impl Deref<Target = Particle> + 'a> {
                (self.as_slice().get(*key)).map(Borrow::<Particle>::borrow)
            }
        }

        impl Container for $type {
            fn len(&self) -> usize {
                <$type>::len(self)
            }
            #[inline]
            fn values(&self) -> impl Iterator<Item = &Particle> {
                self.iter().map(Borrow::<Particle>::borrow)
            }
            #[inline]
            fn try_create(&mut self, spawn: &Spawn, capacity: usize) -> Option<Self::Key> {
                (<$type>::len(self) < capacity).then(|| {
                    self.push($new(spawn));
                    <$type>::len(self) - 1
                })
            }
            #[inline]
            fn animate(&mut self) {
                self.retain_mut(|p| !p.animate());
            }
        }
    };
}

dense!(Vec<Particle>, "vec", Spawn::particle);
dense!(Vec<Box<Particle>>, "box", |s: &Spawn| Box::new(
    s.particle()
));

/// The `box` peer of iterate and get: one allocation per slot's object, made in slot order, then
/// the released ones freed, so that the live boxes sit among the holes the released ones left.
/// Its keys are positions.
pub fn scattered_boxes(occupancy: &Occupancy) -> (Vec<Box<Particle>>, Vec<usize>) {
    let mut all: Vec<Option<Box<Particle>>> = (occupancy.spawns.iter())
        .map(|s| Some(Box::new(s.particle())))
        .collect();
    for &slot in &occupancy.released {
        all[slot] = None;
    }
    let boxes: Vec<Box<Particle>> = all.into_iter().flatten().collect();
    let keys = (0..boxes.len()).collect();
    (boxes, keys)
}
