//! A pool lent out through `&`: the [`Lender`] a pool gives one thread for leases.

use crate::pool::books::lend::BooksView;
use crate::pool::lease::Lease;
use crate::pool::one_thread::{Beside, ThisThreadOnly};
use crate::slot::occupancy::SetBits;
use crate::storage::Storage;
use crate::storage::view::{ChunkTable, ChunkView};
use crate::{Handle, Heap, PoolFull, Pooled, Stats, limits};
use core::cell::Cell;
use core::fmt;
use core::iter::{FusedIterator, Map};
use core::marker::PhantomData;
use core::ops::Index;
use core::slice;

/// A pool lent out to one thread: any number of [`Lease`]s at once, taken through `&Lender`,
/// from [`Pool::lender`](crate::Pool::lender).
///
/// A pool changes only through `&mut Pool`, so that it can be read from many threads at once
/// (it is `Sync` when its objects are). A lender holds that `&mut` for as long as it lives and
/// lends objects through `&self`: `acquire` and [`try_acquire`](Lender::try_acquire), each lease
/// given back, reset, when it drops. It reads the pool too: [`get`](Lender::get),
/// [`iter`](Lender::iter), [`stats`](Lender::stats)... while leases are out. It is neither `Send`
/// nor `Sync` ([`ThisThreadOnly`]): its leases stay on its thread. For a pool that threads lease from at once, use a
/// [`SyncPool`](crate::SyncPool) (`#[pool(size = N, sync)]`).
///
/// Code that leased through `&pool` moves to a lender with one line:
///
/// ```
/// use pooling::Pooled;
///
/// #[derive(Pooled)]
/// #[pool(size = 4)]
/// struct Scratch {
///     points: Vec<[f32; 3]>,
/// }
///
/// let mut pool = ScratchPool::new();
/// let pool = pool.lender(); // the one line
/// let mut visible = pool.acquire(|_| {})?;
/// let mut path = pool.acquire(|_| {})?;
/// visible.points.push([1.0, 0.0, 2.0]);
/// path.points.extend_from_slice(&visible.points);
/// assert_eq!(pool.stats().leased, 2);
/// # Ok::<(), pooling::PoolFull>(())
/// ```
///
/// Leases, [`into_handle`](Lease::into_handle), growth by `acquire` (on `on_full = grow` pools)
/// and inline slots built on first use work through the lender as they do through the pool.
pub struct Lender<'a, T: Pooled, S = <T as Pooled>::Strategy, B: Storage = Heap> {
    books: Beside<BooksView<'a, T, B>>,
    strategy: PhantomData<fn() -> S>,
    _thread: ThisThreadOnly,
}

impl<'a, T: Pooled, S, B: Storage> Lender<'a, T, S, B> {
    pub(crate) fn new(books: BooksView<'a, T, B>) -> Self {
        Self {
            books: Beside(books),
            strategy: PhantomData,
            _thread: ThisThreadOnly::new(),
        }
    }

    pub(crate) fn books(&self) -> &BooksView<'a, T, B> {
        &self.books
    }

    /// Lends a blank object, set up by `init`, if a slot is free: many leases can be out at
    /// once, and each gives its object back, reset, when it drops. See [`Lease`].
    ///
    /// It never panics, evicts or grows, whatever the strategy (an inline pool still builds a
    /// slot it has not built yet).
    ///
    /// `init` may reach the lender again: the slot it fills is counted as lent while it runs, so
    /// an `acquire` from `init` sees it in use. If `init`, or the reset before it, panics, the
    /// slot goes back to the free list and nothing is counted.
    ///
    /// ```
    /// # use pooling::Pooled;
    /// # #[derive(Pooled)]
    /// # #[pool(size = 2)]
    /// # struct Scratch { points: Vec<[f32; 3]> }
    /// let mut pool = ScratchPool::new();
    /// let pool = pool.lender();
    /// let mut a = pool.try_acquire(|_| {})?;
    /// let mut b = pool.try_acquire(|_| {})?;
    /// a.points.push([1.0; 3]);
    /// b.points.extend_from_slice(&a.points);
    /// assert!(pool.try_acquire(|_| {}).is_err()); // both slots are lent
    /// drop(a);
    /// assert!(pool.try_acquire(|_| {}).is_ok());
    /// # Ok::<(), pooling::PoolFull>(())
    /// ```
    ///
    /// # Errors
    /// [`PoolFull`] when no slot is free; `init` is not called and nothing changes but
    /// [`Stats::failed`].
    #[inline]
    pub fn try_acquire(&self, init: impl FnOnce(&mut T)) -> Result<Lease<'_, T>, PoolFull> {
        self.books.lend(None, init).ok_or_else(|| self.refuse())
    }

    /// The live object `handle` names, or `None` once it has been released, or if the handle is
    /// from another pool. Leased objects have no handle until
    /// [`into_handle`](Lease::into_handle).
    ///
    /// ```
    /// # use pooling::Pooled;
    /// # #[derive(Pooled)]
    /// # #[pool(size = 4)]
    /// # struct Request { body: Vec<u8> }
    /// let mut pool = RequestPool::new();
    /// let old = pool.create(|r| r.body.push(1))?;
    /// let pool = pool.lender();
    /// let lease = pool.acquire(|r| r.body.push(2))?;
    /// assert_eq!(pool.get(old).unwrap().body, [1]); // read beside the lease
    /// assert_eq!(lease.body, [2]);
    /// # Ok::<(), pooling::PoolFull>(())
    /// ```
    #[inline]
    pub fn get(&self, handle: Handle<T>) -> Option<&T> {
        self.books.get(handle)
    }

    /// Whether `handle` names a live object of the pool.
    ///
    /// ```
    /// # use pooling::Pooled;
    /// # #[derive(Pooled)]
    /// # #[pool(size = 4)]
    /// # struct Request { body: Vec<u8> }
    /// let mut pool = RequestPool::new();
    /// let pool = pool.lender();
    /// let kept = pool.acquire(|_| {})?.into_handle();
    /// assert!(pool.contains(kept));
    /// # Ok::<(), pooling::PoolFull>(())
    /// ```
    #[inline]
    pub fn contains(&self, handle: Handle<T>) -> bool {
        self.get(handle).is_some()
    }

    /// The live objects with their handles, in slot order; never a leased object.
    ///
    /// Leases may be taken, given back and turned into handles while it runs: it yields every
    /// object live when it started, and perhaps some made live since.
    ///
    /// ```
    /// # use pooling::Pooled;
    /// # #[derive(Pooled)]
    /// # #[pool(size = 8)]
    /// # struct Request { id: u32 }
    /// let mut pool = RequestPool::new();
    /// pool.create(|r| r.id = 1)?;
    /// let pool = pool.lender();
    /// let _lease = pool.acquire(|r| r.id = 2)?; // not live: not visited
    /// for (handle, request) in pool.iter() {
    ///     assert_eq!((handle.index(), request.id), (0, 1));
    /// }
    /// # Ok::<(), pooling::PoolFull>(())
    /// ```
    pub fn iter(&self) -> LenderIter<'_, T> {
        LenderIter {
            walk: LenderWalk::new(&self.books.0),
        }
    }

    /// The live objects without their handles, in slot order; never a leased object.
    ///
    /// ```
    /// # use pooling::Pooled;
    /// # #[derive(Pooled)]
    /// # #[pool(size = 8)]
    /// # struct Request { id: u32 }
    /// let mut pool = RequestPool::new();
    /// let pool = pool.lender();
    /// pool.acquire(|r| r.id = 3)?.into_handle();
    /// assert_eq!(pool.values().map(|r| r.id).sum::<u32>(), 3);
    /// # Ok::<(), pooling::PoolFull>(())
    /// ```
    pub fn values(&self) -> LenderValues<'_, T> {
        LenderValues {
            walk: LenderWalk::new(&self.books.0),
        }
    }

    /// The number of live objects; leased objects are counted apart, in [`Stats::leased`].
    ///
    /// ```
    /// # use pooling::Pooled;
    /// # #[derive(Pooled)]
    /// # #[pool(size = 2)]
    /// # struct Spark { heat: u32 }
    /// let mut pool = SparkPool::new();
    /// let pool = pool.lender();
    /// let _lease = pool.acquire(|_| {})?;
    /// assert_eq!((pool.len(), pool.stats().leased), (0, 1));
    /// # Ok::<(), pooling::PoolFull>(())
    /// ```
    #[inline]
    pub fn len(&self) -> usize {
        self.books.counts().live()
    }

    /// Whether no object is live.
    ///
    /// ```
    /// # use pooling::Pooled;
    /// # #[derive(Pooled)]
    /// # #[pool(size = 2)]
    /// # struct Spark { heat: u32 }
    /// let mut pool = SparkPool::new();
    /// assert!(pool.lender().is_empty());
    /// ```
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Whether no slot is free, so that [`try_acquire`](Lender::try_acquire) would fail.
    ///
    /// ```
    /// # use pooling::Pooled;
    /// # #[derive(Pooled)]
    /// # #[pool(size = 1)]
    /// # struct Spark { heat: u32 }
    /// let mut pool = SparkPool::new();
    /// let pool = pool.lender();
    /// let _lease = pool.acquire(|_| {})?;
    /// assert!(pool.is_full());
    /// # Ok::<(), pooling::PoolFull>(())
    /// ```
    #[inline]
    pub fn is_full(&self) -> bool {
        self.books.is_full()
    }

    /// The number of slots, live, lent or free (for an `on_full = grow` pool, what it holds
    /// now).
    ///
    /// ```
    /// # use pooling::Pooled;
    /// # #[derive(Pooled)]
    /// # #[pool(size = 2)]
    /// # struct Spark { heat: u32 }
    /// let mut pool = SparkPool::new();
    /// assert_eq!(pool.lender().capacity(), 2);
    /// ```
    #[inline]
    pub fn capacity(&self) -> usize {
        self.books.capacity()
    }

    /// Occupancy and traffic figures, as [`Pool::stats`](crate::Pool::stats) gives them.
    ///
    /// ```
    /// # use pooling::Pooled;
    /// # #[derive(Pooled)]
    /// # #[pool(size = 2)]
    /// # struct Spark { heat: u32 }
    /// let mut pool = SparkPool::new();
    /// let pool = pool.lender();
    /// drop(pool.acquire(|_| {})?);
    /// let stats = pool.stats();
    /// assert_eq!((stats.created, stats.released, stats.leased), (1, 1, 0));
    /// # Ok::<(), pooling::PoolFull>(())
    /// ```
    pub fn stats(&self) -> Stats {
        self.books.stats()
    }

    /// Counts a refusal, and the error saying so.
    #[cold]
    pub(crate) fn refuse(&self) -> PoolFull {
        self.books.fail();
        PoolFull::new(self.capacity())
    }

    /// Counts a refusal, and panics saying so.
    #[cold]
    #[track_caller]
    pub(crate) fn panic_full(&self) -> ! {
        self.books.fail();
        limits::panic_full(T::NAME, self.capacity(), self.books.counts().high_water());
    }
}

impl<'l, T: Pooled, S, B: Storage> IntoIterator for &'l Lender<'_, T, S, B> {
    type Item = (Handle<T>, &'l T);
    type IntoIter = LenderIter<'l, T>;

    fn into_iter(self) -> LenderIter<'l, T> {
        self.iter()
    }
}

/// `lender[handle]`: the live object `handle` names, as [`get`](Lender::get) returns it.
///
/// # Panics
/// When the handle is stale, or from another pool.
impl<T: Pooled, S, B: Storage> Index<Handle<T>> for Lender<'_, T, S, B> {
    type Output = T;

    #[inline]
    #[track_caller]
    fn index(&self, handle: Handle<T>) -> &T {
        match self.get(handle) {
            Some(object) => object,
            None => crate::pool::index::stale::<T>(handle),
        }
    }
}

/// Shows the [`Stats`] under the pool's name, not the objects.
impl<T: Pooled, S, B: Storage> fmt::Debug for Lender<'_, T, S, B> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.stats().debug_as(T::NAME, f)
    }
}

/// The set bits of a chunk seen through a lender, each word read when the walk reaches it.
type ViewBits<'l> = SetBits<Map<slice::Iter<'l, Cell<u64>>, fn(&Cell<u64>) -> u64>>;

/// The live slots of a lender's chunks: each chunk, and each word of bits, read when the walk
/// reaches it, so that slots made live (or built, or grown) ahead of the walk are seen.
struct LenderWalk<'l, T> {
    table: &'l dyn ChunkTable<'l, T>,
    /// The index in `table` of the next chunk.
    next: usize,
    chunk: Option<(ChunkView<'l, T>, ViewBits<'l>)>,
}

impl<'l, T> LenderWalk<'l, T> {
    fn new(table: &'l dyn ChunkTable<'l, T>) -> Self {
        Self {
            table,
            next: 0,
            chunk: None,
        }
    }

    /// The word and object of the next live slot.
    fn next(&mut self) -> Option<(u64, &'l T)> {
        loop {
            if let Some((chunk, bits)) = &mut self.chunk {
                for local in bits.by_ref() {
                    if let Some(found) = chunk.live(local) {
                        return Some(found);
                    }
                }
            }
            let chunk = loop {
                if self.next >= self.table.places() {
                    return None;
                }
                self.next += 1;
                if let Some(chunk) = self.table.chunk(self.next - 1) {
                    break chunk;
                }
            };
            let get: fn(&Cell<u64>) -> u64 = Cell::get;
            let bits = SetBits::new(chunk.places().bits().iter().map(get));
            self.chunk = Some((chunk, bits));
        }
    }
}

/// The live objects of a pool with their handles, through its [`Lender`]; see
/// [`Lender::iter`].
pub struct LenderIter<'l, T> {
    walk: LenderWalk<'l, T>,
}

impl<'l, T> Iterator for LenderIter<'l, T> {
    type Item = (Handle<T>, &'l T);

    #[inline]
    fn next(&mut self) -> Option<Self::Item> {
        let (word, object) = self.walk.next()?;
        Some((Handle::from_live_word(word), object))
    }
}

impl<T> FusedIterator for LenderIter<'_, T> {}

/// The live objects of a pool, through its [`Lender`]; see [`Lender::values`].
pub struct LenderValues<'l, T> {
    walk: LenderWalk<'l, T>,
}

impl<'l, T> Iterator for LenderValues<'l, T> {
    type Item = &'l T;

    #[inline]
    fn next(&mut self) -> Option<&'l T> {
        Some(self.walk.next()?.1)
    }
}

impl<T> FusedIterator for LenderValues<'_, T> {}
