//! The `alloc` collections, cleared and keeping their capacity; `Box`, reset in place; and the
//! weak references, let go.

use super::Reset;
use alloc::boxed::Box;
use alloc::collections::{BTreeMap, BTreeSet, BinaryHeap, LinkedList, VecDeque};
use alloc::string::String;
use alloc::vec::Vec;

reset_by_clear! {
    Vec<T>,
    VecDeque<T>,
    BinaryHeap<T> where T: Ord,
    LinkedList<T>,
    BTreeMap<K, V>,
    BTreeSet<T>,
    String<>,
}

/// Resets the boxed value in place: the allocation is kept.
#[diagnostic::do_not_recommend]
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

macro_rules! reset_weak {
    ($($(#[$cfg:meta])* $weak:ty),+) => {$(
        /// Lets go of the reference: the blank weak reference points nowhere.
        $(#[$cfg])*
        #[diagnostic::do_not_recommend]
        impl<T> Reset for $weak {
            #[inline]
            fn reset(&mut self) {
                *self = <$weak>::new();
            }

            #[inline]
            fn blank() -> Self {
                <$weak>::new()
            }
        }
    )+};
}

reset_weak! {
    alloc::rc::Weak<T>,
    #[cfg(target_has_atomic = "ptr")]
    alloc::sync::Weak<T>
}
