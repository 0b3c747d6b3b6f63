use super::part::{Part, PartMut};
use super::slot_ref::SlotMut;
use super::slots::{Chunks, ChunksMut, Rest, RestMut, Slots};
use super::view::{ChunkView, SlotsView};
use crate::limits::{self, FIRST_VERSION};
use crate::slot::free_list::InlineStack;
use crate::slot::occupancy::{self};
use crate::slot::offset;
use crate::slot::state;
use core::cell::Cell;
use core::iter;
use core::marker::PhantomData;
use core::mem::MaybeUninit;
use core::ptr::{self, NonNull};

/// Slots inside the pool itself: `N` of them, with `W` words of occupancy bits, where `W` must be
/// `N.div_ceil(64)` (stable Rust cannot compute an array length from a generic constant, so the
/// derive computes it). No allocation at all: an inline pool works in `#![no_std]` code without
/// an allocator, and its `const fn new()` lets it live in a `static` or on the stack.
/// `#[pool(size = N, storage = inline)]`.
///
/// `new()` builds nothing: a slot's blank object is built the first time the slot is needed (by
/// `create`, `acquire` or [`prefill`](crate::Pool::prefill)), at a watermark that only rises,
/// and reused from then on, as on the heap.
///
/// # Large pools
///
/// `new()` writes the pool in place and returns it: a pool kept on the stack takes its size of
/// stack, and building it at most twice that (`let pool = FooPool::new();` or
/// `Box::new(FooPool::new())`, in a debug build or a release one). A pool too large for a
/// thread's stack goes straight into its final place, with no stack of its size at all:
/// - in a box: [`Pool::new_boxed`](crate::Pool::new_boxed) and
///   [`ColumnPool::new_boxed`](crate::ColumnPool::new_boxed) (with `alloc`) allocate the pool
///   and build it there, a row at a time;
/// - in a `static`: an inline `Pool`'s and `SyncPool`'s `new()` is `const`, so the compiler
///   builds the pool into the program's static memory. A `SyncPool` is `Sync`, a `static` as it
///   is; a `Pool` changes through `&mut`, so it sits behind a lock:
///   `static POOL: Mutex<FooPool> = Mutex::new(FooPool::new());`. An inline `ColumnPool`'s
///   `new()` runs each field's blank code for every row, which no `const fn` can: keep a boxed
///   one in a `static` `OnceLock<Mutex<Box<FooPool>>>`, or leak one
///   (`Box::leak(FooPool::new_boxed())` is a `&'static mut FooPool`).
///
/// ```
/// use pooling::Pooled;
/// use std::sync::Mutex;
///
/// #[derive(Pooled)]
/// # /* Under Miri, 64 objects a pool: it builds each one slowly.
/// #[pool(size = 8192, storage = inline)]
/// # */
/// # #[cfg_attr(not(miri), pool(size = 8192, storage = inline))]
/// # #[cfg_attr(miri, pool(size = 64, storage = inline))]
/// struct Body {
///     position: [f64; 3],
///     velocity: [f64; 3],
/// }
///
/// #[derive(Pooled)]
/// # /*
/// #[pool(size = 8192, storage = inline, layout = columns)]
/// # */
/// # #[cfg_attr(not(miri), pool(size = 8192, storage = inline, layout = columns))]
/// # #[cfg_attr(miri, pool(size = 64, storage = inline, layout = columns))]
/// struct Spark {
///     x: f32,
///     vx: f32,
/// }
///
/// // 480 KiB in static memory, built by the compiler: no stack at all.
/// static BODIES: Mutex<BodyPool> = Mutex::new(BodyPool::new());
///
/// // A thread whose stack is smaller than either pool.
/// let small_stack = std::thread::Builder::new().stack_size(64 * 1024);
/// let sparks = small_stack
///     .spawn(|| {
///         BODIES.lock().unwrap().create(|b| b.velocity[0] = 1.0).unwrap();
///         // 160 KiB of columns and books, built straight into the box.
///         let mut sparks = SparkPool::new_boxed();
///         sparks.create(|s| *s.vx = 2.0).unwrap();
///         sparks
///     })?
///     .join()
///     .unwrap();
/// assert_eq!((sparks.len(), BODIES.lock().unwrap().len()), (1, 1));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Inline<const N: usize, const W: usize>;

/// An inline pool's slots: the first `built` are built, the rest not yet.
#[doc(hidden)]
pub struct InlineSlots<T, const N: usize, const W: usize> {
    // Invariant: the first `built` objects are initialised, and only they; `built` only rises
    // (the objects are dropped with the storage). The words past `built` are 0 and their bits
    // clear.
    objects: [MaybeUninit<T>; N],
    words: [u64; N],
    bits: [u64; W],
    built: usize,
    /// Where this pool's versions count from, drawn when the first slot is built (`new` is
    /// `const`, and so cannot draw it).
    offset: u32,
}

impl<const N: usize, const W: usize> Inline<N, W> {
    /// `W` words of occupancy bits, one bit per slot: what `Inline<N, W>` asks, checked
    /// whenever the storage is made (by `Pool::new` or a load), since the hot paths trust it.
    /// On `Inline`, the type the user wrote, which the compiler names if it fails.
    const WORDS_COVER_SLOTS: () = assert!(
        W == N.div_ceil(64),
        "`Inline<N, W>`: `W` must be `N.div_ceil(64)`, the number of 64-bit words of \
         occupancy bits for `N` slots (the derive computes it)"
    );
}

impl<T, const N: usize, const W: usize> InlineSlots<T, N, W> {
    pub(crate) const fn new() -> Self {
        let () = Inline::<N, W>::WORDS_COVER_SLOTS;
        Self {
            objects: [const { MaybeUninit::uninit() }; N],
            words: [0; N],
            bits: [0; W],
            built: 0,
            offset: 0,
        }
    }

    /// Writes what [`new`](Self::new) makes at `this`, in place: the words and bits are zeroed
    /// where they lie and the objects left as they are (none built), never passing through the
    /// stack (an inline pool may be larger than a thread's stack).
    ///
    /// # Safety
    /// `this` is valid for writes and aligned; what it held is overwritten, not dropped.
    pub(crate) const unsafe fn write_new(this: *mut Self) {
        let () = Inline::<N, W>::WORDS_COVER_SLOTS;
        // SAFETY: `this` is valid for writes (the caller's contract): the address of a field
        // makes no reference to it.
        let words = unsafe { &raw mut (*this).words };
        // SAFETY: as for the words.
        let bits = unsafe { &raw mut (*this).bits };
        // SAFETY: as for the words.
        let built = unsafe { &raw mut (*this).built };
        // SAFETY: as for the words.
        let offset = unsafe { &raw mut (*this).offset };
        // SAFETY: valid for writes, and zero bytes are `N` zero words (no slot built).
        unsafe { words.write_bytes(0, 1) };
        // SAFETY: as for the words: `W` words of clear bits.
        unsafe { bits.write_bytes(0, 1) };
        // SAFETY: valid for writes, and holds nothing to drop.
        unsafe { built.write(0) };
        // SAFETY: as for `built`.
        unsafe { offset.write(0) };
    }

    /// Storage with `slots` (each an object and its word) built, in order, their versions
    /// counted from `offset`, and the bits of the live ones set; the first error `slots`
    /// yields. The caller gives at most `N`.
    #[cfg(all(feature = "serde", feature = "alloc"))]
    pub(crate) fn from_slots<E>(
        offset: u32,
        slots: impl IntoIterator<Item = Result<(T, u64), E>>,
    ) -> Result<Self, E> {
        let mut storage = Self::new();
        storage.offset = offset;
        for (index, slot) in slots.into_iter().take(N).enumerate() {
            let (object, word) = slot?;
            storage.objects[index].write(object);
            storage.words[index] = word;
            if state::is_live(word) {
                let (at, mask) = occupancy::locate(index);
                storage.bits[at] |= mask;
            }
            // One at a time, so that if `slots` fails or panics the storage drops what it built.
            storage.built = index + 1;
        }
        Ok(storage)
    }

    /// The objects built so far.
    #[inline]
    fn objects(&self) -> &[T] {
        let first = self.objects.as_ptr().cast::<T>();
        // SAFETY: the first `built` objects are initialised (the invariant above).
        unsafe { &*ptr::slice_from_raw_parts(first, self.built) }
    }

    /// The built slots, mutably.
    #[inline]
    fn built_mut(&mut self) -> PartMut<'_, T> {
        let built = self.built;
        let first = self.objects.as_mut_ptr().cast::<T>();
        // SAFETY: the first `built` objects are initialised (the invariant above), and
        // `&mut self` makes the borrow exclusive.
        let objects = unsafe { &mut *ptr::slice_from_raw_parts_mut(first, built) };
        PartMut {
            base: 0,
            objects,
            words: &mut self.words[..built],
            bits: &mut self.bits[..occupancy::words_for(built)],
        }
    }

    /// The built slots, shared.
    #[inline]
    fn built_part(&self) -> Part<'_, T> {
        Part {
            base: 0,
            objects: self.objects(),
            words: &self.words[..self.built],
            bits: &self.bits[..occupancy::words_for(self.built)],
        }
    }
}

impl<T, const N: usize, const W: usize> Slots<T> for InlineSlots<T, N, W> {
    type Free = InlineStack<N>;
    type View<'a>
        = InlineView<'a, T, N, W>
    where
        T: 'a;

    #[inline]
    fn retired_at(&self) -> u32 {
        limits::retired_at(self.offset)
    }

    #[cfg(any(test, all(feature = "serde", feature = "alloc")))]
    #[inline]
    fn offset(&self) -> u32 {
        self.offset
    }

    #[inline]
    fn capacity(&self) -> usize {
        N
    }

    #[inline]
    fn built(&self) -> usize {
        self.built
    }

    fn chunk_count(&self) -> usize {
        1
    }

    #[inline]
    fn get(&self, index: usize, word: u64) -> Option<&T> {
        let object = self.objects().get(index)?;
        (self.words[index] == word).then_some(object)
    }

    #[inline]
    fn word(&self, index: usize) -> Option<u64> {
        (index < self.built).then(|| self.words[index])
    }

    #[inline]
    fn first_part_mut(&mut self) -> PartMut<'_, T> {
        self.built_mut()
    }

    #[inline]
    fn part_mut(&mut self, index: usize) -> Option<(PartMut<'_, T>, usize)> {
        (index < self.built).then(|| (self.built_mut(), index))
    }

    #[inline]
    fn slot_mut(&mut self, index: usize) -> Option<SlotMut<'_, T>> {
        let PartMut {
            objects,
            words,
            bits,
            ..
        } = self.built_mut();
        let object = objects.get_mut(index)?;
        let (at, mask) = occupancy::locate(index);
        Some(SlotMut::new(object, &mut words[index], &mut bits[at], mask))
    }

    #[inline]
    fn chunks(&self) -> Chunks<'_, T> {
        iter::once(self.built_part()).chain(Rest::default())
    }

    #[inline]
    fn chunks_mut(&mut self) -> ChunksMut<'_, T> {
        iter::once(self.built_mut()).chain(RestMut::default())
    }

    #[cold]
    fn build_next(&mut self, blank: impl FnOnce() -> T) -> Option<usize> {
        let index = self.built;
        if index >= N {
            return None;
        }
        let object = blank();
        if index == 0 {
            self.offset = offset::next();
        }
        self.objects[index].write(object);
        self.words[index] = state::free_word(self.offset.wrapping_add(FIRST_VERSION), index);
        self.built = index + 1;
        Some(index)
    }

    #[inline]
    fn grow(&mut self, _: usize, _: impl FnMut() -> T) -> Option<(usize, usize)> {
        None
    }

    fn view(&mut self) -> InlineView<'_, T, N, W> {
        // Drawn now if no slot is built yet: the lender counts retirement from it, and builds
        // the first slot at it.
        if self.built == 0 {
            self.offset = offset::next();
        }
        InlineView {
            offset: self.offset,
            slots: NonNull::from(self),
            borrowed: PhantomData,
        }
    }

    fn clone_with(&self, mut object: impl FnMut(bool, &T) -> T) -> Self {
        let mut copy = Self::new();
        copy.offset = self.offset;
        copy.words = self.words;
        copy.bits = self.bits;
        for (index, (here, &word)) in self.objects().iter().zip(&self.words).enumerate() {
            copy.objects[index].write(object(state::is_live(word), here));
            // One at a time, so that if `object` panics the copy drops what it built.
            copy.built = index + 1;
        }
        copy
    }

    fn check_layout(&self) -> Result<(), &'static str> {
        if self.built > N {
            return Err("more slots built than an inline pool holds");
        }
        let used = occupancy::words_for(self.built);
        crate::storage::part::check_bits(&self.words[..self.built], &self.bits[..used])?;
        if self.bits[used..].iter().any(|&bits| bits != 0) {
            return Err("an occupancy bit set past the built slots");
        }
        Ok(())
    }
}

impl<T, const N: usize, const W: usize> Drop for InlineSlots<T, N, W> {
    fn drop(&mut self) {
        let objects = self.built_mut().objects;
        // SAFETY: the built objects are initialised and dropped only here, once; the storage is
        // not used after.
        unsafe { ptr::drop_in_place(objects) };
    }
}

/// What a lender sees of an inline pool's slots: a pointer to them, reached only by the
/// addresses of their fields, never a reference to the storage, which holds the objects (see
/// storage/view.rs).
pub struct InlineView<'a, T, const N: usize, const W: usize> {
    slots: NonNull<InlineSlots<T, N, W>>,
    /// Where the versions count from: drawn before the view was made.
    offset: u32,
    borrowed: PhantomData<&'a mut InlineSlots<T, N, W>>,
}

impl<'a, T, const N: usize, const W: usize> InlineView<'a, T, N, W> {
    /// The one chunk: every slot, built or not.
    #[inline]
    fn view(&self) -> ChunkView<'a, T> {
        let slots = self.slots.as_ptr();
        // SAFETY: `slots` points to the storage, which the view borrows mutably for `'a`: the
        // address of a field makes no reference to it.
        let objects = unsafe { &raw mut (*slots).objects };
        // SAFETY: as for the objects.
        let words = unsafe { &raw mut (*slots).words };
        // SAFETY: as for the objects.
        let bits = unsafe { &raw mut (*slots).bits };
        // SAFETY: `N` objects (built or not), `N` words and their `W` words of bits, all
        // inside the storage, which stays put for `'a` (the view borrows it), reached only
        // through views; an object is built wherever its word says it is live.
        unsafe { ChunkView::new(0, objects.cast(), words.cast(), bits.cast(), N) }
    }

    /// The count of built slots, as a cell.
    #[inline]
    fn built(&self) -> &Cell<usize> {
        // SAFETY: as in `view`; the count is reached through this cell alone while the view
        // lives, and only on its thread.
        let built = unsafe { &raw mut (*self.slots.as_ptr()).built };
        // SAFETY: the count lives for the view's lifetime; a `Cell<usize>` has the layout of a
        // `usize`.
        unsafe { &*built.cast::<Cell<usize>>() }
    }
}

impl<'a, T, const N: usize, const W: usize> SlotsView<'a, T> for InlineView<'a, T, N, W> {
    #[inline]
    fn places(&self) -> usize {
        1
    }

    #[inline]
    fn chunk(&self, k: usize) -> Option<ChunkView<'a, T>> {
        (k == 0).then(|| self.view())
    }

    #[inline]
    fn find(&self, index: usize) -> Option<(ChunkView<'a, T>, usize)> {
        (index < N).then(|| (self.view(), index))
    }

    #[inline]
    fn capacity(&self) -> usize {
        N
    }

    #[inline]
    fn retired_at(&self) -> u32 {
        limits::retired_at(self.offset)
    }

    #[cold]
    fn build_next(&self, blank: impl FnOnce() -> T) -> Option<(ChunkView<'a, T>, usize, usize)> {
        let index = self.built().get();
        if index >= N {
            return None;
        }
        let object = blank();
        let chunk = self.view();
        // SAFETY: `index` is the first slot not built: its object is uninitialised, so nothing
        // is overwritten unread, and nothing reaches it (its word is 0, not live, and no lease
        // holds it).
        unsafe { chunk.object(index).write(object) };
        self.built().set(index + 1);
        let place = chunk.place(index).expect("a slot of the chunk");
        place.start(self.offset.wrapping_add(FIRST_VERSION), index);
        Some((chunk, index, 1))
    }

    #[inline]
    fn grow(&self, _: usize, _: impl FnMut() -> T) -> Option<(ChunkView<'a, T>, usize, usize)> {
        None
    }
}
