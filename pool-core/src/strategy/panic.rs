use crate::{Handle, Lease, Pool, Pooled};

/// A full pool panics, naming itself, its capacity and its high-water mark: for pools sized so
/// that they never fill, where filling up is a bug (`#[pool(on_full = panic)]`).
/// [`try_create`](Pool::try_create) still returns an error instead.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Panic;

impl<T: Pooled> Pool<T, Panic> {
    /// Takes a free slot, hands its blank object to `init`, and returns the object's handle.
    ///
    /// ```should_panic
    /// # use pooled::Pooled;
    /// # #[derive(Pooled)]
    /// # #[pool(size = 1, on_full = panic)]
    /// # struct Boss { health: u32 }
    /// let mut bosses = BossPool::new();
    /// let boss = bosses.create(|b| b.health = 900); // a handle, not a `Result`
    /// bosses.create(|b| b.health = 900); // panics: "BossPool is full: ..."
    /// ```
    ///
    /// # Panics
    /// When every slot is in use.
    #[inline]
    #[track_caller]
    pub fn create(&mut self, init: impl FnOnce(&mut T)) -> Handle<T> {
        match self.create_in_free_slot(init) {
            Ok(handle) => handle,
            Err(_) => self.panic_full(),
        }
    }

    /// Lends a blank object, set up by `init`, through `&self`; it comes back, reset, when the
    /// [`Lease`] drops.
    ///
    /// ```
    /// # use pooled::Pooled;
    /// # #[derive(Pooled)]
    /// # #[pool(size = 1, on_full = panic)]
    /// # struct Frame { commands: Vec<u32> }
    /// let frames = FramePool::new();
    /// let mut frame = frames.acquire(|_| {});
    /// frame.commands.push(7);
    /// assert!(frames.try_acquire(|_| {}).is_err()); // `acquire` would panic
    /// ```
    ///
    /// # Panics
    /// When no slot is free.
    #[inline]
    #[track_caller]
    pub fn acquire(&self, init: impl FnOnce(&mut T)) -> Lease<'_, T> {
        match self.lend(init) {
            Ok(lease) => lease,
            Err(_) => self.panic_full(),
        }
    }
}
