use core::cmp::Ordering;
use core::fmt;
use core::hash::{Hash, Hasher};
use core::marker::PhantomData;
use core::num::NonZeroU32;

/// A key to one object in a pool: a slot index and the generation of the object in that slot.
///
/// A handle is 8 bytes, and so is `Option<Handle<T>>`. It is `Copy`, `Eq`, `Ord`, `Hash` and
/// `Debug` whatever `T` is, and it is `Send` and `Sync` because it holds no `T`.
///
/// Releasing an object bumps its slot's generation, so a handle never reaches an object created
/// after its own was released: [`Pool::get`](crate::Pool::get) returns `None` and
/// [`Pool::release`](crate::Pool::release) returns [`StaleHandle`](crate::StaleHandle), however
/// often the slot has been reused since. A slot whose generation would wrap is retired instead of
/// reused.
///
/// ```
/// use pooled::{Handle, Pooled};
///
/// #[derive(Pooled)]
/// #[pool(size = 4)]
/// struct Spark {
///     heat: u32,
/// }
///
/// let mut pool = SparkPool::new();
/// let old = pool.create(|s| s.heat = 1).unwrap();
/// pool.release(old).unwrap();
/// let new = pool.create(|s| s.heat = 2).unwrap();
///
/// assert_eq!(old.index(), new.index()); // the slot was reused...
/// assert!(pool.get(old).is_none()); // ...but the old handle cannot reach the new spark
/// assert_eq!(pool.get(new).unwrap().heat, 2);
/// assert_eq!(size_of::<Option<Handle<Spark>>>(), 8);
/// ```
pub struct Handle<T> {
    index: u32,
    generation: NonZeroU32,
    // `fn() -> T` keeps the handle covariant in `T` without owning one: no drop check, and
    // `Send`/`Sync` whatever `T` is.
    marker: PhantomData<fn() -> T>,
}

impl<T> Handle<T> {
    pub(crate) const fn new(index: u32, generation: NonZeroU32) -> Self {
        Self {
            index,
            generation,
            marker: PhantomData,
        }
    }

    /// The slot this handle points into, from 0 to the pool's capacity.
    ///
    /// Two handles with the same index may name different objects: the slot's earlier and later
    /// lives. Use it to index side tables that are parallel to the pool.
    #[inline]
    pub const fn index(self) -> usize {
        self.index as usize
    }

    /// The generation of the object this handle names: how many times its slot had been filled,
    /// counting this object.
    #[inline]
    pub const fn generation(self) -> NonZeroU32 {
        self.generation
    }
}

impl<T> Clone for Handle<T> {
    #[inline]
    fn clone(&self) -> Self {
        *self
    }
}

impl<T> Copy for Handle<T> {}

impl<T> PartialEq for Handle<T> {
    #[inline]
    fn eq(&self, other: &Self) -> bool {
        self.index == other.index && self.generation == other.generation
    }
}

impl<T> Eq for Handle<T> {}

impl<T> PartialOrd for Handle<T> {
    #[inline]
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

/// Handles order by slot index, then by generation.
impl<T> Ord for Handle<T> {
    #[inline]
    fn cmp(&self, other: &Self) -> Ordering {
        (self.index, self.generation).cmp(&(other.index, other.generation))
    }
}

impl<T> Hash for Handle<T> {
    #[inline]
    fn hash<H: Hasher>(&self, state: &mut H) {
        (u64::from(self.generation.get()) << 32 | u64::from(self.index)).hash(state);
    }
}

/// Prints `Handle(5v2)`: slot 5, generation 2.
impl<T> fmt::Debug for Handle<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Handle({}v{})", self.index, self.generation)
    }
}
