//! The atomics the target has, reset to `false` or 0 through `&mut` (no atomic operation: a
//! field being reset is not shared). Firmware without 64-bit atomics gets the others.

use super::Reset;
#[allow(
    clippy::wildcard_imports,
    reason = "which atomics exist depends on the target"
)]
use core::sync::atomic::*;

macro_rules! reset_atomic {
    ($($width:literal: $($atomic:ident = $blank:literal),+;)+) => {$($(
        #[cfg(target_has_atomic = $width)]
        #[diagnostic::do_not_recommend]
        impl Reset for $atomic {
            #[inline]
            fn reset(&mut self) {
                *self.get_mut() = $blank;
            }

            #[inline]
            fn blank() -> Self {
                $atomic::new($blank)
            }
        }
    )+)+};
}

reset_atomic! {
    "8": AtomicBool = false, AtomicU8 = 0, AtomicI8 = 0;
    "16": AtomicU16 = 0, AtomicI16 = 0;
    "32": AtomicU32 = 0, AtomicI32 = 0;
    "64": AtomicU64 = 0, AtomicI64 = 0;
    "ptr": AtomicUsize = 0, AtomicIsize = 0;
}
