//! Operation sequences run on a column pool and on its twin in the default layout, which must
//! agree after every step: the same slots, fields, counts and errors. For
//! `tests/column_twin.rs` and the fuzzer's `ops` target. The model's operations (`model::Op`)
//! are read as far as a column pool has them; the rest look objects up.

use crate::model::Op;
use pooling::{Pooled, Stats};
use std::panic::{AssertUnwindSafe, catch_unwind};

/// A column struct and its twin in the default layout, each with its attributes. A column
/// pool saves every field with the field's own `Serialize`, so the fields are all plain.
macro_rules! twins {
    ($column:ident [$($column_attr:tt)*], $twin:ident [$($twin_attr:tt)*]) => {
        #[derive(Pooled)]
        #[pool($($column_attr)* layout = columns)]
        pub(crate) struct $column {
            id: u64,
            name: String,
        }

        #[derive(Pooled, Clone, serde::Serialize, serde::Deserialize)]
        #[pool($($twin_attr)*)]
        pub(crate) struct $twin {
            id: u64,
            name: String,
        }
    };
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
    ($columns:expr, $twin:expr) => {{
        let rows: Vec<_> = ($columns.iter())
            .map(|(h, r)| (h.index(), *r.id, r.name.clone()))
            .collect();
        let twins: Vec<_> = ($twin.iter())
            .map(|(h, t)| (h.index(), t.id, t.name.clone()))
            .collect();
        (rows, twins)
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

/// Runs `ops` on a column pool of `$column` and a pool of `$twin`, checking after each.
macro_rules! run_twins {
    ($ops:expr, $column:ident, $twin:ident, $create:ident, shrink = $shrink:tt) => {{
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
                Op::Shrink => run_twins!(@shrink $shrink, columns, twin, step),
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
                Op::Snapshot => {
                    columns = columns.clone();
                    twin = twin.clone();
                }
                Op::Save { .. } => {
                    let saved = serde_json::to_string(&columns).expect("a pool saves");
                    columns = serde_json::from_str(&saved).expect("a save loads");
                    let saved = serde_json::to_string(&twin).expect("a pool saves");
                    twin = serde_json::from_str(&saved).expect("a save loads");
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
            assert!(same_stats(columns.stats(), twin.stats()), "step {step}: {op:?}");
        }
        columns.check_consistency().expect("the books add up");
    }};
    (@shrink true, $columns:ident, $twin:ident, $step:ident) => {
        assert_eq!($columns.shrink(), $twin.shrink(), "step {}", $step)
    };
    (@shrink false, $columns:ident, $twin:ident, $step:ident) => {
        ()
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
        0 => run_twins!(ops, FailColumns, FailTwin, result, shrink = false),
        1 => run_twins!(ops, GrowColumns, GrowTwin, result, shrink = true),
        2 => run_twins!(ops, EvictColumns, EvictTwin, handle, shrink = false),
        _ => run_twins!(ops, InlineColumns, InlineTwin, result, shrink = false),
    }
}
