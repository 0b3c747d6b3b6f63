//! Wrappers reset through what they hold, in place: arrays, tuples, cells, `Wrapping`,
//! `Saturating`, `Reverse`; and `OnceCell`, emptied.

use super::Reset;
use core::cell::{Cell, OnceCell, RefCell, UnsafeCell};
use core::cmp::Reverse;
use core::num::{Saturating, Wrapping};

reset_impls! {
    [T: Reset, const N: usize] [T; N]: |this| for item in this { item.reset(); },
        core::array::from_fn(|_| T::blank());
    [T: Reset] Cell<T>: |this| this.get_mut().reset(), Cell::new(T::blank());
    [T: Reset] RefCell<T>: |this| this.get_mut().reset(), RefCell::new(T::blank());
    [T: Reset] UnsafeCell<T>: |this| this.get_mut().reset(), UnsafeCell::new(T::blank());
    [T: Reset] Wrapping<T>: |this| this.0.reset(), Wrapping(T::blank());
    [T: Reset] Saturating<T>: |this| this.0.reset(), Saturating(T::blank());
    [T: Reset] Reverse<T>: |this| this.0.reset(), Reverse(T::blank());
    [T] OnceCell<T>: |this| this.take(), OnceCell::new();
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
