//! The two pools of the seed's book chapter (Game Programming Patterns, "Object Pool"), written
//! plainly in Rust. Neither checks versions: a "handle" is an index, and releasing an index
//! twice, or using it after its particle died, is the caller's bug.

use crate::particle::Particle;

/// The chapter's first pool: a fixed array of particles, where a particle is in use while
/// `frames_left > 0`.
pub struct SeedScanPool {
    particles: Box<[Particle]>,
}

impl SeedScanPool {
    pub fn new(capacity: usize) -> Self {
        Self {
            particles: vec![Particle::default(); capacity].into_boxed_slice(),
        }
    }

    /// Scans from the start for the first unused particle, O(n), and initializes it; `None`
    /// when every particle is in use. `init` must set `frames_left > 0`.
    #[inline]
    pub fn create(&mut self, init: impl FnOnce(&mut Particle)) -> Option<usize> {
        let index = self.particles.iter().position(|p| !p.in_use())?;
        let particle = &mut self.particles[index];
        init(particle);
        debug_assert!(particle.in_use());
        Some(index)
    }

    /// Marks the particle unused.
    #[inline]
    pub fn release(&mut self, index: usize) {
        self.particles[index].frames_left = 0;
    }

    #[inline]
    pub fn get(&self, index: usize) -> Option<&Particle> {
        self.particles.get(index).filter(|p| p.in_use())
    }

    /// The particles in use: every slot is visited.
    #[inline]
    pub fn iter(&self) -> impl Iterator<Item = &Particle> {
        self.particles.iter().filter(|p| p.in_use())
    }

    /// Updates every particle in the array, skipping unused ones; a particle whose time is up
    /// becomes unused by itself.
    pub fn animate(&mut self) {
        for particle in &mut self.particles {
            if particle.in_use() {
                particle.animate();
            }
        }
    }

    /// O(n): for checks outside the measurements.
    pub fn len(&self) -> usize {
        self.iter().count()
    }

    pub fn capacity(&self) -> usize {
        self.particles.len()
    }
}

/// A slot of the free-list pool: live particle data, or the next free slot. The chapter keeps
/// the two in a union; a Rust enum plays it.
enum Slot {
    Live(Particle),
    Free { next: Option<usize> },
}

/// The chapter's free-list pool: `create` pops the first available slot in O(1), and
/// `animate` threads each particle that dies back onto the free list.
pub struct SeedFreeListPool {
    slots: Box<[Slot]>,
    first_available: Option<usize>,
}

impl SeedFreeListPool {
    pub fn new(capacity: usize) -> Self {
        let slots = (0..capacity)
            .map(|i| Slot::Free {
                next: (i + 1 < capacity).then_some(i + 1),
            })
            .collect();
        Self {
            slots,
            first_available: (capacity > 0).then_some(0),
        }
    }

    /// Pops the first available slot and initializes its particle; `None` when none is free.
    #[inline]
    pub fn create(&mut self, init: impl FnOnce(&mut Particle)) -> Option<usize> {
        let index = self.first_available?;
        let Slot::Free { next } = self.slots[index] else {
            unreachable!("the free list holds free slots")
        };
        self.first_available = next;
        let mut particle = Particle::default();
        init(&mut particle);
        self.slots[index] = Slot::Live(particle);
        Some(index)
    }

    /// Threads the slot back onto the free list. Unchecked, as in the chapter: the index must
    /// name a live particle.
    #[inline]
    pub fn release(&mut self, index: usize) {
        debug_assert!(matches!(self.slots[index], Slot::Live(_)));
        self.slots[index] = Slot::Free {
            next: self.first_available,
        };
        self.first_available = Some(index);
    }

    #[inline]
    pub fn get(&self, index: usize) -> Option<&Particle> {
        match self.slots.get(index) {
            Some(Slot::Live(particle)) => Some(particle),
            _ => None,
        }
    }

    /// The live particles: every slot is visited.
    #[inline]
    pub fn iter(&self) -> impl Iterator<Item = &Particle> {
        self.slots.iter().filter_map(|slot| match slot {
            Slot::Live(particle) => Some(particle),
            Slot::Free { .. } => None,
        })
    }

    /// Animates every live particle, and threads each one that dies onto the free list.
    pub fn animate(&mut self) {
        for (index, slot) in self.slots.iter_mut().enumerate() {
            if let Slot::Live(particle) = slot
                && particle.animate()
            {
                *slot = Slot::Free {
                    next: self.first_available,
                };
                self.first_available = Some(index);
            }
        }
    }

    /// O(n): for checks outside the measurements.
    pub fn len(&self) -> usize {
        self.iter().count()
    }

    pub fn capacity(&self) -> usize {
        self.slots.len()
    }
}
