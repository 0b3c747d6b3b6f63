//! Values set to a constant: numbers, `bool`, `char`, `Duration`, `Option`, and the types with
//! nothing to reset.

use super::Reset;
use core::marker::{PhantomData, PhantomPinned};
use core::time::Duration;

macro_rules! reset_to {
    ($value:expr => $($ty:ty),+) => {$(
        #[diagnostic::do_not_recommend]
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
reset_to!(() => ());
reset_to!(PhantomPinned => PhantomPinned);

reset_impls! {
    [T] Option<T>: |this| *this = None, None;
    [T: ?Sized] PhantomData<T>: |_| {}, PhantomData;
}
