//! The pool: the struct and its constructors. What it does is in `api` (one object at a time),
//! `scan` (every live object) and `engine` (the slot engine under both).

mod api;
pub(crate) mod books;
mod clone;
mod disjoint;
pub mod groups;
pub(crate) mod index;
pub(crate) mod iter;
pub(crate) mod lease;
pub(crate) mod lender;
pub(crate) mod one_thread;
#[cfg(feature = "rayon")]
pub(crate) mod par;
pub(crate) mod runs;
mod scan;
#[cfg(feature = "serde")]
mod serde;
pub(crate) mod stats;

use crate::Pooled;
use crate::limits;
use crate::pool::books::Books;
use crate::pool::lender::Lender;
use crate::storage::{Heap, Inline, Storage};
#[cfg(feature = "alloc")]
use alloc::boxed::Box;
use core::fmt;
use core::marker::PhantomData;
use core::mem::MaybeUninit;

/// A fixed number of `T`s, handed out by [`Handle`](crate::Handle), with `S` saying what a full
/// pool does and `B` where the objects live: built up front on the heap ([`Heap`], the default:
/// four allocations, none after unless it grows), or inside the pool itself ([`Inline`], for code without an allocator).
///
/// `#[derive(Pooled)]` names it for the struct: `ParticlePool` is `Pool<Particle>`, and `S`
/// defaults to the struct's own strategy, from `#[pool(on_full = ...)]`: [`Fail`](crate::Fail),
/// [`Panic`](crate::Panic), [`Evict`](crate::Evict) or [`Grow`](crate::Grow). The methods
/// every pool has are here; each strategy adds its own `create` (and `acquire`, `victim`,
/// `shrink` where they apply). Generic code takes any pool:
///
/// ```
/// use pooling::{Pool, Pooled};
///
/// #[derive(Pooled)]
/// #[pool(size = 256)]
/// struct Particle {
///     frames_left: u32,
///     x: f64,
/// }
///
/// /// Ages every particle, releasing the ones whose time is up: for any strategy.
/// fn age<T: Pooled, S>(pool: &mut Pool<T, S>, alive: impl FnMut(&mut T) -> bool) {
///     pool.retain(alive);
/// }
///
/// let mut pool = ParticlePool::new();
/// let p = pool.create(|p| {
///     p.frames_left = 2;
///     p.x = 10.0;
/// })?;
/// assert_eq!(pool.get(p).map(|p| p.x), Some(10.0));
/// for _frame in 0..2 {
///     age(&mut pool, |p| {
///         p.frames_left -= 1;
///         p.frames_left > 0
///     });
/// }
/// assert!(pool.is_empty());
/// assert!(pool.get(p).is_none());
/// # Ok::<(), pooling::PoolFull>(())
/// ```
///
/// Creating and releasing objects is O(1) and never allocates (unless a [`Grow`](crate::Grow)
/// pool grows): free slots are threaded into a list, and a slot's object is reset in place
/// when released. Iteration visits live objects only, skipping free slots 64 at a time.
///
/// # Leases and threads
///
/// A pool changes only through `&mut self`, so it can be read from many threads at once: it is
/// [`Send`] when `T` is and [`Sync`] when `T` is, by the compiler's own rules (no atomics, no
/// lock), as slotmap's `SlotMap` is. It fits an `Arc<RwLock<_>>`, a `static`
/// `LazyLock<RwLock<_>>` or a Bevy `Resource`: readers share it, a writer takes it whole.
///
/// To lend objects for a scope, take a [`Lender`] from [`lender`](Pool::lender): it holds the
/// pool's `&mut` and lends through `&self`, any number of [`Lease`](crate::Lease)s at once, on
/// one thread. For a pool whose `create`, `release` and leases threads use at once, use a
/// [`SyncPool`](crate::SyncPool) (`#[pool(size = N, sync)]`).
///
/// Code generic over the storage too names [`Storage`] as a bound:
/// `fn f<T: Pooled, S, B: Storage>(pool: &mut Pool<T, S, B>)`.
pub struct Pool<T: Pooled, S = <T as Pooled>::Strategy, B: Storage = Heap> {
    books: Books<T, B>,
    strategy: PhantomData<fn() -> S>,
}

#[cfg(feature = "alloc")]
impl<T: Pooled, S> Pool<T, S, Heap> {
    /// Builds a pool of `T::SIZE` blank objects (the `size` of `#[pool(size = N)]`).
    ///
    /// It allocates its objects side by side, and apart from them each slot's word (8 bytes)
    /// and occupancy bit: nothing after that, until it grows.
    ///
    /// ```
    /// use pooling::{Pool, Pooled};
    ///
    /// #[derive(Pooled)]
    /// #[pool(size = 256)]
    /// struct Particle {
    ///     frames_left: u32,
    /// }
    ///
    /// let pool = ParticlePool::new(); // the same as `Pool::<Particle>::new()`
    /// assert_eq!(pool.capacity(), 256);
    /// assert!(pool.is_empty());
    /// let same: Pool<Particle> = pool;
    /// # drop(same);
    /// ```
    ///
    /// # Panics
    /// If `T::SIZE` exceeds [`MAX_CAPACITY`](Pool::MAX_CAPACITY).
    pub fn new() -> Self {
        Self::with_capacity(T::SIZE)
    }

    /// Builds a pool of `capacity` blank objects, for a scene that needs another size than
    /// `#[pool(size = N)]`. A [`Grow`](crate::Grow) pool still grows up to its `max`, or stays
    /// at `capacity` if that is larger, and its `shrink` gives back what it grew beyond
    /// `capacity`.
    ///
    /// ```
    /// # use pooling::Pooled;
    /// # #[derive(Pooled)]
    /// # #[pool(size = 256)]
    /// # struct Particle { frames_left: u32 }
    /// let sparse_level = ParticlePool::with_capacity(64);
    /// assert_eq!(sparse_level.capacity(), 64);
    /// ```
    ///
    /// # Panics
    /// If `capacity` exceeds [`MAX_CAPACITY`](Pool::MAX_CAPACITY).
    pub fn with_capacity(capacity: usize) -> Self {
        limits::check_capacity(capacity);
        Self::from_books(Books::with_capacity(capacity))
    }
}

impl<T: Pooled, S, const N: usize, const W: usize> Pool<T, S, Inline<N, W>> {
    /// An inline pool of `N` slots, none built yet: `const`, so that it can initialise a
    /// `static`, and free of any allocation. Each slot's blank object is built the first time
    /// the slot is needed, by a `create` or `acquire` that finds no slot free; call
    /// [`prefill`](Pool::prefill) to build them all now.
    ///
    /// ```
    /// use pooling::Pooled;
    /// use std::sync::Mutex;
    ///
    /// #[derive(Pooled)]
    /// #[pool(size = 8, storage = inline)]
    /// struct Packet {
    ///     len: u16,
    ///     bytes: [u8; 64],
    /// }
    ///
    /// // `create` and `release` take `&mut self`: a `static` pool sits behind a lock.
    /// static PACKETS: Mutex<PacketPool> = Mutex::new(PacketPool::new());
    ///
    /// let mut pool = PACKETS.lock().unwrap();
    /// let p = pool.create(|p| p.len = 3)?;
    /// assert_eq!(pool[p].len, 3);
    /// assert_eq!(pool.capacity(), 8);
    /// assert_eq!(pool.len(), 1);
    /// # Ok::<(), pooling::PoolFull>(())
    /// ```
    ///
    /// The pool is written in place and returned: building it takes at most twice its size of
    /// stack, none in a `static`; [`new_boxed`](Self::new_boxed) takes none (see [`Inline`]'s
    /// "Large pools").
    ///
    /// A hand-written `Inline<N, W>` whose `W` is not `N.div_ceil(64)`, or an `N` past
    /// [`MAX_CAPACITY`](Pool::MAX_CAPACITY), fails to compile.
    pub const fn new() -> Self {
        let mut pool = MaybeUninit::uninit();
        // SAFETY: a local's place is valid for writes.
        unsafe { Self::write_new(pool.as_mut_ptr()) };
        // SAFETY: `write_new` wrote the pool whole. Read out rather than `assume_init`, which
        // a debug build copies once more on the way.
        unsafe { pool.as_ptr().read() }
    }

    /// [`new`](Self::new), built straight into a box: no stack of the pool's size at all,
    /// where `Box::new(Pool::new())` passes the pool through the stack (twice its size in a
    /// debug build, once in a release build). For an inline pool too large for a thread's
    /// stack, where an allocator is (the way to a `static` is [`new`](Self::new), which is
    /// `const`).
    ///
    /// ```
    /// use pooling::Pooled;
    ///
    /// #[derive(Pooled)]
    /// # /* Under Miri, 64 objects: it builds each one slowly.
    /// #[pool(size = 8192, storage = inline)]
    /// # */
    /// # #[cfg_attr(not(miri), pool(size = 8192, storage = inline))]
    /// # #[cfg_attr(miri, pool(size = 64, storage = inline))]
    /// struct Body {
    ///     position: [f64; 3],
    ///     velocity: [f64; 3],
    /// }
    ///
    /// // 480 KiB of objects and books, none of it on the stack of this 64 KiB thread.
    /// let mut bodies = std::thread::Builder::new()
    ///     .stack_size(64 * 1024)
    ///     .spawn(BodyPool::new_boxed)?
    ///     .join()
    ///     .unwrap();
    /// let b = bodies.create(|b| b.velocity[0] = 1.0)?;
    /// assert_eq!((bodies[b].velocity[0], bodies.capacity()), (1.0, Body::SIZE));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[cfg(feature = "alloc")]
    #[must_use]
    pub fn new_boxed() -> Box<Self> {
        let mut pool = Box::<Self>::new_uninit();
        // SAFETY: a box's place is valid for writes.
        unsafe { Self::write_new(pool.as_mut_ptr()) };
        // SAFETY: `write_new` wrote the pool whole.
        unsafe { pool.assume_init() }
    }

    /// Writes what [`new`](Self::new) makes at `this`, in place: the slots and books are
    /// written where they lie, never passed through the stack.
    ///
    /// # Safety
    /// `this` is valid for writes and aligned; what it held is overwritten, not dropped.
    pub(crate) const unsafe fn write_new(this: *mut Self) {
        const {
            assert!(
                N <= limits::MAX_CAPACITY,
                "`Inline<N, W>`: a pool holds at most `Pool::MAX_CAPACITY` objects"
            );
        }
        // SAFETY: `this` is valid for writes (the caller's contract): the address of a field
        // makes no reference to it.
        let books = unsafe { &raw mut (*this).books };
        // SAFETY: the books are valid for writes, inside `this`; `strategy` has no bytes.
        unsafe { Books::write_inline(books) };
    }

    /// Builds the blank object of every slot not built yet, so that no later `create` or
    /// `acquire` runs `T`'s blank code: the "everything built up front" of a heap pool, for an
    /// inline pool that wants it (before a frame that must not run `Default`s). Slots are
    /// taken in index order after, as a heap pool's are.
    ///
    /// ```
    /// # use pooling::Pooled;
    /// # #[derive(Pooled)]
    /// # #[pool(size = 4, storage = inline)]
    /// # struct Packet { len: u16 }
    /// let mut pool = PacketPool::new();
    /// pool.prefill();
    /// let first = pool.create(|_| {})?;
    /// assert_eq!(first.index(), 0);
    /// # Ok::<(), pooling::PoolFull>(())
    /// ```
    ///
    /// # Panics
    /// When a blank object's code (a field's `Default`) panics, after the slots built before
    /// it are in the pool, free; or when that code reaches this pool.
    pub fn prefill(&mut self) {
        self.books.prefill();
    }
}

#[cfg(feature = "alloc")]
impl<T: Pooled, S> Default for Pool<T, S, Heap> {
    fn default() -> Self {
        Self::new()
    }
}

impl<T: Pooled, S, const N: usize, const W: usize> Default for Pool<T, S, Inline<N, W>> {
    fn default() -> Self {
        Self::new()
    }
}

impl<T: Pooled, S, B: Storage> Pool<T, S, B> {
    pub(crate) const fn from_books(books: Books<T, B>) -> Self {
        Self {
            books,
            strategy: PhantomData,
        }
    }

    pub(crate) fn books(&self) -> &Books<T, B> {
        &self.books
    }

    pub(crate) fn books_mut(&mut self) -> &mut Books<T, B> {
        &mut self.books
    }

    /// A view of the pool that lends objects through `&self`, on this thread: any number of
    /// [`Lease`](crate::Lease)s at once (see [`Lender`]). The pool is borrowed mutably while
    /// the lender lives; everything the leases did is in the pool after.
    ///
    /// ```
    /// # use pooling::Pooled;
    /// # #[derive(Pooled)]
    /// # #[pool(size = 4)]
    /// # struct Scratch { points: Vec<[f32; 3]> }
    /// let mut pool = ScratchPool::new();
    /// for _frame in 0..3 {
    ///     let scratch = pool.lender();
    ///     let mut visible = scratch.acquire(|_| {})?;
    ///     let mut path = scratch.acquire(|_| {})?;
    ///     visible.points.push([1.0, 0.0, 2.0]);
    ///     path.points.extend_from_slice(&visible.points);
    /// } // both given back each frame, cleared, keeping their capacity
    /// assert_eq!(pool.stats().created, 6);
    /// assert_eq!(pool.stats().leased, 0);
    /// # Ok::<(), pooling::PoolFull>(())
    /// ```
    #[doc(alias = "borrow", alias = "lend")]
    pub fn lender(&mut self) -> Lender<'_, T, S, B> {
        Lender::new(self.books.view())
    }
}

/// Shows the [`Stats`](crate::Stats) under the pool's name, not the objects.
impl<T: Pooled, S, B: Storage> fmt::Debug for Pool<T, S, B> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.stats().debug_as(T::NAME, f)
    }
}
