//! What makes [`Pool`](crate::Pool) `Sync`: a spin lock taken by every `&self` path that changes
//! the free list or the counts, and the claim of the one thread building blank objects.
//!
//! No user code runs while the lock is held, so it is held for a few instructions and never
//! re-entered. Building blank objects runs user code (a field's `Default`), which may reach the
//! pool again from the same thread: that is why building is claimed apart, by a thread, and why a
//! claim made twice by one thread is told from a claim held by another.
//!
//! Where the pool is not `Sync` (without `std`, or without 64-bit atomics), one thread has it at
//! a time: the lock is nothing and the claim is a flag.

#[cfg(all(feature = "std", target_has_atomic = "64"))]
mod atomic {
    #[cfg(loom)]
    pub(crate) use loom::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

    #[cfg(not(loom))]
    pub(crate) use core::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
}

#[cfg(all(feature = "std", target_has_atomic = "64"))]
use atomic::{AtomicBool, AtomicUsize, Ordering};

/// The pool's lock: an `AtomicBool` taken with acquire and let go with release.
pub(crate) struct Lock {
    #[cfg(all(feature = "std", target_has_atomic = "64"))]
    locked: AtomicBool,
}

/// The lock, held until dropped.
pub(crate) struct Locked<'a> {
    #[cfg(all(feature = "std", target_has_atomic = "64"))]
    lock: &'a Lock,
    #[cfg(not(all(feature = "std", target_has_atomic = "64")))]
    lock: core::marker::PhantomData<&'a Lock>,
}

impl Lock {
    #[cfg(not(loom))]
    pub(crate) const fn new() -> Self {
        Self {
            #[cfg(all(feature = "std", target_has_atomic = "64"))]
            locked: AtomicBool::new(false),
        }
    }

    /// loom's atomics are not `const`.
    #[cfg(loom)]
    pub(crate) fn new() -> Self {
        Self {
            locked: AtomicBool::new(false),
        }
    }

    #[inline]
    #[cfg_attr(
        not(all(feature = "std", target_has_atomic = "64")),
        expect(
            clippy::unused_self,
            reason = "one thread has the pool: nothing to lock"
        )
    )]
    pub(crate) fn lock(&self) -> Locked<'_> {
        #[cfg(all(feature = "std", target_has_atomic = "64"))]
        {
            if (self.locked)
                .compare_exchange(false, true, Ordering::Acquire, Ordering::Relaxed)
                .is_err()
            {
                self.lock_contended();
            }
            Locked { lock: self }
        }
        #[cfg(not(all(feature = "std", target_has_atomic = "64")))]
        Locked {
            lock: core::marker::PhantomData,
        }
    }

    /// Waits for the holder, spinning a little, then yielding: holders keep the lock for a few
    /// instructions, unless the scheduler took their core.
    #[cfg(all(feature = "std", target_has_atomic = "64"))]
    #[cold]
    #[inline(never)]
    fn lock_contended(&self) {
        let mut spins = 0u32;
        loop {
            while self.locked.load(Ordering::Relaxed) {
                spins += 1;
                pause(spins);
            }
            if (self.locked)
                .compare_exchange(false, true, Ordering::Acquire, Ordering::Relaxed)
                .is_ok()
            {
                return;
            }
        }
    }
}

#[cfg(all(feature = "std", target_has_atomic = "64"))]
impl Drop for Locked<'_> {
    #[inline]
    fn drop(&mut self) {
        self.lock.locked.store(false, Ordering::Release);
    }
}

/// One step of waiting for another thread.
#[cfg(all(feature = "std", target_has_atomic = "64"))]
fn pause(spins: u32) {
    #[cfg(loom)]
    {
        let _ = spins;
        loom::thread::yield_now();
    }
    #[cfg(not(loom))]
    if spins < 64 {
        core::hint::spin_loop();
    } else {
        std::thread::yield_now();
    }
}

/// The thread building blank objects for a pool, if any.
pub(crate) struct Builder {
    /// The builder's [`thread_token`], 0 when none.
    #[cfg(all(feature = "std", target_has_atomic = "64"))]
    thread: AtomicUsize,
    #[cfg(not(all(feature = "std", target_has_atomic = "64")))]
    building: core::cell::Cell<bool>,
}

/// What [`Builder::claim`] found.
pub(crate) enum Claim<'a> {
    /// This thread builds, until the guard drops.
    Claimed(Building<'a>),
    /// Another thread was building; it is done now, and may have made what the caller wanted.
    #[cfg_attr(
        not(all(feature = "std", target_has_atomic = "64")),
        expect(dead_code, reason = "one thread has the pool: no other builds")
    )]
    Waited,
    /// This thread is building already: the blank objects' code reached the pool.
    Reentered,
}

/// The claim to build, given up when dropped (also while unwinding).
pub(crate) struct Building<'a>(&'a Builder);

impl Builder {
    #[cfg(not(loom))]
    pub(crate) const fn new() -> Self {
        Self {
            #[cfg(all(feature = "std", target_has_atomic = "64"))]
            thread: AtomicUsize::new(0),
            #[cfg(not(all(feature = "std", target_has_atomic = "64")))]
            building: core::cell::Cell::new(false),
        }
    }

    /// loom's atomics are not `const`.
    #[cfg(loom)]
    pub(crate) fn new() -> Self {
        Self {
            thread: AtomicUsize::new(0),
        }
    }

    /// Claims the right to build for this thread.
    pub(crate) fn claim(&self) -> Claim<'_> {
        #[cfg(all(feature = "std", target_has_atomic = "64"))]
        {
            let me = thread_token();
            match (self.thread).compare_exchange(0, me, Ordering::Acquire, Ordering::Acquire) {
                Ok(_) => Claim::Claimed(Building(self)),
                Err(builder) if builder == me => Claim::Reentered,
                Err(_) => {
                    let mut spins = 0u32;
                    while self.thread.load(Ordering::Acquire) != 0 {
                        spins += 1;
                        pause(spins);
                    }
                    Claim::Waited
                }
            }
        }
        #[cfg(not(all(feature = "std", target_has_atomic = "64")))]
        {
            if self.building.replace(true) {
                Claim::Reentered
            } else {
                Claim::Claimed(Building(self))
            }
        }
    }
}

impl Drop for Building<'_> {
    fn drop(&mut self) {
        #[cfg(all(feature = "std", target_has_atomic = "64"))]
        self.0.thread.store(0, Ordering::Release);
        #[cfg(not(all(feature = "std", target_has_atomic = "64")))]
        self.0.building.set(false);
    }
}

/// A number for the current thread, different from every other live thread's and from 0: the
/// address of a thread-local byte.
#[cfg(all(feature = "std", target_has_atomic = "64"))]
fn thread_token() -> usize {
    #[cfg(loom)]
    loom::thread_local! {
        static TOKEN: u8 = 0;
    }
    #[cfg(not(loom))]
    std::thread_local! {
        static TOKEN: u8 = const { 0 };
    }
    TOKEN.with(|token| core::ptr::from_ref(token).addr())
}
