//! A panic in user code (`init`, a `reset_with` function, a field's `Drop`) leaves the pool
//! consistent: every slot is live or free, never lost, never shared.

use pooling::Pooled;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::rc::Rc;

thread_local! {
    static FAIL_RESET: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

fn fallible_reset(value: &mut u32) {
    assert!(!FAIL_RESET.get(), "reset failed");
    *value = 0;
}

#[derive(Pooled)]
#[pool(size = 2)]
struct Fragile {
    #[pool(reset_with = fallible_reset)]
    value: u32,
    held: Option<Rc<()>>,
}

#[test]
fn a_panic_in_init_puts_the_slot_back_reset() {
    let shared = Rc::new(());
    let mut pool = FragilePool::new();
    let result = catch_unwind(AssertUnwindSafe(|| {
        pool.create(|f| {
            f.held = Some(Rc::clone(&shared));
            panic!("init failed");
        })
    }));
    assert!(result.is_err());
    assert_eq!(Rc::strong_count(&shared), 1);
    assert!(pool.is_empty());
    assert_eq!(pool.stats().free, 2);
    let a = pool.create(|f| f.value = 1).unwrap();
    let b = pool.create(|f| f.value = 2).unwrap();
    assert_ne!(a.index(), b.index(), "the slot was not handed out twice");
    assert!(pool.is_full());
}

#[test]
fn a_panic_in_a_reset_function_leaves_the_object_live() {
    let mut pool = FragilePool::new();
    let h = pool.create(|f| f.value = 5).unwrap();
    FAIL_RESET.set(true);
    let result = catch_unwind(AssertUnwindSafe(|| pool.release(h)));
    FAIL_RESET.set(false);
    assert!(result.is_err());
    assert!(
        pool.contains(h),
        "the object stays live and its handle valid"
    );
    assert_eq!(pool.len(), 1);
    pool.release(h).unwrap();
    assert!(pool.is_empty());
    assert_eq!(pool.stats().free, 2);
}

#[test]
fn a_panic_in_retain_keeps_what_was_decided() {
    let mut pool = FragilePool::new();
    let a = pool.create(|f| f.value = 1).unwrap();
    let b = pool.create(|f| f.value = 2).unwrap();
    let result = catch_unwind(AssertUnwindSafe(|| {
        pool.retain(|f| {
            assert_ne!(f.value, 2, "keep failed");
            false
        });
    }));
    assert!(result.is_err());
    assert!(!pool.contains(a), "released before the panic");
    assert!(pool.contains(b), "untouched after it");
    assert_eq!(pool.len(), 1);
}

#[derive(Pooled)]
#[pool(size = 128)]
struct Plain {
    value: u32,
}

#[derive(Pooled)]
#[pool(size = 128, layout = columns)]
struct PlainColumns {
    value: u32,
}

/// A plain type's full word is decided whole before its releases: a panic part-way releases
/// the slots decided so far and leaves the rest live. Objects gather the decisions as bits,
/// columns as bytes: both are checked.
#[test]
fn a_panic_in_retain_inside_a_full_word_keeps_what_was_decided() {
    let mut pool = PlainPool::new();
    let handles: Vec<_> = (0..128)
        .map(|value| pool.create(|p| p.value = value).unwrap())
        .collect();
    let result = catch_unwind(AssertUnwindSafe(|| {
        pool.retain(|p| {
            assert_ne!(p.value, 40, "keep failed");
            p.value % 3 != 0
        });
    }));
    let contains: Vec<bool> = handles.iter().map(|&h| pool.contains(h)).collect();
    assert_decided(result.is_err(), &contains, pool.len());
    pool.check_consistency().unwrap();
    // The pool goes on: the released slots are free, the rest decided again.
    pool.retain(|p| p.value % 3 != 0);
    assert_eq!(pool.len(), 128 - 43);
    assert_eq!(pool.create_many(50, |_, _| {}), 43);
    pool.check_consistency().unwrap();

    let mut pool = PlainColumnsPool::new();
    let handles: Vec<_> = (0..128)
        .map(|value| pool.create(|p| *p.value = value).unwrap())
        .collect();
    let result = catch_unwind(AssertUnwindSafe(|| {
        pool.retain(|p| {
            assert_ne!(*p.value, 40, "keep failed");
            *p.value % 3 != 0
        });
    }));
    let contains: Vec<bool> = handles.iter().map(|&h| pool.contains(h)).collect();
    assert_decided(result.is_err(), &contains, pool.len());
    pool.retain(|p| *p.value % 3 != 0);
    assert_eq!(pool.len(), 128 - 43);
    assert_eq!(pool.create_many(50, |_, _| {}), 43);
}

/// After `retain` panicked at object 40 of 128: the multiples of 3 below it released, the
/// rest live.
fn assert_decided(panicked: bool, contains: &[bool], len: usize) {
    assert!(panicked);
    for (value, &live) in contains.iter().enumerate() {
        let released = value < 40 && value % 3 == 0;
        assert_eq!(live, !released, "object {value}");
    }
    assert_eq!(len, 128 - 14);
}

struct Bomb(bool);

impl Drop for Bomb {
    fn drop(&mut self) {
        assert!(!self.0, "drop failed");
    }
}

#[derive(Pooled)]
#[pool(size = 1)]
struct Armed {
    bombs: Vec<Bomb>,
}

#[test]
fn a_panicking_drop_during_release_leaves_the_pool_usable() {
    let mut pool = ArmedPool::new();
    let h = pool.create(|a| a.bombs.push(Bomb(true))).unwrap();
    let result = catch_unwind(AssertUnwindSafe(|| pool.release(h)));
    assert!(result.is_err());
    // `Vec::clear` empties the vector before dropping its elements, so the object is blank and
    // still live: release it again.
    assert!(pool.get(h).is_some_and(|a| a.bombs.is_empty()));
    pool.release(h).unwrap();
    assert!(pool.create(|_| {}).is_ok());
}

#[derive(Pooled)]
#[pool(size = 2, on_full = evict, evict_by = Voice::priority)]
struct Voice {
    priority: u32,
    sample: Option<Rc<()>>,
}

impl Voice {
    fn priority(&self) -> u32 {
        self.priority
    }
}

#[test]
fn a_panic_in_init_after_an_eviction_leaves_the_victim_gone_and_the_slot_free() {
    let sample = Rc::new(());
    let mut pool = VoicePool::new();
    let quiet = pool.create(|v| {
        v.priority = 1;
        v.sample = Some(Rc::clone(&sample));
    });
    let loud = pool.create(|v| v.priority = 9);
    let result = catch_unwind(AssertUnwindSafe(|| {
        pool.create(|v| {
            v.sample = Some(Rc::clone(&sample));
            panic!("init failed");
        })
    }));
    assert!(result.is_err());
    assert!(
        !pool.contains(quiet),
        "the victim was evicted before init ran"
    );
    assert!(pool.contains(loud));
    assert_eq!(
        Rc::strong_count(&sample),
        1,
        "both the victim and the half-built voice let go"
    );
    let stats = pool.stats();
    assert_eq!((stats.live, stats.free, stats.evicted), (1, 1, 1));
    let next = pool.create(|v| v.priority = 5);
    assert_eq!(next.index(), quiet.index(), "the freed slot is reused");
}

#[derive(Pooled)]
#[pool(size = 1, on_full = grow, max = 4)]
struct Enemy {
    loot: Vec<u32>,
}

#[test]
fn a_panic_in_init_after_growing_leaves_the_new_slots_free() {
    let mut pool = EnemyPool::new();
    let first = pool.create(|e| e.loot.push(1)).unwrap();
    let result = catch_unwind(AssertUnwindSafe(|| {
        pool.create(|e| {
            e.loot.push(2);
            panic!("init failed");
        })
    }));
    assert!(result.is_err());
    let stats = pool.stats();
    assert_eq!((stats.capacity, stats.live, stats.free), (2, 1, 1));
    let second = pool.create(|_| {}).unwrap();
    assert!(
        pool.get(second).unwrap().loot.is_empty(),
        "no loot left from the panicked init"
    );
    assert_eq!(pool.get(first).unwrap().loot, [1]);
}

thread_local! {
    static FAIL_DROP: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// Panics in `drop` once, when `FAIL_DROP` is set.
#[derive(Default)]
struct Fuse;

impl Drop for Fuse {
    fn drop(&mut self) {
        assert!(!FAIL_DROP.replace(false), "drop failed");
    }
}

#[derive(Pooled)]
#[pool(size = 2, on_full = grow, max = 32)]
struct Cargo {
    id: u32,
    #[pool(keep)]
    _fuse: Fuse,
}

#[test]
fn a_panicking_drop_while_shrink_frees_chunks_leaves_the_pool_consistent() {
    let mut pool = CargoPool::new();
    let handles: Vec<_> = (0..14)
        .map(|i| pool.create(|c| c.id = i).unwrap())
        .collect();
    assert_eq!((pool.capacity(), pool.stats().chunks), (16, 4));
    let kept = handles[0];
    for &handle in &handles[1..] {
        pool.release(handle).unwrap();
    }
    FAIL_DROP.set(true);
    let result = catch_unwind(AssertUnwindSafe(|| pool.shrink()));
    assert!(result.is_err(), "the drop's panic reaches the caller");
    assert!(!FAIL_DROP.get(), "the drop ran");

    // Every wholly free chunk was freed, the others dropping while the panic unwound.
    let stats = pool.stats();
    assert_eq!((stats.capacity, stats.chunks, stats.live), (2, 1, 1));
    assert_eq!(stats.free, 1);
    assert_eq!(
        pool.iter().map(|(h, c)| (h, c.id)).collect::<Vec<_>>(),
        [(kept, 0)]
    );
    for &handle in &handles[1..] {
        assert!(!pool.contains(handle));
    }
    // The free list holds exactly the slots that are left: fill the pool and grow it again.
    let again: Vec<_> = (0..15)
        .map(|i| pool.create(|c| c.id = 100 + i).unwrap())
        .collect();
    assert_eq!(pool.capacity(), 16);
    assert_eq!(pool.len(), 16);
    let mut indices: Vec<usize> = again.iter().map(|h| h.index()).collect();
    indices.sort_unstable();
    indices.dedup();
    assert_eq!(indices.len(), 15, "no slot handed out twice");
    assert_eq!(
        pool.values().map(|c| c.id).sum::<u32>(),
        (100..115u32).sum::<u32>()
    );
}

#[derive(Pooled)]
#[pool(size = 2, on_full = grow, max = 32, layout = columns)]
struct Crate {
    id: u32,
    #[pool(keep)]
    _fuse: Fuse,
}

/// Every way a column pool reaches its rows: handle by handle with `get`, and the walks.
fn column_walks(pool: &mut CratePool) -> [Vec<(Option<usize>, u32)>; 5] {
    let by_get = (pool.iter().map(|(h, _)| h).collect::<Vec<_>>().into_iter())
        .map(|h| (Some(h.index()), *pool.get(h).expect("a live handle").id))
        .collect();
    let iter = pool.iter().map(|(h, c)| (Some(h.index()), *c.id)).collect();
    let values = pool.values().map(|c| (None, *c.id)).collect();
    let runs = (pool.runs())
        .flat_map(|run| run.id.iter().map(|&id| (None, id)).collect::<Vec<_>>())
        .collect();
    let runs_mut = (pool.runs_mut())
        .flat_map(|run| run.id.iter().map(|&id| (None, id)).collect::<Vec<_>>())
        .collect();
    [by_get, iter, values, runs, runs_mut]
}

#[test]
fn a_panicking_drop_while_a_column_pool_shrinks_leaves_every_walk_on_the_live_rows() {
    let mut pool = CratePool::new();
    let handles: Vec<_> = (0..14)
        .map(|i| pool.create(|c| *c.id = i).unwrap())
        .collect();
    assert_eq!((pool.capacity(), pool.stats().chunks), (16, 4));
    // The chunks [2, 4) and [4, 8) emptied; [0, 2) and [8, 16) keep objects.
    for &handle in &handles[1..8] {
        pool.release(handle).unwrap();
    }
    let kept: Vec<(usize, u32)> = (handles.iter().enumerate())
        .filter(|&(i, _)| i == 0 || i >= 8)
        .map(|(i, h)| (h.index(), u32::try_from(i).unwrap()))
        .collect();
    FAIL_DROP.set(true);
    let result = catch_unwind(AssertUnwindSafe(|| pool.shrink()));
    assert!(result.is_err(), "the drop's panic reaches the caller");
    assert!(!FAIL_DROP.get(), "the drop ran");

    let stats = pool.stats();
    assert_eq!((stats.capacity, stats.chunks, stats.live), (10, 2, 7));
    pool.check_consistency().unwrap();
    let ids: Vec<u32> = kept.iter().map(|&(_, id)| id).collect();
    let [by_get, iter, values, runs, runs_mut] = column_walks(&mut pool);
    let with_slots: Vec<_> = kept.iter().map(|&(at, id)| (Some(at), id)).collect();
    assert_eq!(by_get, with_slots);
    assert_eq!(iter, with_slots);
    for walk in [values, runs, runs_mut] {
        assert_eq!(walk.into_iter().map(|(_, id)| id).collect::<Vec<_>>(), ids);
    }
    // Grown again into the positions given back, each new row is reached at its handle.
    let again: Vec<_> = (100..109)
        .map(|i| (pool.create(|c| *c.id = i).unwrap(), i))
        .collect();
    assert_eq!(pool.capacity(), 16);
    for (h, id) in again {
        assert_eq!(pool.get(h).map(|c| *c.id), Some(id));
    }
    let [by_get, iter, values, runs, runs_mut] = column_walks(&mut pool);
    assert_eq!(by_get, iter);
    let ids: Vec<u32> = iter.iter().map(|&(_, id)| id).collect();
    for walk in [values, runs, runs_mut] {
        assert_eq!(walk.into_iter().map(|(_, id)| id).collect::<Vec<_>>(), ids);
    }
}

// ---------------------------------------------------------------------------------------------
// A panic in every user hook, at every entry point that runs it: the pool stays whole.

mod every_hook {
    use pooling::{Evict, Fail, Grow, Inline, Pool, Pooled, Reset, Storage, SyncPool};
    use serde::{Deserialize, Serialize};
    use std::cell::Cell;
    use std::collections::BTreeSet;
    use std::panic::{AssertUnwindSafe, catch_unwind};

    /// The user code a pool runs, each of which may panic.
    #[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Debug)]
    pub(crate) enum Hook {
        /// A field's `Default` (a `keep` field) or `Reset::blank`: building blank objects.
        Default,
        /// `Reset::reset` of a plain field: at reuse, before `init`.
        PlainReset,
        /// `#[pool(reset = expr)]` on a plain field: at reuse.
        ResetExpr,
        /// `Reset::reset` of a field that owns something: at release.
        OwnedReset,
        /// `#[pool(reset_with = f)]`: at release.
        ResetWith,
        /// The caller's `init`.
        Init,
        /// `Clone::clone` of the object.
        Clone,
        /// The `evict_by` measure.
        Measure,
        /// A field's `Drop`.
        Drop,
    }

    pub(crate) const HOOKS: [Hook; 9] = [
        Hook::Default,
        Hook::PlainReset,
        Hook::ResetExpr,
        Hook::OwnedReset,
        Hook::ResetWith,
        Hook::Init,
        Hook::Clone,
        Hook::Measure,
        Hook::Drop,
    ];

    thread_local! {
        /// The hook to panic and how many of its calls to let pass first.
        static ARMED: Cell<Option<(Hook, u32)>> = const { Cell::new(None) };
        /// Objects with a `Drop` alive now: made less dropped, so that a leak or a double drop
        /// shows.
        static ALIVE: Cell<i64> = const { Cell::new(0) };
    }

    /// Panics if `hook` is armed and its turn has come; then disarms, so that the unwinding
    /// runs no second panic.
    pub(crate) fn hook(hook: Hook) {
        if let Some((armed, left)) = ARMED.get()
            && armed == hook
        {
            if left == 0 {
                ARMED.set(None);
                panic!("{hook:?} panics on purpose");
            }
            ARMED.set(Some((armed, left - 1)));
        }
    }

    pub(crate) fn arm(hook: Hook, skip: u32) {
        quiet_panics();
        ARMED.set(Some((hook, skip)));
    }

    /// Calls of a hook to let pass before it panics, one after another: fewer under Miri.
    const SKIPS: u32 = if cfg!(miri) { 1 } else { 4 };

    /// Silences the panics the hooks raise on purpose; any other goes to the hook there was.
    fn quiet_panics() {
        static QUIET: std::sync::Once = std::sync::Once::new();
        QUIET.call_once(|| {
            let previous = std::panic::take_hook();
            std::panic::set_hook(Box::new(move |info| {
                let payload = info.payload();
                let message = (payload.downcast_ref::<String>().map(String::as_str))
                    .or_else(|| payload.downcast_ref::<&str>().copied())
                    .unwrap_or("");
                if !message.contains("panics on purpose") {
                    previous(info);
                }
            }));
        });
    }

    /// Disarms, and says whether the armed hook fired.
    pub(crate) fn disarm() -> bool {
        ARMED.take().is_none()
    }

    pub(crate) fn alive() -> i64 {
        ALIVE.get()
    }

    /// A field whose `Default` and `Drop` are hooks.
    pub(crate) struct Fuse(());

    impl Default for Fuse {
        fn default() -> Self {
            hook(Hook::Default);
            ALIVE.set(ALIVE.get() + 1);
            Fuse(())
        }
    }

    impl Drop for Fuse {
        fn drop(&mut self) {
            ALIVE.set(ALIVE.get() - 1);
            hook(Hook::Drop);
        }
    }

    /// Plain data whose `Reset` is a hook.
    #[derive(Clone, Copy, Serialize, Deserialize, Default)]
    pub(crate) struct Plain(u32);

    impl Reset for Plain {
        fn reset(&mut self) {
            hook(Hook::PlainReset);
            self.0 = 0;
        }

        fn blank() -> Self {
            hook(Hook::Default);
            Plain(0)
        }
    }

    /// A field that owns something, whose `Reset` is a hook.
    #[derive(Default, Clone, Serialize, Deserialize)]
    pub(crate) struct Owned(Option<Box<u32>>);

    impl Reset for Owned {
        fn reset(&mut self) {
            hook(Hook::OwnedReset);
            self.0 = None;
        }

        fn blank() -> Self {
            Owned(None)
        }
    }

    /// A `Drop` hook held in a collection: dropped when the collection is cleared at release.
    pub(crate) struct Held;

    impl Held {
        pub(crate) fn new() -> Self {
            ALIVE.set(ALIVE.get() + 1);
            Held
        }
    }

    impl Drop for Held {
        fn drop(&mut self) {
            ALIVE.set(ALIVE.get() - 1);
            hook(Hook::Drop);
        }
    }

    fn plain_value() -> u32 {
        hook(Hook::ResetExpr);
        0
    }

    fn reset_with(value: &mut u32) {
        hook(Hook::ResetWith);
        *value = 0;
    }

    fn measure(trap: &Trap) -> u32 {
        hook(Hook::Measure);
        trap.rank
    }

    #[derive(Pooled, Serialize, Deserialize)]
    #[pool(size = 4, on_full = evict, evict_by = measure)]
    pub(crate) struct Trap {
        pub(crate) rank: u32,
        plain: Plain,
        #[pool(reset = plain_value())]
        counter: u32,
        #[pool(reset_with = reset_with)]
        with: u32,
        owned: Owned,
        #[serde(skip)]
        held: Vec<Held>,
        #[pool(keep)]
        #[serde(skip)]
        _fuse: Fuse,
    }

    impl Clone for Trap {
        fn clone(&self) -> Self {
            hook(Hook::Clone);
            Trap {
                rank: self.rank,
                plain: self.plain,
                counter: self.counter,
                with: self.with,
                owned: self.owned.clone(),
                held: self.held.iter().map(|_| Held::new()).collect(),
                _fuse: Fuse::default(),
            }
        }
    }

    /// What `init` sets: every field away from blank, so every reset has work to do.
    pub(crate) fn fill(rank: u32) -> impl FnOnce(&mut Trap) {
        move |t| {
            hook(Hook::Init);
            t.rank = rank;
            t.plain = Plain(rank + 1);
            t.counter = rank + 2;
            t.with = rank + 3;
            t.owned = Owned(Some(Box::new(rank)));
            t.held.push(Held::new());
        }
    }

    /// Checks a pool after a hook panicked: its books whole, every object released, then
    /// every slot that is not retired lent at once (none lost, none twice), and the books whole
    /// again.
    fn assert_whole<S, B: Storage>(pool: &mut Pool<Trap, S, B>, context: &str) {
        pool.check_consistency()
            .unwrap_or_else(|why| panic!("{context}: {why}"));
        let stats = pool.stats();
        assert_eq!(pool.iter().count(), stats.live, "{context}");
        pool.release_all();
        pool.check_consistency()
            .unwrap_or_else(|why| panic!("{context}, released: {why}"));
        let stats = pool.stats();
        assert_eq!(
            stats.free + stats.retired,
            stats.capacity,
            "{context}: {stats:?}"
        );
        {
            let lender = pool.lender();
            let leases: Vec<_> = std::iter::from_fn(|| lender.try_acquire(|_| {}).ok()).collect();
            assert_eq!(
                leases.len(),
                stats.capacity - stats.retired,
                "{context}: every slot takeable"
            );
            assert_eq!(lender.stats().failed, stats.failed + 1, "{context}");
        }
        pool.check_consistency()
            .unwrap_or_else(|why| panic!("{context}, leases back: {why}"));
        assert_eq!(pool.stats().free, stats.free, "{context}");
    }

    /// Three objects made, the middle one released: slots live, free and never used.
    fn prepare<S, B: Storage>(pool: &mut Pool<Trap, S, B>) -> Vec<pooling::Handle<Trap>> {
        let handles: Vec<_> = (1..=3)
            .map(|rank| pool.try_create(fill(rank)).unwrap())
            .collect();
        pool.release(handles[1]).unwrap();
        handles
    }

    type Op<P> = (&'static str, fn(&mut P));

    /// Runs every op on a fresh pool from `new` with every hook panicking at each of its first
    /// calls; returns the (hook, op) pairs that fired.
    fn matrix<S, B: Storage>(
        kind: &str,
        new: impl Fn() -> Pool<Trap, S, B>,
        ops: &[Op<Pool<Trap, S, B>>],
        fired: &mut BTreeSet<(Hook, String)>,
    ) {
        for (o, &(name, op)) in ops.iter().enumerate() {
            for (h, hook) in HOOKS.into_iter().enumerate() {
                // Under Miri, a third of the pairs, a different third for each pool kind.
                if cfg!(miri) && !(o + h + kind.len()).is_multiple_of(3) {
                    continue;
                }
                for skip in 0..SKIPS {
                    let before = alive();
                    {
                        let mut pool = new();
                        prepare(&mut pool);
                        arm(hook, skip);
                        let outcome = catch_unwind(AssertUnwindSafe(|| op(&mut pool)));
                        let hit = disarm();
                        assert_eq!(hit, outcome.is_err(), "{kind} {name} {hook:?} {skip}");
                        if hit {
                            fired.insert((hook, format!("{kind} {name}")));
                        }
                        assert_whole(&mut pool, &format!("{kind} {name}, {hook:?} #{skip}"));
                    }
                    assert_eq!(
                        alive(),
                        before,
                        "{kind} {name} {hook:?} {skip}: a leak or a double drop"
                    );
                }
            }
        }
    }

    /// The ops every pool has.
    fn common<S, B: Storage>() -> Vec<Op<Pool<Trap, S, B>>> {
        vec![
            ("try_create", |p| {
                p.try_create(fill(7)).unwrap();
            }),
            ("try_create_with_handle", |p| {
                p.try_create_with_handle(|_, t| fill(7)(t)).unwrap();
            }),
            ("try_acquire and drop", |p| {
                drop(p.lender().try_acquire(fill(7)).unwrap());
            }),
            ("try_acquire and into_handle", |p| {
                p.lender().try_acquire(fill(7)).unwrap().into_handle();
            }),
            ("release", |p| {
                let h = p.iter().next().unwrap().0;
                p.release(h).unwrap();
            }),
            ("release_all", |p| p.release_all()),
            ("retain", |p| p.retain(|t| t.rank > 2)),
            ("clone", |p| drop(p.clone())),
            ("nested acquire in init", |p| {
                let pool = &p.lender();
                drop(pool.try_acquire(|t| {
                    drop(pool.try_acquire(fill(8)));
                    fill(9)(t);
                }));
            }),
        ]
    }

    #[test]
    fn a_panic_in_any_hook_at_any_entry_point_leaves_the_pool_whole() {
        let mut fired = BTreeSet::new();

        let mut ops = common::<Fail, pooling::Heap>();
        ops.push(("create", |p| {
            p.create(fill(7)).unwrap();
        }));
        ops.push(("acquire", |p| drop(p.lender().acquire(fill(7)).unwrap())));
        ops.push(("deserialize", |p| {
            let save = serde_json::to_string(&*p).unwrap();
            drop(serde_json::from_str::<Pool<Trap, Fail>>(&save));
        }));
        matrix("fail", Pool::<Trap, Fail>::new, &ops, &mut fired);

        let mut ops = common::<Evict, pooling::Heap>();
        ops.push(("create when full", |p| {
            p.create(fill(7));
            p.create(fill(8));
            p.create(fill(9));
        }));
        ops.push(("create_with_handle", |p| {
            p.create_with_handle(|_, t| fill(7)(t));
        }));
        ops.push(("victim", |p| assert!(p.victim().is_some())));
        matrix("evict", Pool::<Trap, Evict>::new, &ops, &mut fired);

        let mut ops = common::<Grow<32>, pooling::Heap>();
        ops.push(("create when full", |p| {
            for rank in 0..6 {
                p.create(fill(rank)).unwrap();
            }
        }));
        ops.push(("acquire when full", |p| {
            let lender = p.lender();
            let leases: Vec<_> = (0..6)
                .map(|rank| lender.acquire(fill(rank)).unwrap())
                .collect();
            drop(leases);
        }));
        ops.push(("shrink", |p| {
            for rank in 0..6 {
                p.create(fill(rank)).unwrap();
            }
            let all: Vec<_> = p.iter().map(|(h, _)| h).collect();
            for h in all {
                p.release(h).unwrap();
            }
            p.shrink();
        }));
        matrix("grow", Pool::<Trap, Grow<32>>::new, &ops, &mut fired);

        let mut ops = common::<Fail, Inline<8, 1>>();
        ops.push(("prefill", |p| p.prefill()));
        ops.push(("create past the built slots", |p| {
            for rank in 0..5 {
                p.try_create(fill(rank)).unwrap();
            }
        }));
        matrix(
            "inline",
            Pool::<Trap, Fail, Inline<8, 1>>::new,
            &ops,
            &mut fired,
        );

        if cfg!(miri) {
            assert!(fired.len() > 20, "hooks fired: {fired:?}");
            return;
        }
        // Every hook fired somewhere, and the pairs known to have lost slots fired.
        for hook in HOOKS {
            assert!(
                fired.iter().any(|(h, _)| *h == hook),
                "{hook:?} never fired"
            );
        }
        for (hook, op) in [
            (Hook::PlainReset, "fail try_acquire and drop"),
            (Hook::ResetExpr, "fail acquire"),
            (Hook::PlainReset, "evict create when full"),
            (Hook::Measure, "evict create when full"),
            (Hook::Default, "grow create when full"),
            (Hook::Drop, "grow shrink"),
            (Hook::Clone, "inline clone"),
            (Hook::Default, "inline prefill"),
            (Hook::Default, "fail deserialize"),
            (Hook::OwnedReset, "fail try_acquire and drop"),
            (Hook::PlainReset, "grow nested acquire in init"),
        ] {
            assert!(
                fired.contains(&(hook, op.to_owned())),
                "{hook:?} never fired in {op}"
            );
        }
    }

    /// A sync pool after a hook panicked: its books whole, and every slot not retired
    /// takeable.
    fn assert_sync_whole(
        pool: &SyncPool<Trap, Fail>,
        live: &[pooling::Handle<Trap>],
        context: &str,
    ) {
        pool.check_consistency()
            .unwrap_or_else(|why| panic!("{context}: {why}"));
        for &h in live {
            let _ = pool.release(h);
        }
        pool.check_consistency()
            .unwrap_or_else(|why| panic!("{context}, released: {why}"));
        let stats = pool.stats();
        assert_eq!((stats.live, stats.leased), (0, 0), "{context}");
        let leases: Vec<_> = std::iter::from_fn(|| pool.try_acquire(|_| {}).ok()).collect();
        assert_eq!(
            leases.len(),
            stats.capacity - stats.retired,
            "{context}: every slot takeable"
        );
        drop(leases);
        pool.check_consistency()
            .unwrap_or_else(|why| panic!("{context}, leases back: {why}"));
    }

    type SyncOp = (
        &'static str,
        fn(&SyncPool<Trap, Fail>, &mut Vec<pooling::Handle<Trap>>),
    );

    #[test]
    fn a_panic_in_any_hook_leaves_a_sync_pool_whole() {
        let ops: [SyncOp; 7] = [
            ("create", |p, live| live.push(p.create(fill(7)).unwrap())),
            ("try_create_with_handle", |p, live| {
                live.push(p.try_create_with_handle(|_, t| fill(7)(t)).unwrap());
            }),
            ("acquire and drop", |p, _| drop(p.acquire(fill(7)).unwrap())),
            ("try_acquire and into_handle", |p, live| {
                live.push(p.try_acquire(fill(7)).unwrap().into_handle());
            }),
            ("release", |p, live| p.release(live[0]).unwrap()),
            ("guard drop", |p, live| {
                let guard = p.get(live[0]).unwrap();
                p.release(live[0]).unwrap();
                drop(guard);
            }),
            ("nested acquire in init", |p, _| {
                drop(p.try_acquire(|t| {
                    drop(p.try_acquire(fill(8)));
                    fill(9)(t);
                }));
            }),
        ];
        let mut fired = BTreeSet::new();
        for (name, op) in ops {
            for hook in HOOKS {
                for skip in 0..SKIPS.min(3) {
                    let before = alive();
                    {
                        let pool = SyncPool::<Trap, Fail>::with_capacity(4);
                        let mut live: Vec<_> = (1..=3)
                            .map(|rank| pool.create(fill(rank)).unwrap())
                            .collect();
                        pool.release(live.remove(1)).unwrap();
                        arm(hook, skip);
                        let outcome = catch_unwind(AssertUnwindSafe(|| op(&pool, &mut live)));
                        let hit = disarm();
                        assert_eq!(hit, outcome.is_err(), "sync {name} {hook:?} {skip}");
                        if hit {
                            fired.insert((hook, name));
                        }
                        assert_sync_whole(&pool, &live, &format!("sync {name}, {hook:?} #{skip}"));
                    }
                    assert_eq!(
                        alive(),
                        before,
                        "sync {name} {hook:?}: a leak or a double drop"
                    );
                }
            }
        }
        for (hook, op) in [
            (Hook::PlainReset, "create"),
            (Hook::ResetExpr, "acquire and drop"),
            (Hook::OwnedReset, "release"),
            (Hook::ResetWith, "guard drop"),
            (Hook::Drop, "acquire and drop"),
            (Hook::Init, "create"),
        ] {
            assert!(
                fired.contains(&(hook, op)),
                "{hook:?} never fired in sync {op}"
            );
        }
    }
}
