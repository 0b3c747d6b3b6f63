use crate::slot::word;
use core::cmp::Ordering;
use core::fmt;
use core::hash::{Hash, Hasher};
use core::marker::PhantomData;
use core::num::{NonZeroU32, NonZeroU64};

/// A key to one object in a pool: a slot index and the version of the object in that slot.
///
/// A handle is 8 bytes, and so is `Option<Handle<T>>`. It is `Copy`, `Eq`, `Ord`, `Hash` and
/// `Debug` whatever `T` is, and it is `Send` and `Sync` because it holds no `T`.
///
/// Releasing an object moves its slot to a new version, so a handle never reaches an object
/// created after its own was released: [`Pool::get`](crate::Pool::get) returns `None` and
/// [`Pool::release`](crate::Pool::release) returns [`StaleHandle`](crate::StaleHandle), however
/// often the slot has been reused since. A slot that has used up its versions (after 2³¹ − 1
/// objects) is retired instead of reused.
///
/// A handle prints as `12v3` (slot 12, version 3: versions count from a point that differs
/// from pool to pool, so most are large numbers), and turns into a `u64` and back
/// ([`to_bits`](Handle::to_bits), [`from_bits`](Handle::from_bits)) for a network id, a `mio`
/// token or a save file.
///
/// # Handles from another pool
///
/// A handle is checked against the pool it is given to, never trusted:
///
/// - **It never reaches a slot that holds no live object**, whatever pool it came from: a slot
///   that is free, lent to a [`Lease`](crate::Lease), or retired has an even version, and every
///   handle carries an odd one (as slotmap's versions). A handle from another pool, or from a
///   pool since dropped or replaced, gets `None` from `get` and `get_mut`, `false` from
///   `contains`, and [`StaleHandle`](crate::StaleHandle) from `release`, and changes nothing.
/// - **A handle from another pool of the same type is refused where that slot is live, too**, in
///   all but a vanishing fraction of cases: each pool counts its versions from its own starting
///   point, the next of a process-wide sequence spread over all 2³² versions. Two slots'
///   versions meet only once one slot has been filled, more often than the other, at least half
///   the distance between their pools' starting points: for any two of the first 1,000 pools a
///   process makes, more than 1.5 million times (for the first 100, more than 6.6 million).
///   Short of that, such a handle is refused; past it, it may name the other pool's live object
///   of the same type, which is safe but a logic error, as a handle from another `SlotMap` is.
///   On targets without 32-bit atomics every pool starts from the same point, and only the first
///   guarantee holds.
///
/// It costs nothing: a lookup compares one version.
///
/// ```
/// use pooling::{Handle, Pooled};
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
    /// The version in the high half, the index in the low: one word, so that a handle is
    /// stored and loaded whole (two halves stored apart and loaded as one stall the CPU's
    /// store forwarding); not zero, because versions are odd.
    bits: NonZeroU64,
    // `fn() -> T` keeps the handle covariant in `T` without owning one: no drop check, and
    // `Send`/`Sync` whatever `T` is.
    marker: PhantomData<fn() -> T>,
}

impl<T> Handle<T> {
    /// A handle to the object of version `version` in slot `index`. The version must be
    /// odd, as the versions of live slots are: that no handle carries an even version is what
    /// keeps every handle away from slots without a live object.
    #[cfg(any(test, target_has_atomic = "32", feature = "portable-atomic"))]
    #[inline]
    pub(crate) const fn new(index: u32, version: NonZeroU32) -> Self {
        debug_assert!(version.get() % 2 == 1, "handles carry odd versions");
        let Some(bits) = NonZeroU64::new(word::pack(version.get(), index)) else {
            unreachable!()
        };
        Self::of(bits)
    }

    /// The handle whose bits are `bits`.
    #[inline]
    const fn of(bits: NonZeroU64) -> Self {
        Self {
            bits,
            marker: PhantomData,
        }
    }

    /// The handle of the next object of the slot at `index`, which is not live and at
    /// `version` (even): the next version, `version | 1`, is odd, so not zero.
    #[inline]
    pub(crate) fn next_at(index: usize, version: u32) -> Self {
        debug_assert!(version.is_multiple_of(2));
        #[expect(clippy::cast_possible_truncation, reason = "indices end below NIL")]
        let index = index as u32;
        // `version | 1` sets bit 32: the compiler sees the word is not zero, and drops the
        // check.
        match NonZeroU64::new(word::pack(version | 1, index)) {
            Some(bits) => Self::of(bits),
            None => unreachable!(),
        }
    }

    /// The handle of the next object of a free slot whose word is `word`: the word one version
    /// on, since a free slot's word holds its index (`slot/state.rs`) and an even version.
    #[inline]
    pub(crate) fn after_free_word(word: u64) -> Self {
        debug_assert!(word::high(word).is_multiple_of(2));
        // The version is even: setting its low bit, bit 32, adds one, and the compiler sees the
        // word is not zero, and drops the check.
        match NonZeroU64::new(word | 1 << 32) {
            Some(bits) => Self::of(bits),
            None => unreachable!(),
        }
    }

    /// The same handle, of another type: a column pool's books name a slot by the handle of
    /// the object whose fields its columns hold.
    #[inline]
    pub(crate) const fn cast<U>(self) -> Handle<U> {
        Handle::of(self.bits)
    }

    /// The handle whose bits are `word`, the word of a live slot (its version odd, so not zero).
    #[inline]
    pub(crate) fn from_live_word(word: u64) -> Self {
        debug_assert!(word::high(word) % 2 == 1, "a live slot's version is odd");
        // SAFETY: a live slot's version is odd (`slot/state.rs`, the only code that changes
        // versions, keeps it so), so bit 32 of its word is set. (Or-ing the bit in, as a safe
        // way to say so, cost iteration with handles two instructions an object.)
        let bits = unsafe { NonZeroU64::new_unchecked(word) };
        Self::of(bits)
    }

    /// The slot this handle points into, from 0 to the pool's capacity.
    ///
    /// Two handles with the same index may name different objects: the slot's earlier and later
    /// lives. Use it to index side tables that are parallel to the pool.
    ///
    /// ```
    /// # use pooling::Pooled;
    /// # #[derive(Pooled)]
    /// # #[pool(size = 4)]
    /// # struct Enemy { health: i32 }
    /// let mut enemies = EnemyPool::new();
    /// let mut names = vec![String::new(); enemies.capacity()]; // a side table
    /// let e = enemies.create(|_| {})?;
    /// names[e.index()] = "grunt".into();
    /// enemies.release(e).unwrap();
    /// let again = enemies.create(|_| {})?;
    /// assert_eq!(again.index(), e.index()); // the same slot, another object
    /// assert_ne!(again, e);
    /// # Ok::<(), pooling::PoolFull>(())
    /// ```
    #[inline]
    pub const fn index(self) -> usize {
        word::low(self.bits.get()) as usize
    }

    /// The version of the object this handle names: an odd number, counted from where its pool's
    /// versions start (which differs from pool to pool) and moved on by two each time the slot
    /// is filled again. Compare versions of one slot of one pool: a later object has a higher
    /// one, until the count wraps.
    ///
    /// ```
    /// # use pooling::Pooled;
    /// # #[derive(Pooled)]
    /// # #[pool(size = 1)]
    /// # struct Enemy { health: i32 }
    /// let mut enemies = EnemyPool::new();
    /// let first = enemies.create(|_| {})?;
    /// enemies.release(first).unwrap();
    /// let second = enemies.create(|_| {})?;
    /// assert_eq!(second.version().get(), first.version().get().wrapping_add(2));
    /// assert_eq!(first.version().get() % 2, 1);
    /// # Ok::<(), pooling::PoolFull>(())
    /// ```
    #[inline]
    pub const fn version(self) -> NonZeroU32 {
        match NonZeroU32::new(self.raw_version()) {
            Some(version) => version,
            None => NonZeroU32::MIN,
        }
    }

    /// The handle as one number: the version in the high 32 bits, the slot index in the low.
    /// Stable across runs and platforms, for a network id, a `mio` token or a save file;
    /// [`from_bits`](Handle::from_bits) turns it back.
    ///
    /// ```
    /// # use pooling::{Handle, Pooled};
    /// # #[derive(Pooled)]
    /// # #[pool(size = 4)]
    /// # struct Connection { bytes_in: u64 }
    /// let mut connections = ConnectionPool::new();
    /// let conn = connections.create(|c| c.bytes_in = 0)?;
    /// let token = conn.to_bits(); // e.g. a `mio::Token(token as usize)`
    /// assert_eq!(Handle::<Connection>::from_bits(token), Some(conn));
    /// # Ok::<(), pooling::PoolFull>(())
    /// ```
    #[inline]
    pub const fn to_bits(self) -> u64 {
        self.bits.get()
    }

    /// The handle [`to_bits`](Handle::to_bits) gave `bits`, or `None` for bits no pool ever
    /// issues (an even version, or an index past [`Pool::MAX_CAPACITY`](crate::Pool::MAX_CAPACITY)).
    ///
    /// A handle made so is checked like any other: if its object is gone, or it is from another
    /// pool, the pool refuses it (see [above](Handle#handles-from-another-pool)).
    ///
    /// ```
    /// # use pooling::{Handle, Pooled};
    /// # #[derive(Pooled)]
    /// # #[pool(size = 4)]
    /// # struct Connection { bytes_in: u64 }
    /// assert!(Handle::<Connection>::from_bits(0).is_none());
    /// assert!(Handle::<Connection>::from_bits(2 << 32).is_none()); // even version
    /// let forged = Handle::<Connection>::from_bits(3 << 32 | 1).unwrap();
    /// assert_eq!(forged.to_string(), "1v3");
    /// assert!(ConnectionPool::new().get(forged).is_none());
    /// ```
    #[inline]
    pub const fn from_bits(bits: u64) -> Option<Self> {
        let (index, version) = (word::low(bits), word::high(bits));
        if version.is_multiple_of(2) || index as usize >= crate::limits::INDEX_END {
            return None;
        }
        match NonZeroU64::new(bits) {
            Some(bits) => Some(Self::of(bits)),
            None => None,
        }
    }

    /// The version, as the slots keep it.
    #[inline]
    pub(crate) const fn raw_version(self) -> u32 {
        word::high(self.bits.get())
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
        self.bits == other.bits
    }
}

impl<T> Eq for Handle<T> {}

impl<T> PartialOrd for Handle<T> {
    #[inline]
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

/// Handles order by slot index, then by version.
impl<T> Ord for Handle<T> {
    #[inline]
    fn cmp(&self, other: &Self) -> Ordering {
        (self.index(), self.raw_version()).cmp(&(other.index(), other.raw_version()))
    }
}

impl<T> Hash for Handle<T> {
    #[inline]
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.bits.hash(state);
    }
}

/// Prints `Handle(5v3)`: slot 5, version 3.
impl<T> fmt::Debug for Handle<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Handle({self})")
    }
}

/// Prints `5v3`: slot 5, version 3.
impl<T> fmt::Display for Handle<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}v{}", self.index(), self.raw_version())
    }
}
