//! Building a large inline pool takes at most twice its size of stack, through the plain
//! `new()` a user writes (`let pool = FooPool::new();`, `Box::new(FooPool::new())`), and none at
//! all through `new_boxed()`: each is built on a thread whose stack is just that large. A stack
//! overflow aborts the process, so this binary stands alone. Under Miri (which has no stack
//! limit to check, and would take minutes over a megabyte) the pools are small, to reach the
//! code that builds them in place.

use pooling::Pooled;
use std::thread;

/// 16,384 rows of eight `u64` columns, 1.2 MiB with the books.
#[derive(Pooled)]
#[cfg_attr(not(miri), pool(size = 16_384, storage = inline, layout = columns))]
#[cfg_attr(miri, pool(size = 64, storage = inline, layout = columns))]
struct Sample {
    #[pool(reset = 7)]
    a: u64,
    b: u64,
    c: u64,
    d: u64,
    e: u64,
    f: u64,
    g: u64,
    h: u64,
}

/// The same as objects: 1.2 MiB with the books.
#[derive(Pooled)]
#[cfg_attr(not(miri), pool(size = 16_384, storage = inline))]
#[cfg_attr(miri, pool(size = 64, storage = inline))]
struct Body {
    #[pool(reset = 7)]
    a: u64,
    rest: [u64; 7],
}

/// The pools' slots.
const SLOTS: usize = if cfg!(miri) { 64 } else { 16_384 };

/// Stack a thread needs besides building the pool: std's frames that start the thread and run
/// its closure (7 KiB measured on `x86_64` Linux in a debug build, for a closure that does
/// nothing), the checks' frames, and room for another target's larger frames.
const SLACK: usize = 64 * 1024;

/// A stack far smaller than any pool here, for `new_boxed`.
const SMALL: usize = 256 * 1024;

/// Runs `build_and_check` on a thread with `stack` bytes of stack.
fn on_stack(stack: usize, build_and_check: fn()) {
    thread::Builder::new()
        .stack_size(stack)
        .spawn(build_and_check)
        .expect("a thread")
        .join()
        .expect("built and checked");
}

#[inline(never)]
fn check_columns(pool: &mut SamplePool) {
    assert_eq!(pool.capacity(), SLOTS);
    assert!(pool.is_empty());
    let s = pool.create(|s| *s.b = 2).unwrap();
    let row = pool.get(s).unwrap();
    assert_eq!(
        (*row.a, *row.b, *row.h),
        (7, 2, 0),
        "a blank row, then `init`"
    );
    assert_eq!(pool.len(), 1);
}

#[inline(never)]
fn check_objects(pool: &mut BodyPool) {
    assert_eq!(pool.capacity(), SLOTS);
    assert!(pool.is_empty());
    let b = pool.create(|b| b.rest[6] = 2).unwrap();
    assert_eq!((pool[b].a, pool[b].rest), (7, [0, 0, 0, 0, 0, 0, 2]));
    assert_eq!(pool.len(), 1);
}

/// Twice the pool's size, and the slack.
fn twice<P>() -> usize {
    2 * size_of::<P>() + SLACK
}

#[cfg(not(miri))]
#[test]
fn the_pools_are_larger_than_the_small_stack() {
    assert!(size_of::<SamplePool>() > 1_200_000);
    assert!(size_of::<BodyPool>() > 1_200_000);
    assert!(SMALL * 4 < size_of::<SamplePool>());
}

#[test]
fn a_column_pool_built_by_new_into_a_local_takes_twice_its_size_of_stack() {
    on_stack(twice::<SamplePool>(), || {
        let mut pool = SamplePool::new();
        check_columns(&mut pool);
    });
}

#[test]
fn a_column_pool_built_by_new_into_a_box_takes_twice_its_size_of_stack() {
    on_stack(twice::<SamplePool>(), || {
        check_columns(&mut Box::new(SamplePool::new()));
    });
}

#[test]
fn a_column_pool_built_by_new_boxed_takes_no_stack_of_its_size() {
    on_stack(SMALL, || check_columns(&mut SamplePool::new_boxed()));
}

#[test]
fn an_object_pool_built_by_new_into_a_local_takes_twice_its_size_of_stack() {
    on_stack(twice::<BodyPool>(), || {
        let mut pool = BodyPool::new();
        check_objects(&mut pool);
    });
}

#[test]
fn an_object_pool_built_by_new_into_a_box_takes_twice_its_size_of_stack() {
    on_stack(twice::<BodyPool>(), || {
        check_objects(&mut Box::new(BodyPool::new()));
    });
}

#[test]
fn an_object_pool_built_by_new_boxed_takes_no_stack_of_its_size() {
    on_stack(SMALL, || check_objects(&mut BodyPool::new_boxed()));
}
