//! What only `std` has: the hash collections and `OsString` and `PathBuf`, cleared keeping
//! their capacity; `Mutex` and `RwLock`, reset through `&mut` with their poison cleared;
//! `OnceLock`, emptied; `io::Cursor`, rewound.

use super::Reset;
use std::collections::{HashMap, HashSet};
use std::ffi::OsString;
use std::io::Cursor;
use std::path::PathBuf;
use std::sync::{Mutex, OnceLock, PoisonError, RwLock};

reset_by_clear! {
    HashMap<K, V, S> where S: Default,
    HashSet<T, S> where S: Default,
    OsString<>,
    PathBuf<>,
}

// A panic while the lock was held poisoned it; the reset makes its value blank whatever the
// panic left, so the next user of the slot starts from a lock that is not poisoned.
macro_rules! reset_lock {
    ($($lock:ident),+) => {$(
        #[diagnostic::do_not_recommend]
        impl<T: Reset> Reset for $lock<T> {
            #[inline]
            fn reset(&mut self) {
                self.get_mut().unwrap_or_else(PoisonError::into_inner).reset();
                self.clear_poison();
            }

            #[inline]
            fn blank() -> Self {
                $lock::new(T::blank())
            }
        }
    )+};
}

reset_lock!(Mutex, RwLock);

reset_impls! {
    [T] OnceLock<T>: |this| this.take(), OnceLock::new();
    [T: Reset] Cursor<T>: |this| {
        this.get_mut().reset();
        this.set_position(0);
    }, Cursor::new(T::blank());
}
