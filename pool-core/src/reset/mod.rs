//! [`Reset`], and its implementations for the types of `core`, `alloc` and `std`, by what they
//! are: values set to a constant, wrappers reset through what they hold, atomics, the `alloc`
//! collections, and what only `std` has. `field` holds what generated code resets fields through.
//!
//! Every implementation here is `#[diagnostic::do_not_recommend]`: rustc then lists none of them
//! under the error for a type that has none (no "the following other types implement trait"),
//! and reports a wrapper whose content has no reset (`[Sprite; 4]`) at the field, with the note
//! the derive chose for that field.

/// `Reset` for each type: `reset` runs `$reset` on the value, named `$this`, in place, and
/// `blank` returns `$blank`. For the types that no table of one kind below covers.
macro_rules! reset_impls {
    ($($(#[$attr:meta])* [$($param:tt)*] $ty:ty: |$this:pat_param| $reset:expr, $blank:expr;)+) => {$(
        $(#[$attr])*
        #[diagnostic::do_not_recommend]
        impl<$($param)*> Reset for $ty {
            #[inline]
            fn reset(&mut self) {
                let $this = self;
                $reset;
            }

            #[inline]
            fn blank() -> Self {
                $blank
            }
        }
    )+};
}

/// `Reset` for collections that empty with `clear()` and are built empty by `Default`:
/// `Vec<T>`, `BinaryHeap<T> where T: Ord`, `String<>`.
#[cfg(feature = "alloc")]
macro_rules! reset_by_clear {
    ($($ty:ident<$($param:ident),*> $(where $bound:ident: $trait:path)?),+ $(,)?) => {$(
        #[diagnostic::do_not_recommend]
        impl<$($param),*> Reset for $ty<$($param),*> $(where $bound: $trait)? {
            #[inline]
            fn reset(&mut self) {
                self.clear();
            }

            #[inline]
            fn blank() -> Self {
                Self::default()
            }
        }
    )+};
}

#[cfg(feature = "alloc")]
mod collections;
pub(crate) mod field;
#[cfg(feature = "std")]
mod std_types;
mod values;
mod wrappers;

#[cfg(any(
    target_has_atomic = "8",
    target_has_atomic = "16",
    target_has_atomic = "32",
    target_has_atomic = "64",
    target_has_atomic = "ptr"
))]
mod atomics;

/// How a field goes back to its blank state when a pooled object is released.
///
/// | type | reset to |
/// |---|---|
/// | integers, floats, `bool`, `char`, `Duration` | 0, `false`, `'\0'`, zero |
/// | `Option<T>` | `None`: an `Option<Rc<T>>` lets go of the reference |
/// | atomics (`AtomicBool`, `AtomicU8` to `AtomicU64`, `AtomicI8` to `AtomicI64`, `AtomicUsize`, `AtomicIsize`) | `false` or 0, stored through `&mut` (those the target has) |
/// | `String`, `Vec`, `VecDeque`, `BinaryHeap`, `LinkedList`, `BTreeMap`, `BTreeSet` (`alloc`); `HashMap`, `HashSet`, `OsString`, `PathBuf` (`std`) | cleared, keeping their capacity |
/// | arrays, tuples, `Box`, `Cell`, `RefCell`, `UnsafeCell`, `Wrapping`, `Saturating`, `Reverse` | what they hold, in place |
/// | `Mutex`, `RwLock` (`std`) | what they hold, through `get_mut`, and the poison cleared |
/// | `io::Cursor` (`std`) | what it holds, and its position to 0 |
/// | `OnceCell`, `OnceLock` (`std`) | empty again: the value is taken and dropped |
/// | `rc::Weak`, `sync::Weak` (`alloc`) | `Weak::new()`: the reference is let go |
/// | `()`, `PhantomData`, `PhantomPinned` | nothing to do |
///
/// Types with no blank state that fits every use have none: bare `Rc<T>`, `Arc<T>`, references
/// and pointers (hold an `Option<Rc<T>>` or a [`Handle`](crate::Handle)), `Instant` and
/// `SystemTime` (no "zero" time), `NonZero` numbers, and `ManuallyDrop` (the pool cannot know
/// whether its value was dropped or taken). A field of such a type says what it is reset to
/// with an attribute: `#[pool(reset = Instant::now())]`, `#[pool(keep)]`, ...; the compile
/// error for it names the one that fits.
///
/// Derive it for your own types with `#[derive(Reset)]`, which resets field by field and takes
/// the same field attributes as `#[derive(Pooled)]`:
///
/// ```
/// use pooling::{Pooled, Reset};
///
/// #[derive(Reset)]
/// struct Physics {
///     velocity: (f32, f32),
///     #[pool(reset = 1.0)]
///     mass: f32,
/// }
///
/// #[derive(Pooled)]
/// #[pool(size = 8)]
/// struct Body {
///     physics: Physics,
///     contacts: Vec<u32>,
/// }
///
/// let mut pool = BodyPool::new();
/// let body = pool.create(|b| b.contacts.push(7)).unwrap();
/// assert_eq!(pool.get(body).unwrap().physics.mass, 1.0);
/// ```
///
/// Or implement it by hand:
///
/// ```
/// use pooling::Reset;
///
/// struct Score(u64);
///
/// impl Reset for Score {
///     fn reset(&mut self) {
///         self.0 = 0;
///     }
///
///     fn blank() -> Self {
///         Score(0)
///     }
/// }
/// ```
#[diagnostic::on_unimplemented(
    message = "`{Self}` has no reset strategy, so it cannot be a field of a pooled object",
    label = "`{Self}` does not implement `pooling::Reset`",
    note = "derive or implement `pooling::Reset` for the type, or mark the field with what the pool does instead: `#[pool(reset = <expr>)]`, `#[pool(reset_with = <fn>)]` or `#[pool(keep)]`"
)]
pub trait Reset {
    /// Puts the value back in its blank state, keeping any capacity it has.
    fn reset(&mut self);

    /// A value in the blank state: what [`reset`](Reset::reset) leaves behind.
    fn blank() -> Self
    where
        Self: Sized;

    /// Resets a field of a pooled object if its type owns something (needs drop): the half of
    /// the reset that runs when the object is released. Generated code calls it.
    #[doc(hidden)]
    #[inline]
    fn reset_if_owned(&mut self)
    where
        Self: Sized,
    {
        if core::mem::needs_drop::<Self>() {
            self.reset();
        }
    }

    /// Resets a field of a pooled object if its type is plain data: the half of the reset that
    /// runs when the slot is reused. Generated code calls it.
    #[doc(hidden)]
    #[inline]
    fn reset_if_plain(&mut self)
    where
        Self: Sized,
    {
        if !core::mem::needs_drop::<Self>() {
            self.reset();
        }
    }
}
