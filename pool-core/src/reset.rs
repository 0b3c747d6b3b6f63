#[cfg(feature = "alloc")]
use alloc::boxed::Box;
#[cfg(feature = "alloc")]
use alloc::collections::{BTreeMap, BTreeSet, BinaryHeap, VecDeque};
#[cfg(feature = "alloc")]
use alloc::string::String;
#[cfg(feature = "alloc")]
use alloc::vec::Vec;
use core::cell::{Cell, RefCell};
use core::marker::PhantomData;
use core::num::Wrapping;
use core::time::Duration;

/// How a field goes back to its blank state when a pooled object is released.
///
/// Numbers become 0, `bool` false, `char` `'\0'`, `Duration` zero, `Option` `None`. Collections
/// are cleared and keep their capacity, so a reused object does not allocate again. Arrays,
/// tuples, `Box`, `Cell`, `RefCell` and `Wrapping` reset what they hold, in place.
///
/// Bare shared pointers (`Rc<T>`, `Arc<T>`) and references have no blank state, so they do not
/// implement `Reset`: hold them as `Option<Rc<T>>`, which the pool sets to `None` at release,
/// letting the reference go.
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
    label = "the pool does not know how to reset `{Self}`",
    note = "derive or implement `pooling::Reset` for the type, or mark the field `#[pool(reset = <expr>)]`, `#[pool(reset_with = <fn>)]` or `#[pool(keep)]`",
    note = "an `Rc`, `Arc` or reference must be let go at release: hold it as an `Option`, which resets to `None`"
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

macro_rules! reset_to {
    ($value:expr => $($ty:ty),+) => {$(
        impl Reset for $ty {
            #[inline]
            fn reset(&mut self) {
                *self = $value;
            }

            #[inline]
            fn blank() -> Self {
                $value
            }
        }
    )+};
}

reset_to!(0 => u8, u16, u32, u64, u128, usize, i8, i16, i32, i64, i128, isize);
reset_to!(0.0 => f32, f64);
reset_to!(false => bool);
reset_to!('\0' => char);
reset_to!(Duration::ZERO => Duration);

impl<T> Reset for Option<T> {
    #[inline]
    fn reset(&mut self) {
        *self = None;
    }

    #[inline]
    fn blank() -> Self {
        None
    }
}

impl Reset for () {
    #[inline]
    fn reset(&mut self) {}

    #[inline]
    fn blank() -> Self {}
}

impl<T: ?Sized> Reset for PhantomData<T> {
    #[inline]
    fn reset(&mut self) {}

    #[inline]
    fn blank() -> Self {
        PhantomData
    }
}

#[cfg(feature = "alloc")]
macro_rules! reset_by_clear {
    ($($ty:ident<$($param:ident),*> $(where $bound:ident: $trait:path)?),+ $(,)?) => {$(
        impl<$($param),*> Reset for $ty<$($param),*> $(where $bound: $trait)? {
            #[inline]
            fn reset(&mut self) {
                self.clear();
            }

            #[inline]
            fn blank() -> Self {
                $ty::new()
            }
        }
    )+};
}

#[cfg(feature = "alloc")]
reset_by_clear! {
    Vec<T>,
    VecDeque<T>,
    BinaryHeap<T> where T: Ord,
    BTreeMap<K, V>,
    BTreeSet<T>,
}

#[cfg(feature = "alloc")]
impl Reset for String {
    #[inline]
    fn reset(&mut self) {
        self.clear();
    }

    #[inline]
    fn blank() -> Self {
        String::new()
    }
}

#[cfg(feature = "std")]
impl<K, V, S: Default> Reset for std::collections::HashMap<K, V, S> {
    #[inline]
    fn reset(&mut self) {
        self.clear();
    }

    #[inline]
    fn blank() -> Self {
        Self::with_hasher(S::default())
    }
}

#[cfg(feature = "std")]
impl<T, S: Default> Reset for std::collections::HashSet<T, S> {
    #[inline]
    fn reset(&mut self) {
        self.clear();
    }

    #[inline]
    fn blank() -> Self {
        Self::with_hasher(S::default())
    }
}

impl<T: Reset, const N: usize> Reset for [T; N] {
    #[inline]
    fn reset(&mut self) {
        for item in self {
            item.reset();
        }
    }

    #[inline]
    fn blank() -> Self {
        core::array::from_fn(|_| T::blank())
    }
}

/// Resets the boxed value in place: the allocation is kept.
#[cfg(feature = "alloc")]
impl<T: Reset> Reset for Box<T> {
    #[inline]
    fn reset(&mut self) {
        (**self).reset();
    }

    #[inline]
    fn blank() -> Self {
        Box::new(T::blank())
    }
}

impl<T: Reset> Reset for Cell<T> {
    #[inline]
    fn reset(&mut self) {
        self.get_mut().reset();
    }

    #[inline]
    fn blank() -> Self {
        Cell::new(T::blank())
    }
}

impl<T: Reset> Reset for RefCell<T> {
    #[inline]
    fn reset(&mut self) {
        self.get_mut().reset();
    }

    #[inline]
    fn blank() -> Self {
        RefCell::new(T::blank())
    }
}

impl<T: Reset> Reset for Wrapping<T> {
    #[inline]
    fn reset(&mut self) {
        self.0.reset();
    }

    #[inline]
    fn blank() -> Self {
        Wrapping(T::blank())
    }
}

macro_rules! reset_tuple {
    ($(($($name:ident . $index:tt),*))+) => {$(
        impl<$($name: Reset),*> Reset for ($($name,)*) {
            #[inline]
            fn reset(&mut self) {
                $(self.$index.reset();)*
            }

            #[inline]
            fn blank() -> Self {
                ($($name::blank(),)*)
            }
        }
    )+};
}

reset_tuple! {
    (A.0)
    (A.0, B.1)
    (A.0, B.1, C.2)
    (A.0, B.1, C.2, D.3)
    (A.0, B.1, C.2, D.3, E.4)
    (A.0, B.1, C.2, D.3, E.4, F.5)
    (A.0, B.1, C.2, D.3, E.4, F.5, G.6)
    (A.0, B.1, C.2, D.3, E.4, F.5, G.6, H.7)
    (A.0, B.1, C.2, D.3, E.4, F.5, G.6, H.7, I.8)
    (A.0, B.1, C.2, D.3, E.4, F.5, G.6, H.7, I.8, J.9)
    (A.0, B.1, C.2, D.3, E.4, F.5, G.6, H.7, I.8, J.9, K.10)
    (A.0, B.1, C.2, D.3, E.4, F.5, G.6, H.7, I.8, J.9, K.10, L.11)
}
