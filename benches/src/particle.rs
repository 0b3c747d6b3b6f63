//! The object types of the workloads, with the traits each peer asks of them.

use pooling::Pooled;
use std::rc::Rc;

/// The seed's particle. `size = 1024` is the churn capacity; the other workloads use
/// `ParticlePool::with_capacity(10_000)`.
#[derive(Pooled, Clone, Copy, Debug, Default, PartialEq)]
#[pool(size = 1024)]
pub struct Particle {
    pub frames_left: u32,
    pub x: f64,
    pub y: f64,
    pub vx: f64,
    pub vy: f64,
}

impl Particle {
    /// The seed's `inUse()`, for its scanning pool.
    #[inline]
    pub fn in_use(&self) -> bool {
        self.frames_left > 0
    }

    /// One frame of a live particle; true when it dies this frame (the seed's free-list
    /// `animate()`). Every peer of the particle-frame workload calls this.
    #[inline]
    pub fn animate(&mut self) -> bool {
        self.x += self.vx;
        self.y += self.vy;
        self.frames_left -= 1;
        self.frames_left == 0
    }
}

/// sharded-slab's `Pool` resets an object through `Clear` when it is cleared.
impl sharded_slab::Clear for Particle {
    fn clear(&mut self) {
        *self = Self::default();
    }
}

/// lifeguard resets an object through `Recycleable::reset` when its guard drops.
impl lifeguard::Recycleable for Particle {
    fn new() -> Self {
        Self::default()
    }

    fn reset(&mut self) {
        *self = Self::default();
    }
}

// ---------------------------------------------------------------------------------------------
// heavy reuse

/// Bytes written into each heavy object's buffer.
pub const BUFFER: usize = 4096;

/// What each heavy object's buffer is filled from.
pub static SOURCE: [u8; BUFFER] = source();

const fn source() -> [u8; BUFFER] {
    let mut bytes = [0; BUFFER];
    let mut i = 0;
    while i < BUFFER {
        #[expect(
            clippy::cast_possible_truncation,
            reason = "a byte pattern: i % 251 < 256"
        )]
        {
            bytes[i] = (i % 251) as u8;
        }
        i += 1;
    }
    bytes
}

/// Objects held at once per iteration of the heavy-reuse workload, and their names.
pub const NAMES: [&str; 16] = [
    "spark-00", "spark-01", "spark-02", "spark-03", "spark-04", "spark-05", "spark-06", "spark-07",
    "spark-08", "spark-09", "spark-10", "spark-11", "spark-12", "spark-13", "spark-14", "spark-15",
];

/// Who a heavy object belongs to: shared through an `Rc` that must be let go at release.
#[derive(Debug)]
pub struct Owner {
    pub name: &'static str,
}

/// An object worth reusing: a 4 KiB buffer, a name and a reference to its owner.
#[derive(Pooled, Debug, Default)]
#[pool(size = 16)]
pub struct Heavy {
    pub data: Vec<u8>,
    pub name: String,
    pub owner: Option<Rc<Owner>>,
}

impl Heavy {
    /// What every peer does with each object it acquires. On a reused object whose buffers
    /// kept their capacity this allocates nothing; on a fresh one it allocates both buffers.
    #[inline]
    pub fn fill(&mut self, name: &str, owner: &Rc<Owner>) {
        self.data.extend_from_slice(&SOURCE);
        self.name.push_str(name);
        self.owner = Some(Rc::clone(owner));
    }

    /// Back to blank, keeping the buffers' capacity: what the pools do at release.
    #[inline]
    pub fn clear(&mut self) {
        self.data.clear();
        self.name.clear();
        self.owner = None;
    }
}

/// sharded-slab's `Clear` keeps the buffers' capacity. sharded-slab's `Pool` asks for no `Send`
/// or `Sync` to create, get and clear on one thread (only to be shared across threads), so the
/// `Rc` is kept for this peer too.
impl sharded_slab::Clear for Heavy {
    fn clear(&mut self) {
        Heavy::clear(self);
    }
}

/// lifeguard's `reset` keeps the buffers' capacity.
impl lifeguard::Recycleable for Heavy {
    fn new() -> Self {
        Self::default()
    }

    fn reset(&mut self) {
        self.clear();
    }
}
