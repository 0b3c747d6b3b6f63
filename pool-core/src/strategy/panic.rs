use crate::{Handle, Lease, Lender, Pool, Pooled, Storage};

/// A full pool panics, naming itself, its capacity and its high-water mark: for pools sized so
/// that they never fill, where filling up is a bug (`#[pool(on_full = panic)]`).
/// [`try_create`](Pool::try_create) still returns an error instead.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Panic;

impl<T: Pooled, B: Storage> Pool<T, Panic, B> {
    /// Takes a free slot, hands its blank object to `init`, and returns the object's handle.
    ///
    /// ```should_panic
    /// # use pooling::Pooled;
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
    #[doc(alias = "insert", alias = "push", alias = "spawn", alias = "alloc")]
    #[inline]
    #[track_caller]
    pub fn create(&mut self, init: impl FnOnce(&mut T)) -> Handle<T> {
        self.create_with_handle(|_, object| init(object))
    }

    /// [`create`](Pool::create), with `init` seeing the handle the object will have.
    ///
    /// ```
    /// # use pooling::{Handle, Pooled};
    /// # #[derive(Pooled)]
    /// # #[pool(size = 4, on_full = panic)]
    /// # struct Boss { me: Option<Handle<Boss>> }
    /// let mut bosses = BossPool::new();
    /// let boss = bosses.create_with_handle(|handle, boss| boss.me = Some(handle));
    /// assert_eq!(bosses[boss].me, Some(boss));
    /// ```
    ///
    /// # Panics
    /// When every slot is in use.
    #[doc(alias = "insert_with_key")]
    #[inline]
    #[track_caller]
    pub fn create_with_handle(&mut self, init: impl FnOnce(Handle<T>, &mut T)) -> Handle<T> {
        match self.books_mut().create(init) {
            Some(handle) => handle,
            None => self.panic_full(),
        }
    }
}

impl<T: Pooled, B: Storage> Lender<'_, T, Panic, B> {
    /// Lends a blank object, set up by `init`; it comes back, reset, when the [`Lease`] drops.
    ///
    /// ```
    /// # use pooling::Pooled;
    /// # #[derive(Pooled)]
    /// # #[pool(size = 1, on_full = panic)]
    /// # struct Frame { commands: Vec<u32> }
    /// let mut pool = FramePool::new();
    /// let frames = pool.lender();
    /// let mut frame = frames.acquire(|_| {});
    /// frame.commands.push(7);
    /// assert!(frames.try_acquire(|_| {}).is_err()); // `acquire` would panic
    /// ```
    ///
    /// # Panics
    /// When no slot is free.
    #[doc(
        alias = "get",
        alias = "Get",
        alias = "get_or_create",
        alias = "pull",
        alias = "take"
    )]
    #[inline]
    #[track_caller]
    pub fn acquire(&self, init: impl FnOnce(&mut T)) -> Lease<'_, T> {
        match self.books().lend(None, init) {
            Some(lease) => lease,
            None => self.panic_full(),
        }
    }
}
