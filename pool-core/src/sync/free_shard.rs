//! A shard of the free slots: a Treiber stack threaded through the slots' `next` fields.

use super::primitives::{AtomicU32, AtomicU64, Ordering};
use crate::slot::NIL;

/// The head of the stack: a tag in the high 32 bits, the index of the top slot (or `NIL`) in the
/// low 32, in one word that every push and pop swaps whole.
///
/// The tag moves on with every successful swap, so a pop that read the head, then the top slot's
/// `next`, cannot succeed if the stack changed meanwhile, even if the same slot is back on top
/// (the ABA case, where it would install a `next` that is stale). The tag comes round again
/// only after 2³² swaps between one pop's read and its swap. The same tag tells a thread that
/// found the stack empty whether it has stayed so since (see `SyncSlots::take_index`).
///
/// Aligned to 128 bytes (two cache lines, which some CPUs fetch in pairs), so that threads
/// working on their own shards do not write one line.
#[repr(align(128))]
pub(crate) struct FreeShard {
    head: AtomicU64,
}

use crate::slot::word::{high as tag, low as index, pack};

impl FreeShard {
    /// An empty stack.
    pub(crate) fn new() -> Self {
        Self {
            head: AtomicU64::new(pack(0, NIL)),
        }
    }

    /// Takes the top slot off the stack; when it is empty, the head word that said so, for
    /// [`unchanged`](FreeShard::unchanged). `next` is the slots' `next` fields.
    #[inline]
    pub(crate) fn pop<'a>(&self, next: impl Fn(u32) -> &'a AtomicU32) -> Result<u32, u64> {
        // Acquire: the slot's `next`, and its object, as the pusher left them.
        let mut head = self.head.load(Ordering::Acquire);
        loop {
            let top = index(head);
            if top == NIL {
                return Err(head);
            }
            // Stale if another thread popped `top` meanwhile; the tag then fails the swap.
            let below = next(top).load(Ordering::Relaxed);
            match self.head.compare_exchange_weak(
                head,
                pack(tag(head).wrapping_add(1), below),
                Ordering::AcqRel,
                Ordering::Acquire,
            ) {
                Ok(_) => return Ok(top),
                Err(now) => head = now,
            }
        }
    }

    /// Puts slot `slot` on top of the stack. The caller owns it (took it off, or reclaimed it).
    #[inline]
    pub(crate) fn push(&self, slot: u32, next: &AtomicU32) {
        let mut head = self.head.load(Ordering::Relaxed);
        loop {
            next.store(index(head), Ordering::Relaxed);
            // Release: the next popper sees `next` and the slot's reset object. SeqCst, which
            // costs the same on x86 and 64-bit Arm, for the waiters' handshake (see `sync/wait.rs`).
            match self.head.compare_exchange_weak(
                head,
                pack(tag(head).wrapping_add(1), slot),
                Ordering::SeqCst,
                Ordering::Relaxed,
            ) {
                Ok(_) => return,
                Err(now) => head = now,
            }
        }
    }

    /// The index of the top slot, `NIL` when the stack is empty (a snapshot, for checks).
    pub(crate) fn top(&self) -> u32 {
        index(self.head.load(Ordering::Acquire))
    }

    /// Whether the head is still `seen`, a word [`pop`](FreeShard::pop) found empty: then no
    /// slot was pushed in between, as every push moves the tag on. Acquire: a thread whose
    /// push or pop this thread has seen elsewhere is seen here too.
    #[inline]
    pub(crate) fn unchanged(&self, seen: u64) -> bool {
        self.head.load(Ordering::Acquire) == seen
    }
}
