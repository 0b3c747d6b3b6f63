//! Operation sequences run on a column pool and on its twin in the default layout, which must
//! agree after every step: the same slots, fields, counts and errors. For
//! `tests/column_twin.rs` and the fuzzer's `ops` target. The model's operations (`model::Op`)
//! are read as far as a column pool has them (forgotten leases, shrinking, clones and saves
//! compared with the pool they copy, mutated saves each refused or whole and read no further
//! than the rows their books declare, a field's `Drop` or reset that panics); the rest look
//! objects up.

use crate::model::{Entry, Fuse, Hook, Op, given_back, loaded_fuses, mutate, trapped};
use pooling::{Pool, Pooled, Stats};
use serde::de::DeserializeOwned;
use std::panic::{AssertUnwindSafe, catch_unwind};

/// A column struct and its twin in the default layout, each with its attributes. A column
/// pool saves every field with the field's own `Serialize`, so the fields are all plain. The
/// `fuse` is never reset: it drops with its slot, when `shrink` frees a chunk or the pool goes,
/// and its `Drop` is a hook that may panic (`mark`'s reset is another).
macro_rules! twins {
    ($column:ident [$($column_attr:tt)*], $twin:ident [$($twin_attr:tt)*]) => {
        #[derive(Pooled)]
        #[pool($($column_attr)* layout = columns)]
        pub(crate) struct $column {
            id: u64,
            name: String,
            #[pool(reset_with = crate::model::reset_mark)]
            mark: u64,
            #[pool(keep)]
            fuse: Fuse,
        }

        #[derive(Pooled, Clone, serde::Serialize, serde::Deserialize)]
        #[pool($($twin_attr)*)]
        pub(crate) struct $twin {
            id: u64,
            name: String,
            #[pool(reset_with = crate::model::reset_mark)]
            mark: u64,
            #[pool(keep)]
            fuse: Fuse,
        }
    };
}

/// The books of a column pool's save read alone, as a pool of objects that save as nothing (as
/// a column pool's slots do): how many live slots they declare.
#[derive(Pooled, serde::Serialize, serde::Deserialize)]
#[pool(size = 8)]
pub(crate) struct Blank;

#[derive(Pooled, serde::Serialize, serde::Deserialize)]
#[pool(size = 8, storage = inline)]
pub(crate) struct InlineBlank;

/// The live slots the books of a column pool's save (`postcard` or JSON) declare, read as a
/// pool of `B`; `None` when the books do not load, or the JSON is not whole.
fn declared<B: Pooled + DeserializeOwned>(save: &[u8], postcard: bool) -> Option<usize>
where
    Pool<B, B::Strategy>: DeserializeOwned,
{
    if postcard {
        let (books, _) = postcard::take_from_bytes::<Pool<B, B::Strategy>>(save).ok()?;
        return Some(books.len());
    }
    let value: serde_json::Value = serde_json::from_slice(save).ok()?;
    let books: Pool<B, B::Strategy> = serde_json::from_value(value.get("books")?.clone()).ok()?;
    Some(books.len())
}

twins!(FailColumns [size = 8,], FailTwin [size = 8]);
twins!(
    GrowColumns [size = 4, on_full = grow, max = 24,],
    GrowTwin [size = 4, on_full = grow, max = 24]
);
twins!(
    EvictColumns [size = 8, on_full = evict, evict_by = |r| *r.id % 5,],
    EvictTwin [size = 8, on_full = evict, evict_by = |t| t.id % 5]
);
twins!(
    InlineColumns [size = 8, storage = inline,],
    InlineTwin [size = 8, storage = inline]
);

/// A create as the strategy has it, as an `Option`: `Result` for most, the handle for evict.
macro_rules! create {
    (result, $pool:expr, $init:expr) => {
        $pool.create($init).ok()
    };
    (handle, $pool:expr, $init:expr) => {
        Some($pool.create($init))
    };
}

/// What both pools hold: each live object's slot, id and name.
macro_rules! rows {
    ($columns:expr, $twin:expr) => {{ (column_rows!($columns), twin_rows!($twin)) }};
}

/// What a column pool holds, by `iter`, checked against `get`, `values`, `runs` and `runs_mut`.
macro_rules! column_rows {
    ($columns:expr) => {{
        let rows: Vec<_> = ($columns.iter())
            .map(|(h, r)| (h, *r.id, r.name.clone()))
            .collect();
        let ids: Vec<u64> = rows.iter().map(|&(_, id, _)| id).collect();
        for (h, id, name) in &rows {
            let row = $columns.get(*h).expect("a live handle");
            assert_eq!((*row.id, &*row.name), (*id, name), "get({h:?})");
        }
        let values: Vec<u64> = $columns.values().map(|r| *r.id).collect();
        let runs: Vec<u64> = ($columns.runs()).flat_map(|run| run.id.to_vec()).collect();
        let runs_mut: Vec<u64> = ($columns.runs_mut())
            .flat_map(|run| run.id.to_vec())
            .collect();
        assert_eq!((&values, &runs, &runs_mut), (&ids, &ids, &ids), "walks");
        rows.into_iter()
            .map(|(h, id, name)| (h.index(), id, name))
            .collect::<Vec<_>>()
    }};
}

/// What a twin holds: each live object's slot, id and name.
macro_rules! twin_rows {
    ($twin:expr) => {{
        ($twin.iter())
            .map(|(h, t)| (h.index(), t.id, t.name.clone()))
            .collect::<Vec<_>>()
    }};
}

fn same_stats(a: Stats, b: Stats) -> bool {
    let key = |s: Stats| {
        (
            s.capacity,
            s.live,
            s.leased,
            s.free,
            s.created,
            s.released,
            s.evicted,
            s.failed,
            s.retired,
            s.high_water,
        )
    };
    key(a) == key(b)
}

/// Runs `ops` on a column pool of `$column` and a pool of `$twin`, checking after each; a
/// column save's books read alone as a pool of `$blank`.
macro_rules! run_twins {
    ($ops:expr, $column:ident, $twin:ident, $blank:ident, $create:ident, shrink = $shrink:tt) => {{
        type Columns = <$column as ColumnsOf>::Pool;
        type Twins = <$twin as TwinOf>::Pool;
        let (mut columns, mut twin) = (Columns::new(), Twins::new());
        let mut handles = Vec::new();
        for (step, op) in $ops.iter().enumerate() {
            match *op {
                Op::Create { id } => {
                    let a = create!($create, columns, |r| {
                        *r.id = id;
                        r.name.push('c');
                    });
                    let b = create!($create, twin, |t| {
                        t.id = id;
                        t.name.push('c');
                    });
                    assert_eq!(a.map(|h| h.index()), b.map(|h| h.index()), "step {step}");
                    handles.extend(a.zip(b));
                }
                Op::CreateMany { id, count } => {
                    let a = columns.create_many(count, |i, r| *r.id = id + i as u64);
                    let b = twin.create_many(count, |i, t| t.id = id + i as u64);
                    assert_eq!(a, b, "step {step}");
                }
                Op::Modify { pick, id } if !handles.is_empty() => {
                    let (a, b) = handles[pick % handles.len()];
                    let a = columns.get_mut(a).map(|r| {
                        *r.id = id;
                        r.name.push('m');
                    });
                    let b = twin.get_mut(b).map(|t| {
                        t.id = id;
                        t.name.push('m');
                    });
                    assert_eq!(a.is_some(), b.is_some(), "step {step}");
                }
                Op::Release { pick } if !handles.is_empty() => {
                    let (a, b) = handles[pick % handles.len()];
                    assert_eq!(columns.release(a).is_ok(), twin.release(b).is_ok());
                }
                Op::Retain { modulus } => {
                    columns.retain(|r| *r.id % modulus != 0);
                    twin.retain(|t| t.id % modulus != 0);
                }
                Op::ReleaseAll => {
                    columns.release_all();
                    twin.release_all();
                }
                Op::Lease { count, keep } => {
                    let (lender, twins) = (columns.lender(), twin.lender());
                    let mut leases = Vec::new();
                    for n in 0..count {
                        let a = lender.try_acquire(|r| *r.id = n as u64);
                        let b = twins.try_acquire(|t| t.id = n as u64);
                        assert_eq!(a.is_ok(), b.is_ok(), "step {step}");
                        leases.extend(a.ok().zip(b.ok()));
                    }
                    for (n, (mut a, mut b)) in leases.into_iter().enumerate() {
                        a.row_mut().name.push('l');
                        b.name.push('l');
                        if n % keep == 0 {
                            handles.push((a.into_handle(), b.into_handle()));
                        }
                    }
                }
                Op::Shrink => {
                    let (a, b) = (
                        run_twins!(@shrink $shrink, columns),
                        run_twins!(@shrink $shrink, twin),
                    );
                    assert_eq!(a, b, "step {step}");
                }
                Op::PanicInInit { id } => {
                    let a = catch_unwind(AssertUnwindSafe(|| {
                        create!($create, columns, |r| {
                            *r.id = id;
                            r.name.push('p');
                            panic!("init panics on purpose");
                        })
                    }));
                    let b = catch_unwind(AssertUnwindSafe(|| {
                        create!($create, twin, |t| {
                            t.id = id;
                            t.name.push('p');
                            panic!("init panics on purpose");
                        })
                    }));
                    assert_eq!(a.is_err(), b.is_err(), "step {step}");
                }
                Op::Forget { id } => {
                    let (lender, twins) = (columns.lender(), twin.lender());
                    let a = lender.try_acquire(|r| *r.id = id);
                    let b = twins.try_acquire(|t| t.id = id);
                    assert_eq!(a.is_ok(), b.is_ok(), "step {step}");
                    std::mem::forget(a);
                    std::mem::forget(b);
                }
                Op::Snapshot => {
                    let mut copy = columns.clone();
                    run_twins!(@copy columns, copy, "a clone", step);
                    columns = copy;
                    twin = twin.clone();
                }
                Op::Save { seed, mutations } => {
                    let json = serde_json::to_vec(&columns).expect("a pool saves");
                    let bytes = postcard::to_allocvec(&columns).expect("a pool saves");
                    let mut from_json: Columns = serde_json::from_slice(&json).expect("a save loads");
                    run_twins!(@copy columns, from_json, "a JSON save", step);
                    let mut from_bytes: Columns = postcard::from_bytes(&bytes).expect("a save loads");
                    run_twins!(@copy columns, from_bytes, "a postcard save", step);
                    let mut rng = fastrand::Rng::with_seed(u64::from(seed));
                    for round in 0..mutations {
                        let postcard = round % 2 == 1;
                        let mut save = if postcard { bytes.clone() } else { json.clone() };
                        mutate(&mut rng, &mut save);
                        let declared = declared::<$blank>(&save, postcard);
                        loaded_fuses();
                        let mutant = if postcard {
                            postcard::from_bytes::<Columns>(&save).ok()
                        } else {
                            serde_json::from_slice::<Columns>(&save).ok()
                        };
                        let read = loaded_fuses();
                        if let Some(declared) = declared {
                            assert!(
                                read <= declared + 1,
                                "step {step}: a load read {read} rows for {declared} live slots"
                            );
                        }
                        if let Some(mut mutant) = mutant {
                            mutant.check_consistency().expect("a mutated save's books");
                            let _ = column_rows!(mutant);
                            while mutant.try_create(|r| *r.id = 1).is_ok() {}
                            mutant.release_all();
                            mutant.check_consistency().expect("a mutated save, used");
                        }
                    }
                    // Carry on with the loaded pools, in one format or the other.
                    columns = if seed % 2 == 0 { from_json } else { from_bytes };
                    let saved = postcard::to_allocvec(&twin).expect("a pool saves");
                    twin = postcard::from_bytes(&saved).expect("a save loads");
                }
                Op::Trap {
                    hook: Hook::Drop,
                    entry: entry @ (Entry::Shrink | Entry::Snapshot),
                    skip,
                    ..
                } => {
                    if entry == Entry::Shrink {
                        trapped(Hook::Drop, skip, || run_twins!(@shrink $shrink, columns));
                        trapped(Hook::Drop, skip, || run_twins!(@shrink $shrink, twin));
                    } else {
                        trapped(Hook::Drop, skip, || columns = columns.clone());
                        trapped(Hook::Drop, skip, || twin = twin.clone());
                        // The hook fires at another point in each layout (a column clone
                        // overwrites blank rows): a clone that did not happen is made unarmed.
                        match (columns.stats().leased, twin.stats().leased) {
                            (a, b) if a == b => {}
                            (0, _) => twin = twin.clone(),
                            _ => columns = columns.clone(),
                        }
                    }
                    columns.check_consistency().expect("the books after a panicking Drop");
                }
                Op::Trap { hook: Hook::ResetWith, pick, skip, .. } if !handles.is_empty() => {
                    let (a, b) = handles[pick % handles.len()];
                    let (a, _) = trapped(Hook::ResetWith, skip, || columns.release(a).is_ok());
                    let (b, _) = trapped(Hook::ResetWith, skip, || twin.release(b).is_ok());
                    assert_eq!(a, b, "step {step}");
                }
                Op::Get { pick } | Op::Foreign { pick, .. } | Op::Trap { pick, .. }
                    if !handles.is_empty() =>
                {
                    let (a, b) = handles[pick % handles.len()];
                    let a = columns.get(a).map(|r| (*r.id, r.name.clone()));
                    let b = twin.get(b).map(|t| (t.id, t.name.clone()));
                    assert_eq!(a, b, "step {step}");
                }
                _ => {}
            }
            let (rows, twins) = rows!(columns, twin);
            assert_eq!(rows, twins, "step {step}: {op:?}");
            assert!(
                same_stats(columns.stats(), twin.stats()),
                "step {step}: {op:?}: {:?} {:?}",
                columns.stats(),
                twin.stats()
            );
        }
        columns.check_consistency().expect("the books add up");
    }};
    (@shrink true, $pool:ident) => {
        $pool.shrink()
    };
    (@shrink false, $pool:ident) => {
        0
    };
    // A copy holds what the pool holds, row by row and handle by handle, its books whole and
    // the slots of forgotten leases free.
    (@copy $pool:ident, $copy:ident, $what:expr, $step:ident) => {
        $copy.check_consistency().unwrap_or_else(|why| panic!("step {}: {}: {why}", $step, $what));
        assert!(
            same_stats($copy.stats(), given_back($pool.stats())),
            "step {}: {}'s stats",
            $step,
            $what
        );
        assert_eq!(column_rows!($copy), column_rows!($pool), "step {}: {}", $step, $what);
    };
}

/// The column pool of a column struct.
trait ColumnsOf {
    type Pool;
}

/// The pool of a twin.
trait TwinOf {
    type Pool;
}

macro_rules! pools {
    ($($column:ident, $twin:ident, $columns_pool:ident, $twin_pool:ident;)*) => {
        $(
            impl ColumnsOf for $column {
                type Pool = $columns_pool;
            }
            impl TwinOf for $twin {
                type Pool = $twin_pool;
            }
        )*
    };
}

pools! {
    FailColumns, FailTwin, FailColumnsPool, FailTwinPool;
    GrowColumns, GrowTwin, GrowColumnsPool, GrowTwinPool;
    EvictColumns, EvictTwin, EvictColumnsPool, EvictTwinPool;
    InlineColumns, InlineTwin, InlineColumnsPool, InlineTwinPool;
}

/// Runs `ops` on the column pool and twin `which` picks: fail, grow, evict or inline.
pub(crate) fn run(ops: &[Op], which: u8) {
    // Under the fuzzer any other panic aborts: the ones caused on purpose are let through.
    crate::model::quiet_panics();
    match which % 4 {
        0 => run_twins!(ops, FailColumns, FailTwin, Blank, result, shrink = false),
        1 => run_twins!(ops, GrowColumns, GrowTwin, Blank, result, shrink = true),
        2 => run_twins!(ops, EvictColumns, EvictTwin, Blank, handle, shrink = false),
        _ => run_twins!(
            ops,
            InlineColumns,
            InlineTwin,
            InlineBlank,
            result,
            shrink = false
        ),
    }
}
