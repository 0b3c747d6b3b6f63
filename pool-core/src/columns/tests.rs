//! Column pool tests that need the runtime's insides (a set of rows left where the books have
//! no chunk), with a `Columnar` type written by hand, as the derive would write it.

use super::set::ColumnSet;
use super::{ColumnPool, Columnar};
use crate::{Grow, Handle, PlainFields, PoolToken};
use alloc::vec::Vec;

/// One `u32` field, kept as a column.
struct Cell;

impl Columnar for Cell {
    const SIZE: usize = 2;
    const NAME: &'static str = "CellPool";
    const RESETS_AT_RELEASE: bool = false;
    type Strategy = Grow<64>;
    type Fields = (u32, ());
    type Ref<'a> = (&'a u32, ());
    type Mut<'a> = (&'a mut u32, ());
    type Slices<'a> = (&'a [u32], ());
    type SlicesMut<'a> = (&'a mut [u32], ());

    fn blank(_: PoolToken<'_, Self>) -> (u32, ()) {
        (0, ())
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

    fn reset_at_reuse(row: &mut Self::Mut<'_>) {
        *row.0 = 0;
    }
}

impl PlainFields for Cell {}

type CellPool = ColumnPool<Cell>;

/// Every live value through `get`, in slot order.
fn by_get(pool: &CellPool, handles: &[Handle<Cell>]) -> Vec<u32> {
    handles
        .iter()
        .filter_map(|&h| pool.get(h))
        .map(|v| *v.0)
        .collect()
}

/// A pool of chunks [0, 2), [2, 4) and [4, 8) holding their indices, the middle one given back
/// by `shrink`, and a set of rows left at its position, as a `Drop` that panicked while
/// `shrink` dropped the freed rows left one: the books' chunk [4, 8) is the first grown chunk
/// they have, and the stale set the first the columns have.
fn with_a_stale_set() -> (CellPool, Vec<Handle<Cell>>) {
    let mut pool = CellPool::with_capacity(2);
    let mut handles: Vec<_> = (0..8).map(|i| pool.create(|v| *v.0 = i).unwrap()).collect();
    for h in handles.drain(2..4) {
        pool.release(h).unwrap();
    }
    assert_eq!(pool.shrink(), 2);
    pool.columns.grown_mut()[0] = Some(ColumnSet::new(2, || (99, ())));
    (pool, handles)
}

/// A group of a `CellPool`: its masks and its rows' values.
type Group<'a> = (&'a [u64], (&'a mut [u32], ()));

/// Each group's live rows by its masks, bumped by 1,000, and its free rows scribbled on;
/// the live values seen and each group's length.
fn scribble(groups: Vec<Group<'_>>) -> (Vec<u32>, Vec<usize>) {
    let (mut live, mut lens) = (Vec::new(), Vec::new());
    for (masks, (rows, ())) in groups {
        lens.push(rows.len());
        for (i, v) in rows.iter_mut().enumerate() {
            if masks[i / 64] >> (i % 64) & 1 == 1 {
                live.push(*v);
                *v += 1000;
            } else {
                *v = u32::MAX;
            }
        }
    }
    (live, lens)
}

#[test]
fn walks_find_each_chunks_rows_by_its_position_as_lookups_do() {
    let (mut pool, handles) = with_a_stale_set();
    let expected = by_get(&pool, &handles);
    assert_eq!(expected, [0, 1, 4, 5, 6, 7]);
    let runs: Vec<u32> = pool.runs().flat_map(|run| run.0.iter().copied()).collect();
    assert_eq!(runs, expected, "runs");
    let iter: Vec<(Handle<Cell>, u32)> = pool.iter().map(|(h, v)| (h, *v.0)).collect();
    assert_eq!(
        iter,
        handles
            .iter()
            .copied()
            .zip(expected.clone())
            .collect::<Vec<_>>()
    );
    assert_eq!(pool.values().map(|v| *v.0).collect::<Vec<_>>(), expected);
    for run in pool.runs_mut() {
        run.0.iter_mut().for_each(|v| *v += 10);
    }
    for (_, v) in &mut pool {
        *v.0 += 100;
    }
    let expected: Vec<u32> = expected.iter().map(|v| v + 110).collect();
    assert_eq!(by_get(&pool, &handles), expected);
}

/// The same, for `par_runs_mut`'s and `par_groups_mut`'s pieces, split all the way down and
/// walked without threads.
#[cfg(feature = "rayon")]
mod par {
    use super::{CellPool, by_get, scribble, with_a_stale_set};
    use crate::columns::par::{ByGroup, ByRun};
    use crate::pool::par::tests::{Collect, drive};
    use alloc::vec::Vec;

    #[test]
    fn parallel_runs_find_each_chunks_rows_by_its_position() {
        let (mut pool, handles) = with_a_stale_set();
        let runs: Vec<(&mut [u32], ())> = drive(pool.pieces::<ByRun>(), Collect);
        for v in runs.into_iter().flat_map(|(run, ())| run) {
            *v += 1000;
        }
        assert_eq!(
            by_get(&pool, &handles),
            [1000, 1001, 1004, 1005, 1006, 1007]
        );
    }

    #[test]
    fn parallel_groups_find_each_chunks_rows_by_its_position() {
        let (mut pool, handles) = with_a_stale_set();
        let (live, _) = scribble(drive(pool.pieces::<ByGroup>(), Collect));
        assert_eq!(live, [0, 1, 4, 5, 6, 7]);
        assert_eq!(
            by_get(&pool, &handles),
            [1000, 1001, 1004, 1005, 1006, 1007]
        );
    }

    #[test]
    fn parallel_groups_end_where_a_chunk_is_split_between_threads() {
        let mut pool = CellPool::with_capacity(200);
        let handles: Vec<_> = (0..200)
            .map(|i| pool.create(|v| *v.0 = i).unwrap())
            .collect();
        for &h in handles.iter().step_by(3) {
            pool.release(h).unwrap();
        }
        let (live, lens) = scribble(drive(pool.pieces::<ByGroup>(), Collect));
        let expected: Vec<u32> = (0..200).filter(|i| i % 3 != 0).collect();
        assert_eq!(live, expected);
        assert_eq!(
            lens,
            [64, 64, 64, 8],
            "split at every 64 rows, down to one word each"
        );
        let after: Vec<u32> = pool.values().map(|v| *v.0).collect();
        assert_eq!(after, expected.iter().map(|v| v + 1000).collect::<Vec<_>>());
        while let Ok(h) = pool.create(|_| {}) {
            assert_eq!(*pool.get(h).unwrap().0, 0, "a reused row is blank");
        }
    }
}

#[test]
fn groups_hand_out_each_stretch_of_words_with_live_rows_whole_and_reuse_resets_what_free_rows_got()
{
    let mut pool = CellPool::new();
    let handles: Vec<_> = (1..=60)
        .map(|v| pool.create(|c| *c.0 = v).unwrap())
        .collect();
    for &handle in handles.iter().step_by(3) {
        pool.release(handle).unwrap();
    }
    let live = by_get(&pool, &handles);
    let (seen, lens) = scribble(pool.groups_mut().collect());
    assert_eq!(seen, live, "the masks' live rows are the live objects");
    assert_eq!(
        lens.iter().sum::<usize>(),
        pool.capacity(),
        "every chunk's rows, each in its groups"
    );
    while let Ok(handle) = pool.create(|_| {}) {
        assert_eq!(*pool.get(handle).unwrap().0, 0, "a reused row is blank");
    }
}
