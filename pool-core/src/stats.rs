/// A snapshot of a pool's occupancy, for tuning its size.
///
/// Run the game through its busiest scene and read [`high_water`](Stats::high_water): a size a
/// little above it never fills up.
///
/// ```
/// use pooled::Pooled;
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
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
#[non_exhaustive]
pub struct Stats {
    /// Slots built up front, live or not.
    pub capacity: usize,
    /// Objects live now.
    pub live: usize,
    /// Slots ready for [`create`](crate::Pool::create).
    pub free: usize,
    /// The most objects that were live at once since the pool was built.
    pub high_water: usize,
    /// Slots taken out of use because their generation counter ran out (after 2³² − 1 objects
    /// each), so that no old handle can ever match a new object.
    pub retired: usize,
}
