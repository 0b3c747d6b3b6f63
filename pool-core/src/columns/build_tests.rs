//! An inline column pool built in place, a row at a time: whole when every blank row is, and
//! when a blank row's code panics, every field built before it dropped once, none after.

use super::{ColumnPool, Columnar};
use crate::{Fail, Inline, PoolToken};
use alloc::boxed::Box;
use alloc::vec::Vec;
use core::cell::{Cell, RefCell};
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::thread_local;

thread_local! {
    /// The row being built.
    static ROW: Cell<u32> = const { Cell::new(0) };
    /// The row whose second field's blank code panics, if any.
    static PANIC_AT: Cell<Option<u32>> = const { Cell::new(None) };
    /// Every field built, as `row * 2 + column`, in order.
    static BUILT: RefCell<Vec<u32>> = const { RefCell::new(Vec::new()) };
    /// Every field dropped, likewise.
    static DROPPED: RefCell<Vec<u32>> = const { RefCell::new(Vec::new()) };
}

/// A field that records its building and its drop.
struct Tally(u32);

impl Tally {
    /// The field of column `column` of the row being built.
    fn next(column: u32) -> Self {
        let row = ROW.get();
        if column == 1 {
            assert!(
                PANIC_AT.get() != Some(row),
                "a blank field's code panics at row {row}"
            );
            ROW.set(row + 1);
        }
        BUILT.with_borrow_mut(|built| built.push(row * 2 + column));
        Tally(row * 2 + column)
    }
}

impl Drop for Tally {
    fn drop(&mut self) {
        DROPPED.with_borrow_mut(|dropped| dropped.push(self.0));
    }
}

/// Two columns of `Tally`s, written by hand as the derive writes it.
struct Pair;

impl Columnar for Pair {
    const SIZE: usize = 8;
    const NAME: &'static str = "PairPool";
    const RESETS_AT_RELEASE: bool = false;
    type Strategy = Fail;
    type Fields = (Tally, (Tally, ()));
    type Ref<'a> = (&'a Tally, (&'a Tally, ()));
    type Mut<'a> = (&'a mut Tally, (&'a mut Tally, ()));
    type Slices<'a> = (&'a [Tally], (&'a [Tally], ()));
    type SlicesMut<'a> = (&'a mut [Tally], (&'a mut [Tally], ()));

    fn blank(_: PoolToken<'_, Self>) -> Self::Fields {
        (Tally::next(0), (Tally::next(1), ()))
    }

    fn row(fields: Self::Ref<'_>) -> Self::Ref<'_> {
        fields
    }

    fn row_mut(fields: Self::Mut<'_>) -> Self::Mut<'_> {
        fields
    }

    fn slices(fields: Self::Slices<'_>) -> Self::Slices<'_> {
        fields
    }

    fn slices_mut(fields: Self::SlicesMut<'_>) -> Self::SlicesMut<'_> {
        fields
    }

    fn reset_at_release(_: Self::Mut<'_>) {}

    fn reset_at_reuse(_: &mut Self::Mut<'_>) {}
}

type PairPool = ColumnPool<Pair, Fail, Inline<8, 1>>;

/// Builds a pool with `make`, the second field of row `panic_at` panicking (checking that it
/// does, and that a pool built otherwise works), drops it; the fields built and the fields
/// dropped, each sorted.
fn build(panic_at: Option<u32>, make: impl FnOnce() -> Box<PairPool>) -> (Vec<u32>, Vec<u32>) {
    PANIC_AT.set(panic_at);
    ROW.set(0);
    BUILT.take();
    DROPPED.take();
    let outcome = catch_unwind(AssertUnwindSafe(|| {
        let mut pool = make();
        let p = pool.create(|_| {}).unwrap();
        assert_eq!(pool.get(p).unwrap().1.0.0, 1, "slot 0's row, second column");
        assert_eq!(pool.capacity(), 8);
        let rows: Vec<u32> = (pool.runs())
            .flat_map(|run| run.0.iter().map(|t| t.0))
            .collect();
        assert_eq!(rows, [0], "the live row, first column");
    }));
    assert_eq!(outcome.is_err(), panic_at.is_some());
    let mut built = BUILT.take();
    let mut dropped = DROPPED.take();
    built.sort_unstable();
    dropped.sort_unstable();
    (built, dropped)
}

#[test]
fn new_builds_every_row_in_place_and_the_pool_drops_each_once() {
    for new in [|| Box::new(PairPool::new()), PairPool::new_boxed] {
        let (built, dropped) = build(None, new);
        assert_eq!(built, (0..16).collect::<Vec<_>>());
        assert_eq!(dropped, built);
    }
}

#[test]
fn a_blank_row_that_panics_drops_exactly_the_fields_built_before_it() {
    for panic_at in [0, 3, 7] {
        for new in [|| Box::new(PairPool::new()), PairPool::new_boxed] {
            let (built, dropped) = build(Some(panic_at), new);
            // The rows before, and the first field of the row that panicked.
            assert_eq!(built, (0..=panic_at * 2).collect::<Vec<_>>());
            assert_eq!(
                dropped, built,
                "each built field dropped once, at {panic_at}"
            );
        }
    }
}
