//! The heavy-reuse workload's peers: what each does to acquire one object, fill it and give it
//! back.

use crate::particle::{Heavy, HeavyPool, Owner};
use pooling::{Handle, Lease, Lender};
use slotmap::{DefaultKey, DenseSlotMap, SlotMap};
use std::rc::Rc;

/// A peer of the heavy-reuse workload.
pub trait Reuse {
    /// The name in benchmark ids, tables and failed checks.
    const NAME: &'static str;
    /// What the caller holds while the object is out: a key, a handle, a guard or the object.
    type Held;
    /// Acquires an object and fills it (`Heavy::fill`).
    fn acquire(&mut self, name: &'static str, owner: &Rc<Owner>) -> Self::Held;
    /// Gives the object back (reset, or dropped).
    fn release(&mut self, held: Self::Held);
}

impl Reuse for HeavyPool {
    const NAME: &'static str = "pooling";
    type Held = Handle<Heavy>;
    #[inline]
    fn acquire(&mut self, name: &'static str, owner: &Rc<Owner>) -> Self::Held {
        self.create(|h| h.fill(name, owner)).unwrap()
    }
    #[inline]
    fn release(&mut self, held: Self::Held) {
        HeavyPool::release(self, held).unwrap();
    }
}

/// Each lease, taken through the pool's lender, gives its object back, reset, as it drops.
impl<'p> Reuse for &'p Lender<'p, Heavy> {
    const NAME: &'static str = "pooling_lease";
    type Held = Lease<'p, Heavy>;
    #[inline]
    fn acquire(&mut self, name: &'static str, owner: &Rc<Owner>) -> Self::Held {
        let pool: &'p Lender<'p, Heavy> = self;
        pool.acquire(|h| h.fill(name, owner)).unwrap()
    }
    #[inline]
    fn release(&mut self, held: Self::Held) {
        drop(held);
    }
}

/// Fresh allocation: a new `Box` with new, empty buffers every time, all dropped at release.
pub struct Fresh;

impl Reuse for Fresh {
    const NAME: &'static str = "box";
    type Held = Box<Heavy>;
    #[inline]
    fn acquire(&mut self, name: &'static str, owner: &Rc<Owner>) -> Self::Held {
        let mut object = Box::new(Heavy::default());
        object.fill(name, owner);
        object
    }
    #[inline]
    fn release(&mut self, held: Self::Held) {
        drop(held);
    }
}

/// `Clear` empties the buffers, keeping their capacity, and lets the owner go. sharded-slab's
/// `Pool` asks for no `Send` or `Sync` to be used from one thread, so the `Rc` is kept.
impl Reuse for sharded_slab::Pool<Heavy> {
    const NAME: &'static str = "sharded_slab";
    type Held = usize;
    #[inline]
    fn acquire(&mut self, name: &'static str, owner: &Rc<Owner>) -> Self::Held {
        self.create_with(|h| h.fill(name, owner)).unwrap()
    }
    #[inline]
    fn release(&mut self, held: Self::Held) {
        assert!(self.clear(held));
    }
}

/// Each guard resets its object (`Recycleable::reset`, keeping capacity) as it drops.
impl<'p> Reuse for &'p lifeguard::Pool<Heavy> {
    const NAME: &'static str = "lifeguard";
    type Held = lifeguard::Recycled<'p, Heavy>;
    #[inline]
    fn acquire(&mut self, name: &'static str, owner: &Rc<Owner>) -> Self::Held {
        let pool: &'p lifeguard::Pool<Heavy> = self;
        let mut object = pool.new();
        object.fill(name, owner);
        object
    }
    #[inline]
    fn release(&mut self, held: Self::Held) {
        drop(held);
    }
}

/// object-pool does not reset: a dropped guard puts its object back as it is, buffers full and
/// owner held. To be equivalent, the peer clears each object itself before giving it back.
impl<'p> Reuse for &'p object_pool::Pool<Heavy> {
    const NAME: &'static str = "object_pool";
    type Held = object_pool::Reusable<'p, Heavy>;
    #[inline]
    fn acquire(&mut self, name: &'static str, owner: &Rc<Owner>) -> Self::Held {
        let pool: &'p object_pool::Pool<Heavy> = self;
        let mut object = pool.try_pull().unwrap();
        object.fill(name, owner);
        object
    }
    #[inline]
    fn release(&mut self, mut held: Self::Held) {
        held.clear();
    }
}

/// A container of values as a user keeps one to reuse heavy objects: the objects it removes,
/// cleared (keeping their buffers' capacity), wait in `spare` for the next insert, so that after
/// the first round no buffer is allocated and the figure is the container's, not the allocator's.
pub struct Recycling<C> {
    container: C,
    spare: Vec<Heavy>,
}

impl<C> Recycling<C> {
    /// `container`, with room for `held` spare objects.
    pub fn new(container: C, held: usize) -> Self {
        Self {
            container,
            spare: Vec::with_capacity(held),
        }
    }
}

/// Each acquire inserts a spare object (a new one while there is none), filled; each release
/// removes the object, clears it and keeps it for the next acquire.
macro_rules! recycling {
    ($type:ty, $name:literal, $key:ty, |$removed:ident| $object:expr) => {
        impl Reuse for Recycling<$type> {
            const NAME: &'static str = $name;
            type Held = $key;
            #[inline]
            fn acquire(&mut self, name: &'static str, owner: &Rc<Owner>) -> Self::Held {
                let mut object = self.spare.pop().unwrap_or_default();
                object.fill(name, owner);
                self.container.insert(object)
            }
            #[inline]
            fn release(&mut self, held: Self::Held) {
                let $removed = self.container.remove(held);
                let mut object: Heavy = $object;
                object.clear();
                self.spare.push(object);
            }
        }
    };
}

recycling!(slab::Slab<Heavy>, "slab", usize, |removed| removed);
recycling!(SlotMap<DefaultKey, Heavy>, "slotmap", DefaultKey, |removed| removed.unwrap());
recycling!(DenseSlotMap<DefaultKey, Heavy>, "dense_slotmap", DefaultKey, |removed| removed.unwrap());
