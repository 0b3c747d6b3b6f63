//! Wrappers reset through what they hold, in place: arrays, tuples, cells, `Wrapping`,
//! `Saturating`, `Reverse`; and `OnceCell`, emptied.

use super::Reset;
use core::cell::{Cell, OnceCell, RefCell, UnsafeCell};
use core::cmp::Reverse;
use core::num::{Saturating, Wrapping};

#[diagnostic::do_not_recommend]
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

/// `$wrapper<T>` resets `T` through `$inner`, a way to `&mut T`, and is built by `$new`.
macro_rules! reset_inside {
    ($($wrapper:ident: |$this:ident| $inner:expr, $new:expr;)+) => {$(
        #[diagnostic::do_not_recommend]
        impl<T: Reset> Reset for $wrapper<T> {
            #[inline]
            fn reset(&mut self) {
                let $this = self;
                Reset::reset($inner);
            }

            #[inline]
            fn blank() -> Self {
                $new(T::blank())
            }
        }
    )+};
}

reset_inside! {
    Cell: |this| this.get_mut(), Cell::new;
    RefCell: |this| this.get_mut(), RefCell::new;
    UnsafeCell: |this| this.get_mut(), UnsafeCell::new;
    Wrapping: |this| &mut this.0, Wrapping;
    Saturating: |this| &mut this.0, Saturating;
    Reverse: |this| &mut this.0, Reverse;
}

#[diagnostic::do_not_recommend]
impl<T> Reset for OnceCell<T> {
    #[inline]
    fn reset(&mut self) {
        self.take();
    }

    #[inline]
    fn blank() -> Self {
        OnceCell::new()
    }
}

macro_rules! reset_tuple {
    ($(($($name:ident . $index:tt),*))+) => {$(
        #[diagnostic::do_not_recommend]
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
