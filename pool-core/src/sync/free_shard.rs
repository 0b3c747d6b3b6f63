//! A shard of the free slots: a Treiber stack threaded through the slots' `next` fields.

use super::primitives::word::{AtomicWord, Word};
use super::primitives::{AtomicU32, Ordering};
use crate::slot::NIL;

/// The head of the stack: a tag and the index of the top slot (or `NIL`), in one word that
/// every push and pop swaps whole.
///
/// The tag moves on with every successful swap, so a pop that read the head, then the top slot's
/// `next`, cannot succeed if the stack changed meanwhile, even if the same slot is back on top
/// (the ABA case, where it would install a `next` that is stale). The tag comes round again
/// only after 2^(tag bits) swaps between one pop's read and its swap: 2³² with 64-bit words
/// (the index in the low 32 bits); with 32-bit words the index takes as few bits as the pool's
/// capacity needs and the tag the rest, 27 bits for 16 slots, 16 for 65,534 (the most). The
/// same tag tells a thread that found the stack empty whether it has stayed so since (see
/// `SyncSlots::take_index`).
///
/// Aligned to 128 bytes with `std` (two cache lines, which some CPUs fetch in pairs), so that
/// threads working on their own shards do not write one line; without `std` there is one
/// shard, and a microcontroller's RAM is better spent on slots.
#[cfg_attr(feature = "std", repr(align(128)))]
pub(crate) struct FreeShard {
    head: AtomicWord,
    layout: Layout,
}

impl FreeShard {
    const_unless_loom! {
        /// An empty stack of the slots of a pool of `capacity`.
        pub(crate) fn new(capacity: usize) -> Self {
            let layout = Layout::new(capacity);
            Self {
                head: AtomicWord::new(layout.empty()),
                layout,
            }
        }
    }

    /// Takes the top slot off the stack; when it is empty, the head word that said so, for
    /// [`unchanged`](FreeShard::unchanged). `next` is the slots' `next` fields.
    #[inline]
    pub(crate) fn pop<'a>(&self, next: impl Fn(u32) -> &'a AtomicU32) -> Result<u32, Word> {
        let layout = self.layout;
        // Acquire: the slot's `next`, and its object, as the pusher left them.
        let popped = self
            .head
            .fetch_update(Ordering::AcqRel, Ordering::Acquire, |head| {
                let top = layout.index(head);
                // Stale if another thread popped `top` meanwhile; the tag then fails the swap.
                (top != NIL).then(|| layout.next(head, next(top).load(Ordering::Relaxed)))
            });
        popped.map(|head| layout.index(head))
    }

    /// Puts slot `slot` on top of the stack. The caller owns it (took it off, or reclaimed it).
    #[inline]
    pub(crate) fn push(&self, slot: u32, next: &AtomicU32) {
        let layout = self.layout;
        // Release: the next popper sees `next` and the slot's reset object. SeqCst, which
        // costs the same on x86 and 64-bit Arm, for the waiters' handshake (see `sync/wait.rs`).
        let pushed = self
            .head
            .fetch_update(Ordering::SeqCst, Ordering::Relaxed, |head| {
                next.store(layout.index(head), Ordering::Relaxed);
                Some(layout.next(head, slot))
            });
        debug_assert!(pushed.is_ok(), "a push always swaps");
    }

    /// The index of the top slot, `NIL` when the stack is empty (a snapshot, for checks).
    #[cfg(feature = "alloc")]
    pub(crate) fn top(&self) -> u32 {
        self.layout.index(self.head.load(Ordering::Acquire))
    }

    /// Whether the head is still `seen`, a word [`pop`](FreeShard::pop) found empty: then no
    /// slot was pushed in between, as every push moves the tag on. Acquire: a thread whose
    /// push or pop this thread has seen elsewhere is seen here too.
    #[inline]
    pub(crate) fn unchanged(&self, seen: Word) -> bool {
        self.head.load(Ordering::Acquire) == seen
    }
}

/// Where the tag and the index sit in a head word: the index in the low 32 bits, the tag in
/// the high 32.
#[cfg(all(target_has_atomic = "64", not(pool_core_narrow)))]
#[derive(Clone, Copy)]
struct Layout;

#[cfg(all(target_has_atomic = "64", not(pool_core_narrow)))]
#[expect(
    clippy::unused_self,
    reason = "the calls of the 32-bit layout, whose split is the pool's"
)]
impl Layout {
    const MASK: Word = u32::MAX as Word;

    const fn new(_capacity: usize) -> Self {
        Self
    }

    /// The head of an empty stack: tag 0, no index.
    const fn empty(self) -> Word {
        Self::MASK
    }

    /// The head after `head`, with the next tag and `index` on top.
    #[inline]
    const fn next(self, head: Word, index: u32) -> Word {
        (head | Self::MASK).wrapping_add(1) | index as Word
    }

    #[inline]
    const fn index(self, head: Word) -> u32 {
        crate::slot::word::low(head)
    }
}

/// Where the tag and the index sit in a head word: the index in as few low bits as the pool's
/// indices and `NIL` (all ones there) need, the tag in the rest; `mask` covers the index.
#[cfg(not(all(target_has_atomic = "64", not(pool_core_narrow))))]
#[derive(Clone, Copy)]
struct Layout {
    mask: Word,
}

#[cfg(not(all(target_has_atomic = "64", not(pool_core_narrow))))]
impl Layout {
    const fn new(capacity: usize) -> Self {
        assert!(
            capacity <= super::MAX_CAPACITY,
            "a sync pool with 32-bit words holds at most 65,534 objects"
        );
        // Indices below `capacity` and `NIL`, all ones: at least one bit.
        #[expect(clippy::cast_possible_truncation, reason = "at most 65,534")]
        let bits = u32::BITS - (capacity as u32).leading_zeros();
        Self {
            mask: (1 << bits) - 1,
        }
    }

    const fn empty(self) -> Word {
        self.mask
    }

    /// The head after `head`: its tag plus one (the index bits all ones, plus one, carry into
    /// the tag), and `index` (`NIL` as all ones) on top.
    #[inline]
    const fn next(self, head: Word, index: u32) -> Word {
        (head | self.mask).wrapping_add(1) | index & self.mask
    }

    #[inline]
    const fn index(self, head: Word) -> u32 {
        let index = head & self.mask;
        if index == self.mask { NIL } else { index }
    }
}
