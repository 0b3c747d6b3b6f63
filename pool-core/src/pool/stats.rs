use core::fmt;

/// A snapshot of a pool's occupancy and traffic, for tuning its size.
///
/// Run the game through its busiest scene and read [`high_water`](Stats::high_water): a size a
/// little above it never fills up. [`failed`](Stats::failed) and [`evicted`](Stats::evicted)
/// count what a too-small pool cost; [`chunks`](Stats::chunks) shows how far a growing pool grew.
/// A server whose requests wait for a slot reads [`waited`](Stats::waited) against `created`
/// (the share of acquisitions that found the pool full, including those that gave up or timed
/// out while waiting) and [`waiting`](Stats::waiting) (the queue now): a size at which `waited`
/// stays near 0 under the busiest load never makes a request wait.
///
/// ```
/// use pooling::Pooled;
///
/// #[derive(Pooled)]
/// #[pool(size = 64)]
/// struct Spark {
///     heat: u32,
/// }
///
/// let mut pool = SparkPool::new();
/// let sparks: Vec<_> = (0..10).map(|_| pool.create(|_| {}).unwrap()).collect();
/// for spark in &sparks[..7] {
///     pool.release(*spark).unwrap();
/// }
///
/// let stats = pool.stats();
/// assert_eq!((stats.capacity, stats.live, stats.free, stats.high_water), (64, 3, 61, 10));
/// assert_eq!((stats.created, stats.released, stats.failed), (10, 7, 0));
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
#[non_exhaustive]
pub struct Stats {
    /// Slots built up front, live or not.
    pub capacity: usize,
    /// Objects live now: reachable by handle.
    pub live: usize,
    /// Objects lent out now, by [`acquire`](crate::Pool::acquire).
    pub leased: usize,
    /// Slots ready for [`create`](crate::Pool::create).
    pub free: usize,
    /// The most objects in use (live or leased) at once since the pool was built.
    pub high_water: usize,
    /// Objects created or lent since the pool was built.
    pub created: u64,
    /// Objects given back (by `release`, `retain`, `release_all` or a lease dropping), not
    /// counting evictions.
    pub released: u64,
    /// Creations refused, or panicked on, because the pool was full.
    pub failed: u64,
    /// Objects released to make room by `on_full = evict`.
    pub evicted: u64,
    /// Blocks of slots allocated now: 1, plus the chunks a growing pool added and has not given
    /// back.
    pub chunks: usize,
    /// Slots taken out of use: because their versions ran out (after 2³¹ objects each), so that
    /// no old handle can ever match a new object, or because a lease's reset panicked, so that
    /// no half-reset object is handed out again.
    pub retired: usize,
    /// Acquisitions that had to wait for a free slot (`SyncPool::acquire_async` and its kin,
    /// with the `async` feature), counted when they start waiting, once each however often
    /// they are woken, whatever becomes of them: served, cancelled, or dropped by a timeout.
    /// Never counted in `failed`.
    pub waited: u64,
    /// Acquisitions waiting for a free slot now (`SyncPool::acquire_async` and its kin).
    pub waiting: usize,
}

impl Stats {
    /// `Debug` under another name: the pool's.
    pub(crate) fn debug_as(&self, name: &str, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // Each field named once; the pattern stops compiling when `Stats` gains a field.
        macro_rules! fields {
            ($($field:ident),*) => {{
                let Stats { $($field),* } = self;
                f.debug_struct(name)$(.field(stringify!($field), $field))*.finish()
            }};
        }
        fields!(
            capacity, live, leased, free, high_water, created, released, failed, evicted, chunks,
            retired, waited, waiting
        )
    }
}
