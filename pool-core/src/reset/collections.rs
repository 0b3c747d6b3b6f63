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

reset_impls! {
    /// Resets the boxed value in place: the allocation is kept.
    [T: Reset] Box<T>: |this| (**this).reset(), Box::new(T::blank());
    /// Lets go of the reference: the blank weak reference points nowhere.
    [T] alloc::rc::Weak<T>: |this| *this = Self::new(), Self::new();
    /// Lets go of the reference: the blank weak reference points nowhere.
    #[cfg(target_has_atomic = "ptr")]
    [T] alloc::sync::Weak<T>: |this| *this = Self::new(), Self::new();
}
