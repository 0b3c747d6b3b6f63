//! Pools whose objects live as columns: `#[pool(size = N, layout = columns)]` keeps each field
//! of the struct in an array of its own, behind the same handles, strategies and books as a
//! [`Pool`](crate::Pool). The books are a pool of [`Row`]s (objects of no size, one a slot);
//! the rows are kept by the storage (`ColumnStorage`): a `ColumnSet` of vectors for each chunk
//! of a heap pool, an array of each field inside an inline pool, both over the struct's fields
//! as a list; the derive names the list's parts in the row views it generates, the only code
//! that knows the fields.

mod api;
#[cfg(all(test, feature = "std"))]
mod build_tests;
#[cfg(feature = "alloc")]
#[allow(
    private_interfaces,
    reason = "`ColumnStore` is implemented by this crate alone"
)]
mod chunks;
mod clone;
mod evict;
mod fields;
mod lease;
mod lend;
mod lender;
#[cfg(feature = "rayon")]
mod par;
mod rows;
mod runs;
#[cfg(all(feature = "serde", feature = "alloc"))]
mod save;
mod scan;
#[cfg(feature = "alloc")]
mod set;
// The `ColumnStore` trait is reachable, through `ColumnStorage`'s associated type, so its
// methods' crate-private types are flagged; no one outside the crate can implement it.
#[allow(
    private_interfaces,
    private_bounds,
    unreachable_pub,
    reason = "`ColumnStore` is implemented by this crate alone"
)]
mod store;
mod strategy;
#[cfg(all(test, feature = "alloc"))]
mod tests;

pub use evict::ColumnEvictable;
pub use fields::{CloneFields, ColumnFields};
pub use lease::ColumnLease;
pub use lender::{ColumnLender, ColumnLenderIter, ColumnLenderValues};
pub use runs::{ColumnGroupsMut, ColumnRuns, ColumnRunsMut};
#[cfg(all(feature = "serde", feature = "alloc"))]
pub use save::{LoadFields, SaveFields};
pub use scan::{ColumnIter, ColumnIterMut, ColumnValues, ColumnValuesMut};
pub use store::ColumnStorage;
#[doc(hidden)]
pub use store::ColumnStore;

use crate::{Handle, Heap, Inline, Pool, PoolToken, Pooled};
#[cfg(feature = "alloc")]
use alloc::boxed::Box;
use core::fmt;
use core::marker::PhantomData;
use core::mem::MaybeUninit;
use store::InlineColumns;

/// A struct kept as columns: what `#[derive(Pooled)]` implements for a struct with
/// `#[pool(size = N, layout = columns)]`, with the row views it generates (`ParticleRef`,
/// `ParticleMut`, `ParticleSlices`, `ParticleSlicesMut` for `Particle`). The pool keeps the
/// columns and calls the methods; user code has no reason to.
pub trait Columnar: Sized {
    /// The number of slots [`ColumnPool::new`] builds, from `#[pool(size = N)]`.
    const SIZE: usize;
    /// The pool's name, for messages and `Debug`.
    const NAME: &'static str;
    /// Whether [`reset_at_release`](Columnar::reset_at_release) does anything: false when
    /// every field is plain data with no `reset_with` function, so that a release touches no
    /// column.
    const RESETS_AT_RELEASE: bool;
    /// What a full pool does, from `#[pool(on_full = ...)]`.
    type Strategy;
    /// The fields, as a list (`(A, (B, ()))`), each kept in a column of its own.
    type Fields: ColumnFields;
    /// A live object's fields, shared: a reference to each.
    type Ref<'a>
    where
        Self: 'a;
    /// A live object's fields, mutably: a mutable reference to each.
    type Mut<'a>
    where
        Self: 'a;
    /// Consecutive objects' fields: a slice of each column.
    type Slices<'a>
    where
        Self: 'a;
    /// Consecutive objects' fields, mutably: a mutable slice of each column.
    type SlicesMut<'a>
    where
        Self: 'a;

    /// A blank row: each field as a struct's blank object would have it.
    fn blank(token: PoolToken<'_, Self>) -> Self::Fields;
    /// A row's references, named.
    fn row<'a>(fields: <Self::Fields as ColumnFields>::Ref<'a>) -> Self::Ref<'a>
    where
        Self: 'a;
    /// A row's mutable references, named.
    fn row_mut<'a>(fields: <Self::Fields as ColumnFields>::Mut<'a>) -> Self::Mut<'a>
    where
        Self: 'a;
    /// A run's slices, named.
    fn slices<'a>(fields: <Self::Fields as ColumnFields>::Slices<'a>) -> Self::Slices<'a>
    where
        Self: 'a;
    /// A run's mutable slices, named.
    fn slices_mut<'a>(fields: <Self::Fields as ColumnFields>::SlicesMut<'a>) -> Self::SlicesMut<'a>
    where
        Self: 'a;
    /// Resets the fields that own something. Runs when the object is released.
    fn reset_at_release(row: Self::Mut<'_>);
    /// Resets the plain-data fields. Runs when the slot is reused, before `init`.
    fn reset_at_reuse(row: &mut Self::Mut<'_>);
}

/// A slot of a column pool's books: no object of its own, as the columns hold its fields.
pub(crate) struct Row<P>(PhantomData<fn() -> P>);

impl<P: Columnar> Pooled for Row<P> {
    const SIZE: usize = P::SIZE;
    const NAME: &'static str = P::NAME;
    const RESETS_AT_RELEASE: bool = false;
    type Strategy = P::Strategy;

    #[inline]
    fn blank(_: PoolToken<'_, Self>) -> Self {
        Row(PhantomData)
    }

    #[inline]
    fn reset_at_release(&mut self) {}

    #[inline]
    fn reset_at_reuse(&mut self) {}
}

/// A pool of `P`s kept as columns: each field in an array of its own, so that a kernel over a
/// few fields of many objects streams only those, and the compiler vectorizes it across
/// objects. `#[derive(Pooled)]` with `#[pool(size = N, layout = columns)]` names it for the
/// struct: `ParticlePool` is `ColumnPool<Particle>`.
///
/// It is a [`Pool`] in all but the objects' layout: the same [`Handle`]s (a `Handle<Particle>`,
/// checked by version), strategies, [`Stats`](crate::Stats), field resets and attributes. Where
/// a `Pool` hands out `&Particle`, it hands out a row: `ParticleRef<'_>` (a reference to each
/// field), `ParticleMut<'_>` (a mutable reference to each), and for kernels, runs of
/// consecutive live objects as `ParticleSlicesMut<'_>` (a slice of each column). Its third
/// parameter is where the rows live: [`Heap`] (a vector for each field, for each chunk of
/// slots) or, with `storage = inline`, [`Inline`] (an array of each field inside the pool).
///
/// ```
/// use pooling::Pooled;
///
/// #[derive(Pooled)]
/// #[pool(size = 256, layout = columns)]
/// struct Particle {
///     x: f32,
///     vx: f32,
///     trail: Vec<(f32, f32)>,
/// }
///
/// let mut pool = ParticlePool::new();
/// let p = pool.create(|p| *p.vx = 2.0)?;
/// for run in pool.runs_mut() {
///     // A slice of each column: the loop the compiler vectorizes.
///     for (x, vx) in run.x.iter_mut().zip(run.vx.iter()) {
///         *x += vx * 0.5;
///     }
/// }
/// assert_eq!(*pool.get(p).unwrap().x, 1.0);
/// pool.get_mut(p).unwrap().trail.push((1.0, 0.0));
/// pool.release(p)?; // `trail` cleared, its buffer kept
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub struct ColumnPool<P: Columnar, S = <P as Columnar>::Strategy, B: ColumnStorage = Heap> {
    keys: Pool<Row<P>, S, B>,
    /// A row for each slot of the books: a set of columns for each of their chunks (heap), or
    /// an array for each field (inline).
    columns: B::Columns<P::Fields>,
}

#[cfg(feature = "alloc")]
impl<P: Columnar, S> ColumnPool<P, S> {
    /// Builds a pool of `P::SIZE` blank objects (the `size` of `#[pool(size = N)]`): one
    /// allocation per column, and the slots' words and occupancy bits apart.
    ///
    /// ```
    /// # use pooling::Pooled;
    /// # #[derive(Pooled)]
    /// # #[pool(size = 256, layout = columns)]
    /// # struct Particle { x: f32 }
    /// let pool = ParticlePool::new();
    /// assert_eq!(pool.capacity(), 256);
    /// ```
    ///
    /// # Panics
    /// If `P::SIZE` exceeds [`Pool::MAX_CAPACITY`], or the columns cannot be allocated.
    #[must_use]
    pub fn new() -> Self {
        Self::with_capacity(P::SIZE)
    }

    /// Builds a pool of `capacity` blank objects, whatever `#[pool(size = N)]` says.
    ///
    /// ```
    /// # use pooling::Pooled;
    /// # #[derive(Pooled)]
    /// # #[pool(size = 256, layout = columns)]
    /// # struct Particle { x: f32 }
    /// let capacity = 10_000;
    /// # let capacity = if cfg!(miri) { 300 } else { capacity }; // Miri builds rows slowly.
    /// let pool = ParticlePool::with_capacity(capacity);
    /// assert_eq!(pool.capacity(), capacity);
    /// ```
    ///
    /// # Panics
    /// If `capacity` is 0 or exceeds [`Pool::MAX_CAPACITY`].
    #[must_use]
    pub fn with_capacity(capacity: usize) -> Self {
        Self::with_keys(Pool::with_capacity(capacity))
    }

    /// Rows for every chunk the books have, after they grew or shrank.
    fn fit_columns(&mut self) {
        let chunks = (self.keys.books().chunks()).map(|chunk| (chunk.base, chunk.objects.len()));
        self.columns.fit(chunks, || P::blank(token()));
    }
}

impl<P: Columnar, S, const N: usize, const W: usize> ColumnPool<P, S, Inline<N, W>> {
    /// Builds an inline pool of `N` blank objects: an array of `N` for each field, inside the
    /// pool, and no allocation (`#[pool(size = N, storage = inline, layout = columns)]`).
    /// Unlike an inline [`Pool`]'s, every row is built here, a row at a time, in place, and the
    /// pool returned: building takes at most twice the pool's size of stack;
    /// [`new_boxed`](Self::new_boxed) takes none (see [`Inline`]'s "Large pools").
    ///
    /// ```
    /// # use pooling::Pooled;
    /// # #[derive(Pooled)]
    /// # #[pool(size = 32, storage = inline, layout = columns)]
    /// # struct Sensor { reading: i16, samples: u32 }
    /// let mut sensors = SensorPool::new();
    /// let s = sensors.create(|s| *s.reading = -4)?;
    /// assert_eq!((*sensors.get(s).unwrap().reading, sensors.capacity()), (-4, 32));
    /// # Ok::<(), pooling::PoolFull>(())
    /// ```
    ///
    /// # Panics
    /// When a blank row's code (a field's `Default`) panics, after dropping the rows built
    /// before it.
    #[must_use]
    pub fn new() -> Self {
        let mut pool = MaybeUninit::uninit();
        // SAFETY: a local's place is valid for writes.
        unsafe { Self::write_new(pool.as_mut_ptr()) };
        // SAFETY: `write_new` wrote the pool whole. Read out rather than `assume_init`, which
        // a debug build copies once more on the way.
        unsafe { pool.as_ptr().read() }
    }

    /// [`new`](Self::new), built straight into a box, a row at a time: no stack of the pool's
    /// size at all, where `Box::new(SensorPool::new())` passes the pool through the stack.
    /// For an inline pool too large for a thread's stack that an allocator may hold.
    ///
    /// ```
    /// use pooling::{Columnar, Pooled};
    ///
    /// #[derive(Pooled)]
    /// # /* Under Miri, 64 rows: it builds each one slowly.
    /// #[pool(size = 8192, storage = inline, layout = columns)]
    /// # */
    /// # #[cfg_attr(not(miri), pool(size = 8192, storage = inline, layout = columns))]
    /// # #[cfg_attr(miri, pool(size = 64, storage = inline, layout = columns))]
    /// struct Body {
    ///     x: f64,
    ///     vx: f64,
    ///     mass: f32,
    /// }
    ///
    /// // 256 KiB of columns and books, none of it on the stack of this 64 KiB thread.
    /// let mut bodies = std::thread::Builder::new()
    ///     .stack_size(64 * 1024)
    ///     .spawn(BodyPool::new_boxed)?
    ///     .join()
    ///     .unwrap();
    /// let b = bodies.create(|b| *b.vx = 1.0)?;
    /// assert_eq!((*bodies.get(b).unwrap().vx, bodies.capacity()), (1.0, Body::SIZE));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    ///
    /// # Panics
    /// As [`new`](Self::new).
    #[cfg(feature = "alloc")]
    #[must_use]
    pub fn new_boxed() -> Box<Self> {
        let mut pool = Box::<Self>::new_uninit();
        // SAFETY: a box's place is valid for writes.
        unsafe { Self::write_new(pool.as_mut_ptr()) };
        // SAFETY: `write_new` wrote the pool whole.
        unsafe { pool.assume_init() }
    }

    /// Writes what [`new`](Self::new) makes at `this`, in place. If a blank row's code
    /// panics, `this` holds nothing.
    ///
    /// # Safety
    /// `this` is valid for writes and aligned; what it held is overwritten, not dropped.
    unsafe fn write_new(this: *mut Self) {
        // SAFETY: `this` is valid for writes (the caller's contract): the address of a field
        // makes no reference to it.
        let columns = unsafe { &raw mut (*this).columns };
        // SAFETY: as for the columns.
        let keys = unsafe { &raw mut (*this).keys };
        // SAFETY: the columns' place is valid for writes, inside `this`. First, as the one
        // part that may panic: the keys hold nothing yet.
        unsafe { InlineColumns::write_blank::<P>(columns) };
        // SAFETY: as for the columns.
        unsafe { Pool::write_new(keys) };
    }
}

impl<P: Columnar, S, B: ColumnStorage> ColumnPool<P, S, B> {
    /// The pool of books `keys`, and a blank row for each of their slots.
    #[cfg(feature = "alloc")]
    fn with_keys(keys: Pool<Row<P>, S, B>) -> Self {
        let columns = Self::blank_columns(&keys);
        Self { keys, columns }
    }

    /// A row for every slot of `keys`, and nothing in them but blank objects.
    fn blank_columns(keys: &Pool<Row<P>, S, B>) -> B::Columns<P::Fields> {
        let chunks = (keys.books().chunks()).map(|chunk| (chunk.base, chunk.objects.len()));
        ColumnStore::blank::<P>(chunks)
    }
}

#[cfg(feature = "alloc")]
impl<P: Columnar, S> Default for ColumnPool<P, S> {
    fn default() -> Self {
        Self::new()
    }
}

impl<P: Columnar, S, const N: usize, const W: usize> Default for ColumnPool<P, S, Inline<N, W>> {
    fn default() -> Self {
        Self::new()
    }
}

impl<P: Columnar, S, B: ColumnStorage> fmt::Debug for ColumnPool<P, S, B> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.stats().debug_as(P::NAME, f)
    }
}

/// A handle of the books as the handle of the object its slot holds.
#[inline]
fn object<P>(handle: Handle<Row<P>>) -> Handle<P> {
    handle.cast()
}

/// The handle of an object as the handle of its slot in the books.
#[inline]
fn slot<P>(handle: Handle<P>) -> Handle<Row<P>> {
    handle.cast()
}

/// The row at `index`, mutably: one the books have, so in the columns.
#[inline]
fn row_mut<P: Columnar, C: ColumnStore<P::Fields>>(columns: &mut C, index: usize) -> P::Mut<'_> {
    P::row_mut(columns.row_mut(index).expect("a row for every slot"))
}

/// A token for the columns' blank rows: only the pool builds them.
fn token<'a, P>() -> PoolToken<'a, P> {
    crate::pooled::token()
}
