//! A model checker for pools, shared by `tests/model.rs` (proptest) and `fuzz/` (libFuzzer).
//!
//! A sequence of operations runs on a pool and on a plain map of what the pool should hold; after
//! every step they must agree: every live object intact and reachable by its handle, every
//! released handle resolving to nothing, `len`, `stats()` and iteration right, and a shared `Rc`
//! held by exactly the live objects, so that no released object kept its reference. After
//! every step the pool's own `check_consistency` walks its books too.
//!
//! Some steps make a user hook panic (see [`Hook`]) inside an entry point; the model then learns
//! what the pool kept (the step may or may not have happened) and checks that nothing it did not
//! allow changed. Some steps save the pool, mutate the save and load it. A `SyncPool` runs the
//! same sequences, single-threaded ([`run_sync`]).

use pooling::{
    Evict, Evictable, Fail, Grow, Handle, Heap, Inline, Lease, Lender, Panic, Pool, PoolFull,
    Pooled, Reset, Stats, Storage, SyncPool, TotalOrder,
};
use serde::Serialize;
use serde::de::DeserializeOwned;
use std::cell::{Cell, RefCell};
use std::collections::{HashMap, HashSet, VecDeque};
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::rc::Rc;
use std::sync::Once;

/// One step, decoded from three numbers so that proptest and the fuzzer share one decoder.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Op {
    Create {
        id: u64,
    },
    /// `create_many(count)`, the objects `id`, `id + 1`, ...: as many as there is room for.
    CreateMany {
        id: u64,
        count: usize,
    },
    /// Looks up the `pick`-th handle the model knows: live, released or stale.
    Get {
        pick: usize,
    },
    Modify {
        pick: usize,
        id: u64,
    },
    Release {
        pick: usize,
    },
    /// Releases every live object whose id is a multiple of `modulus`.
    Retain {
        modulus: u64,
    },
    ReleaseAll,
    /// Takes up to `count` leases at once, turns every `keep`-th into a handle, drops the rest.
    Lease {
        count: usize,
        keep: usize,
    },
    Shrink,
    /// Takes a lease and forgets it (`mem::forget`): its slot stays lent for as long as the pool
    /// lives, and a clone or a save holds it free.
    Forget {
        id: u64,
    },
    /// `init` panics half way through a plain `create`: the pool must end as if it had not been
    /// called.
    PanicInInit {
        id: u64,
    },
    /// Uses a handle this pool never issued (from a second pool that lives on, or from one that
    /// was dropped), with a lease out or not: nothing may be reached or changed.
    Foreign {
        pick: usize,
        leased: bool,
    },
    /// Carries on with a clone of the pool, dropping the original: every handle must work in
    /// the copy as it did.
    Snapshot,
    /// Borrows two objects at once: `Some` exactly when both are live and not the same.
    Disjoint {
        a: usize,
        b: usize,
    },
    /// Runs `entry` with `hook` panicking at its `skip`-th call (if `entry` calls it so often).
    Trap {
        hook: Hook,
        entry: Entry,
        skip: u8,
        pick: usize,
    },
    /// Saves the pool (JSON and postcard), loads the save into a second pool, which must hold
    /// the same, object by object and handle by handle (and carries on with it when `seed` is
    /// odd); then loads `mutations` mutated copies of the save, each refused or whole.
    Save {
        seed: u16,
        mutations: u8,
    },
}

/// The user code a pool runs, any of which may panic.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Hook {
    /// `Reset::blank` of a field: building blank objects (a pool, growth, an inline slot, a
    /// clone's or a save's free slots).
    Default,
    /// `Reset::reset` of a plain field: as a slot is taken.
    PlainReset,
    /// `#[pool(reset_with = f)]`: at release.
    ResetWith,
    /// The caller's `init`.
    Init,
    /// `Clone::clone` of a field.
    Clone,
    /// The `evict_by` measure.
    Measure,
    /// A field's `Drop`, as a released object's buffer is cleared.
    Drop,
}

const HOOKS: [Hook; 7] = [
    Hook::Default,
    Hook::PlainReset,
    Hook::ResetWith,
    Hook::Init,
    Hook::Clone,
    Hook::Measure,
    Hook::Drop,
];

/// Where a trapped hook runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Entry {
    Create,
    /// `create_many` of three.
    CreateMany,
    TryCreate,
    /// `acquire`, the lease dropped at once.
    Acquire,
    /// `acquire`, the lease turned into a handle.
    AcquireKeep,
    Release,
    ReleaseAll,
    Retain,
    Shrink,
    Snapshot,
    /// A sync pool's guard dropped after its object was released.
    GuardDrop,
}

const ENTRIES: [Entry; 11] = [
    Entry::Create,
    Entry::CreateMany,
    Entry::TryCreate,
    Entry::Acquire,
    Entry::AcquireKeep,
    Entry::Release,
    Entry::ReleaseAll,
    Entry::Retain,
    Entry::Shrink,
    Entry::Snapshot,
    Entry::GuardDrop,
];

thread_local! {
    /// The hook to panic and how many of its calls to let pass first.
    static ARMED: Cell<Option<(Hook, u8)>> = const { Cell::new(None) };
}

/// Panics if `hook` is armed and its turn has come, disarming first, so that unwinding runs no
/// second panic.
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

/// Runs `f` with `hook` armed; whether the hook fired.
pub(crate) fn trapped<R>(hook: Hook, skip: u8, f: impl FnOnce() -> R) -> (Option<R>, bool) {
    ARMED.set(Some((hook, skip)));
    let result = catch_unwind(AssertUnwindSafe(f));
    let fired = ARMED.take().is_none();
    assert_eq!(fired, result.is_err(), "only the armed hook panics");
    (result.ok(), fired)
}

/// A field whose blank value, reset and clone are hooks.
#[derive(Default, PartialEq, Eq, Debug, serde::Serialize, serde::Deserialize)]
pub(crate) struct Trap(pub(crate) u8);

impl Reset for Trap {
    fn reset(&mut self) {
        hook(Hook::PlainReset);
        self.0 = 0;
    }

    fn blank() -> Self {
        hook(Hook::Default);
        Trap(0)
    }
}

impl Clone for Trap {
    fn clone(&self) -> Self {
        hook(Hook::Clone);
        Trap(self.0)
    }
}

/// A value whose `Drop` is a hook. It saves as nothing, and counts its loads (see
/// [`loaded_fuses`]).
#[derive(Default, Clone, PartialEq, Eq, Debug)]
pub(crate) struct Fuse;

impl Drop for Fuse {
    fn drop(&mut self) {
        hook(Hook::Drop);
    }
}

thread_local! {
    static FUSES_LOADED: Cell<usize> = const { Cell::new(0) };
}

/// How many fuses were loaded on this thread since the last call: a column pool's rows read.
#[allow(dead_code, reason = "the column twin's, not the model's")]
pub(crate) fn loaded_fuses() -> usize {
    FUSES_LOADED.replace(0)
}

impl Serialize for Fuse {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_unit()
    }
}

impl<'de> serde::Deserialize<'de> for Fuse {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        <()>::deserialize(deserializer)?;
        FUSES_LOADED.set(FUSES_LOADED.get() + 1);
        Ok(Fuse)
    }
}

/// The `reset_with` of the objects' `mark`: a hook.
pub(crate) fn reset_mark(mark: &mut u64) {
    hook(Hook::ResetWith);
    *mark = 0;
}

impl Op {
    pub(crate) fn decode(kind: u8, a: u16, b: u16) -> Self {
        let (a64, b64) = (u64::from(a), u64::from(b));
        match kind % 24 {
            3 if b.is_multiple_of(4) => Op::Forget { id: a64 },
            0..=3 => Op::Create { id: a64 },
            4 => Op::CreateMany {
                id: a64,
                count: 1 + usize::from(b % 16),
            },
            5 | 6 => Op::Get { pick: a.into() },
            7 => Op::Modify {
                pick: a.into(),
                id: b64,
            },
            8..=10 => Op::Release { pick: a.into() },
            11 => Op::Retain {
                modulus: 2 + a64 % 5,
            },
            12 => Op::ReleaseAll,
            13 => Op::Lease {
                count: 1 + usize::from(a % 4),
                keep: 1 + usize::from(b % 3),
            },
            14 => Op::Shrink,
            15 => Op::PanicInInit { id: a64 },
            16 => Op::Snapshot,
            17 => Op::Disjoint {
                a: a.into(),
                b: b.into(),
            },
            18 | 19 => Op::Foreign {
                pick: a.into(),
                leased: b.is_multiple_of(2),
            },
            20..=22 => Op::Trap {
                hook: HOOKS[usize::from(a) % HOOKS.len()],
                entry: ENTRIES[usize::from(b) % ENTRIES.len()],
                skip: (a >> 8) as u8 % 3,
                pick: usize::from(b >> 8),
            },
            // Saving is slow next to the rest: one step in 96.
            _ if b.is_multiple_of(4) => Op::Save {
                seed: a,
                mutations: (b / 4 % 4) as u8,
            },
            _ => Op::Get { pick: a.into() },
        }
    }
}

/// What the objects of every pool under test hold.
pub(crate) trait Object: Pooled + Clone + Serialize + DeserializeOwned {
    /// Sets the object up as `id`, holding a clone of `held`.
    fn fill(&mut self, id: u64, held: &Rc<()>);
    /// Makes the object `id`, keeping what it holds.
    fn refill(&mut self, id: u64);
    /// Gives a loaded object (which a save does not hold references in) `held` again.
    fn rehold(&mut self, held: &Rc<()>);
    fn id(&self) -> u64;
    /// Whether the object is exactly what `fill(id)` made it.
    fn is(&self, id: u64) -> bool;
}

/// The importance `evict_by` ranks objects by: their id.
pub(crate) fn rank<O: Object>(object: &O) -> TotalOrder<f64> {
    hook(Hook::Measure);
    #[expect(clippy::cast_precision_loss, reason = "ids are below 2^16")]
    TotalOrder(object.id() as f64)
}

/// What `create` did.
pub(crate) enum Created<T> {
    Live(Handle<T>),
    Full,
    /// It panicked because the pool was full (`on_full = panic`), or had nothing to evict.
    Panicked,
}

/// The methods the model calls that differ by strategy, for `Pool<T, Self, B>`.
pub(crate) trait Strategy<T: Object, B: Storage>: Sized {
    fn create(pool: &mut Pool<T, Self, B>, id: u64, held: &Rc<()>) -> Created<T>;
    /// The strategy's `acquire`, or `try_acquire` where `acquire` would panic.
    fn acquire<'a>(
        pool: &'a Lender<'_, T, Self, B>,
        id: u64,
        held: &Rc<()>,
    ) -> Result<Lease<'a, T>, PoolFull>;
    /// The live object an evicting `create` would cut now.
    fn victim(_: &Pool<T, Self, B>) -> Option<Handle<T>> {
        None
    }
    /// `shrink()` where the pool grows.
    fn shrink(_: &mut Pool<T, Self, B>) -> usize {
        0
    }
}

fn created<T>(result: Result<Handle<T>, PoolFull>) -> Created<T> {
    result.map_or(Created::Full, Created::Live)
}

impl<T: Object, B: Storage> Strategy<T, B> for Fail {
    fn create(pool: &mut Pool<T, Self, B>, id: u64, held: &Rc<()>) -> Created<T> {
        created(pool.create(|o| o.fill(id, held)))
    }

    fn acquire<'a>(
        pool: &'a Lender<'_, T, Self, B>,
        id: u64,
        held: &Rc<()>,
    ) -> Result<Lease<'a, T>, PoolFull> {
        pool.acquire(|o| o.fill(id, held))
    }
}

impl<T: Object, B: Storage> Strategy<T, B> for Panic {
    fn create(pool: &mut Pool<T, Self, B>, id: u64, held: &Rc<()>) -> Created<T> {
        let full = pool.is_full();
        match catch_unwind(AssertUnwindSafe(|| pool.create(|o| o.fill(id, held)))) {
            Ok(handle) => Created::Live(handle),
            Err(_) if full => Created::Panicked,
            Err(panic) => std::panic::resume_unwind(panic),
        }
    }

    fn acquire<'a>(
        pool: &'a Lender<'_, T, Self, B>,
        id: u64,
        held: &Rc<()>,
    ) -> Result<Lease<'a, T>, PoolFull> {
        pool.try_acquire(|o| o.fill(id, held))
    }
}

impl<T: Object + Evictable, B: Storage> Strategy<T, B> for Evict {
    /// A full pool with no live object (its slots all lent or retired: a lease whose reset
    /// panicked retires its slot) has nothing to evict, and `create` panics, as documented.
    fn create(pool: &mut Pool<T, Self, B>, id: u64, held: &Rc<()>) -> Created<T> {
        if !pool.is_full() || pool.victim().is_some() {
            return Created::Live(pool.create(|o| o.fill(id, held)));
        }
        let panic = catch_unwind(AssertUnwindSafe(|| pool.create(|o| o.fill(id, held))))
            .expect_err("an evicting create with nothing to evict returned");
        let message = panic.downcast_ref::<String>().map_or("", String::as_str);
        assert!(message.contains("cannot evict"), "{message}");
        Created::Panicked
    }

    fn acquire<'a>(
        pool: &'a Lender<'_, T, Self, B>,
        id: u64,
        held: &Rc<()>,
    ) -> Result<Lease<'a, T>, PoolFull> {
        pool.acquire(|o| o.fill(id, held))
    }

    fn victim(pool: &Pool<T, Self, B>) -> Option<Handle<T>> {
        pool.victim()
    }
}

impl<T: Object, const MAX: usize> Strategy<T, Heap> for Grow<MAX> {
    fn create(pool: &mut Pool<T, Self>, id: u64, held: &Rc<()>) -> Created<T> {
        created(pool.create(|o| o.fill(id, held)))
    }

    fn acquire<'a>(
        pool: &'a Lender<'_, T, Self>,
        id: u64,
        held: &Rc<()>,
    ) -> Result<Lease<'a, T>, PoolFull> {
        pool.acquire(|o| o.fill(id, held))
    }

    fn shrink(pool: &mut Pool<T, Self>) -> usize {
        pool.shrink()
    }
}

/// The live objects' handles and ids, by iteration.
fn live_objects<T: Object, S, B: Storage>(pool: &Pool<T, S, B>) -> Vec<(Handle<T>, u64)> {
    pool.iter().map(|(h, o)| (h, o.id())).collect()
}

/// Declares a pooled struct with the given `#[pool(...)]` and implements [`Object`] for it.
#[macro_export]
macro_rules! object {
    ($object:ident, [$($attr:tt)*]) => {
        #[derive(pooling::Pooled, Clone, serde::Serialize, serde::Deserialize)]
        #[pool($($attr)*)]
        pub(crate) struct $object {
            id: u64,
            tag: Vec<u64>,
            #[serde(skip)]
            held: Option<std::rc::Rc<()>>,
            trap: $crate::model::Trap,
            #[pool(reset_with = $crate::model::reset_mark)]
            mark: u64,
            #[serde(skip)]
            fuses: Vec<$crate::model::Fuse>,
            // Never reset: dropped only with its slot (a chunk `shrink` frees, a pool let go),
            // where its hook may panic.
            #[pool(keep)]
            #[serde(skip)]
            _fuse: $crate::model::Fuse,
        }

        impl $crate::model::Object for $object {
            fn fill(&mut self, id: u64, held: &std::rc::Rc<()>) {
                $crate::model::hook($crate::model::Hook::Init);
                self.id = id;
                self.tag.push(id);
                self.held = Some(std::rc::Rc::clone(held));
                self.trap = $crate::model::Trap(1);
                self.mark = id;
                self.fuses.push($crate::model::Fuse);
            }

            fn refill(&mut self, id: u64) {
                self.id = id;
                self.tag.clear();
                self.tag.push(id);
            }

            fn rehold(&mut self, held: &std::rc::Rc<()>) {
                self.held = Some(std::rc::Rc::clone(held));
            }

            fn id(&self) -> u64 {
                self.id
            }

            fn is(&self, id: u64) -> bool {
                self.id == id && self.tag == [id] && self.held.is_some()
            }
        }
    };
}

/// Panic messages the model causes on purpose, and catches.
const EXPECTED_PANICS: [&str; 2] = ["panics on purpose", "is full: all"];

/// Silences the panics the model causes on purpose; any other goes to the hook there was (a
/// failing assertion must still be reported, and the fuzzer's hook must still abort).
pub(crate) fn quiet_panics() {
    static QUIET: Once = Once::new();
    QUIET.call_once(|| {
        let previous = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            let payload = info.payload();
            let message = (payload.downcast_ref::<String>().map(String::as_str))
                .or_else(|| payload.downcast_ref::<&str>().copied())
                .unwrap_or("");
            if !EXPECTED_PANICS
                .iter()
                .any(|expected| message.contains(expected))
            {
                previous(info);
            }
        }));
    });
}

/// What the pool should hold.
struct Model<T> {
    live: HashMap<Handle<T>, u64>,
    /// Recently released handles, which must resolve to nothing.
    dead: VecDeque<Handle<T>>,
    /// Handles of other pools of the same type, live there or not: they must resolve to nothing.
    foreign: Vec<Handle<T>>,
    held: Rc<()>,
    /// The most objects in use at once so far, live or lent: what `high_water` must be.
    peak: usize,
    /// Live objects whose reset panicked half way (they stay live): their contents are not
    /// checked.
    tainted: HashSet<Handle<T>>,
    /// Leases forgotten (`mem::forget`): their slots stay lent, each object holding `held`.
    forgotten: usize,
}

const DEAD_KEPT: usize = 64;

/// Steps between full walks of the pool's books (`check_consistency`).
const CONSISTENCY_EVERY: usize = 8;

impl<T> Model<T> {
    /// A live handle three times in four, else a released or foreign one.
    fn pick(&self, pick: usize) -> Option<Handle<T>> {
        let live = self.live.len();
        let gone = self.dead.len() + self.foreign.len();
        if !pick.is_multiple_of(4) && live > 0 {
            let mut handles: Vec<_> = self.live.keys().copied().collect();
            handles.sort_unstable();
            Some(handles[pick % live])
        } else if gone == 0 {
            None
        } else {
            let pick = pick % gone;
            Some(match pick.checked_sub(self.dead.len()) {
                Some(foreign) => self.foreign[foreign],
                None => self.dead[pick],
            })
        }
    }

    fn bury(&mut self, handle: Handle<T>) {
        self.live.remove(&handle);
        self.tainted.remove(&handle);
        self.dead.push_back(handle);
        if self.dead.len() > DEAD_KEPT {
            self.dead.pop_front();
        }
    }
}

/// Handles from `count` creations in `pool`, every third released and its slot filled again, so
/// that the handles are of several versions, live and dead.
fn issue<T: Object, S: Strategy<T, B>, B: Storage>(
    pool: &mut Pool<T, S, B>,
    count: u64,
    held: &Rc<()>,
) -> Vec<Handle<T>> {
    let mut handles = Vec::new();
    for id in 0..count {
        if let Created::Live(handle) = S::create(pool, id, held) {
            handles.push(handle);
            if id % 3 == 0 {
                pool.release(handle).expect("just created");
            }
        }
    }
    handles
}

/// How the model builds a fresh pool of each storage.
pub(crate) trait Build: Storage + Sized {
    fn build<T: Pooled, S>() -> Pool<T, S, Self>;
}

impl Build for Heap {
    fn build<T: Pooled, S>() -> Pool<T, S, Self> {
        Pool::<T, S, Self>::new()
    }
}

impl<const N: usize, const W: usize> Build for Inline<N, W> {
    fn build<T: Pooled, S>() -> Pool<T, S, Self> {
        Pool::<T, S, Self>::new()
    }
}

/// Runs `ops` on a fresh heap `Pool<T>` (the derive's pool type) and the model, checking them
/// after every step.
pub(crate) fn run<T: Object>(ops: &[Op])
where
    T::Strategy: Strategy<T, Heap>,
    Pool<T, T::Strategy>: Serialize + DeserializeOwned,
{
    run_in::<T, Heap>(ops);
}

/// [`run`] on a pool of `T` kept in `B`: `Pool<T, T::Strategy, B>`.
pub(crate) fn run_in<T: Object, B: Build>(ops: &[Op])
where
    T::Strategy: Strategy<T, B>,
    Pool<T, T::Strategy, B>: Serialize + DeserializeOwned,
{
    quiet_panics();
    let elsewhere = Rc::new(());
    let mut replaced = B::build::<T, T::Strategy>();
    let mut foreign = issue(&mut replaced, 12, &elsewhere);
    drop(replaced);
    let mut pool = B::build::<T, T::Strategy>();
    let mut other = B::build::<T, T::Strategy>();
    foreign.extend(issue(&mut other, 12, &elsewhere));
    let mut model: Model<T> = Model {
        live: HashMap::new(),
        dead: VecDeque::new(),
        foreign,
        held: Rc::new(()),
        peak: 0,
        tainted: HashSet::new(),
        forgotten: 0,
    };
    for (step, op) in ops.iter().enumerate() {
        apply(&mut pool, &mut model, *op);
        model.peak = model.peak.max(model.live.len() + model.forgotten);
        check(&pool, &model).unwrap_or_else(|problem| {
            panic!("after step {step} ({op:?}): {problem}");
        });
        // The full walk is O(capacity): every few steps, and after every trapped one (in
        // `trap`).
        if step % CONSISTENCY_EVERY == 0 || step + 1 == ops.len() {
            pool.check_consistency()
                .unwrap_or_else(|problem| panic!("after step {step} ({op:?}): {problem}"));
            check_walks(&mut pool, step)
                .unwrap_or_else(|problem| panic!("after step {step} ({op:?}): {problem}"));
        }
    }
    drop(pool);
    assert_eq!(
        Rc::strong_count(&model.held),
        1,
        "dropping the pool dropped everything"
    );
    drop(other);
    assert_eq!(Rc::strong_count(&elsewhere), 1);
}

fn apply<T: Object, S: Strategy<T, B>, B: Storage>(
    pool: &mut Pool<T, S, B>,
    model: &mut Model<T>,
    op: Op,
) where
    Pool<T, S, B>: Serialize + DeserializeOwned,
{
    match op {
        Op::Trap {
            hook,
            entry,
            skip,
            pick,
        } => trap(pool, model, hook, entry, skip, pick),
        Op::Save { seed, mutations } => saves(pool, model, seed, mutations),
        _ => apply_untrapped(pool, model, op),
    }
}

/// The steps that run no hook on purpose.
fn apply_untrapped<T: Object, S: Strategy<T, B>, B: Storage>(
    pool: &mut Pool<T, S, B>,
    model: &mut Model<T>,
    op: Op,
) {
    match op {
        Op::Trap { .. } | Op::Save { .. } => unreachable!("applied by `apply`"),
        Op::Create { id } => create(pool, model, id),
        Op::CreateMany { id, count } => create_many(pool, model, id, count),
        Op::Get { pick } => {
            if let Some(handle) = model.pick(pick) {
                let expected = model.live.get(&handle);
                let found = pool.get(handle).map(Object::id);
                assert_eq!(found.as_ref(), expected, "get({handle:?})");
                assert_eq!(pool.contains(handle), expected.is_some());
            }
        }
        Op::Modify { pick, id } => {
            if let Some(handle) = model.pick(pick).filter(|h| !model.tainted.contains(h)) {
                match (pool.get_mut(handle), model.live.get_mut(&handle)) {
                    (Some(object), Some(known)) => {
                        object.refill(id);
                        *known = id;
                    }
                    (None, None) => {}
                    (found, known) => panic!(
                        "get_mut({handle:?}) found {}, the model {known:?}",
                        found.is_some()
                    ),
                }
            }
        }
        Op::Release { pick } => {
            if let Some(handle) = model.pick(pick) {
                let live = model.live.contains_key(&handle);
                assert_eq!(pool.release(handle).is_ok(), live, "release({handle:?})");
                if live {
                    model.bury(handle);
                }
                assert!(
                    pool.release(handle).is_err(),
                    "a second release of {handle:?}"
                );
            }
        }
        Op::Retain { modulus } => {
            pool.retain(|object| object.id() % modulus != 0);
            let gone: Vec<_> = (model.live.iter())
                .filter(|&(_, id)| id % modulus == 0)
                .map(|(h, _)| *h)
                .collect();
            for handle in gone {
                model.bury(handle);
            }
        }
        Op::ReleaseAll => {
            pool.release_all();
            let gone: Vec<_> = model.live.keys().copied().collect();
            for handle in gone {
                model.bury(handle);
            }
        }
        Op::Lease { count, keep } => lease(pool, model, count, keep),
        Op::Shrink => {
            let before = pool.stats().capacity;
            let freed = S::shrink(pool);
            assert_eq!(pool.stats().capacity, before - freed, "shrink({freed})");
        }
        Op::Foreign { pick, leased } => {
            let handle = model.foreign[pick % model.foreign.len()];
            {
                let lender = pool.lender();
                let lease = leased
                    .then(|| S::acquire(&lender, 9999, &model.held).ok())
                    .flatten();
                let in_use = model.live.len() + model.forgotten + usize::from(lease.is_some());
                model.peak = model.peak.max(in_use);
                assert!(lender.get(handle).is_none(), "foreign {handle:?} reached");
                assert!(!lender.contains(handle));
                drop(lease);
            }
            assert!(pool.get_mut(handle).is_none(), "foreign {handle:?} reached");
            assert!(pool.release(handle).is_err(), "foreign {handle:?} released");
        }
        Op::Forget { id } => forget(pool, model, id),
        Op::Snapshot => snapshot(pool, model),
        Op::Disjoint { a, b } => disjoint(pool, model, a, b),
        Op::PanicInInit { id } => {
            let full = pool.is_full();
            let result = catch_unwind(AssertUnwindSafe(|| {
                pool.try_create(|o| {
                    o.fill(id, &model.held);
                    panic!("init panics on purpose");
                })
            }));
            // A full pool that cannot grow never calls `init`; the checks after the step show
            // that nothing changed either way.
            assert!(
                full || result.is_err(),
                "init's panic did not reach the caller"
            );
        }
    }
}

/// Carries on with a clone of the pool, which holds what the pool holds, with the forgotten
/// leases' slots free.
fn snapshot<T: Object, S, B: Storage>(pool: &mut Pool<T, S, B>, model: &mut Model<T>) {
    let copy = pool.clone();
    assert_copy(pool, &copy, model, "a clone");
    *pool = copy;
    model.forgotten = 0;
}

/// Takes a lease and forgets it: its slot stays lent as long as the pool lives.
fn forget<T: Object, S: Strategy<T, B>, B: Storage>(
    pool: &mut Pool<T, S, B>,
    model: &mut Model<T>,
    id: u64,
) {
    let lender = pool.lender();
    if let Ok(lease) = S::acquire(&lender, id, &model.held) {
        std::mem::forget(lease);
        model.forgotten += 1;
    }
}

fn disjoint<T: Object, S, B: Storage>(
    pool: &mut Pool<T, S, B>,
    model: &Model<T>,
    a: usize,
    b: usize,
) {
    if let (Some(a), Some(b)) = (model.pick(a), model.pick(b)) {
        let expected = a != b && model.live.contains_key(&a) && model.live.contains_key(&b);
        match pool.get_disjoint_mut([a, b]) {
            Some([x, y]) => {
                assert!(expected, "get_disjoint_mut([{a:?}, {b:?}]) reached objects");
                assert_eq!([x.id(), y.id()], [model.live[&a], model.live[&b]]);
            }
            None => assert!(!expected, "get_disjoint_mut([{a:?}, {b:?}]) refused"),
        }
    }
}

fn create<T: Object, S: Strategy<T, B>, B: Storage>(
    pool: &mut Pool<T, S, B>,
    model: &mut Model<T>,
    id: u64,
) {
    let full = pool.is_full();
    let victim = if full { S::victim(pool) } else { None };
    if let Some(victim) = victim {
        let expected = (model.live.iter())
            .min_by_key(|&(handle, id)| (*id, handle.index()))
            .map(|(handle, _)| *handle);
        assert_eq!(
            Some(victim),
            expected,
            "victim(): the lowest id, in the lowest slot"
        );
    }
    match S::create(pool, id, &model.held) {
        Created::Live(handle) => {
            assert!(
                !model.live.contains_key(&handle),
                "{handle:?} was handed out twice"
            );
            if let Some(victim) = victim {
                assert!(!pool.contains(victim), "the victim {victim:?} was evicted");
                model.bury(victim);
            }
            model.live.insert(handle, id);
        }
        Created::Full => assert!(full, "create refused a pool with room"),
        Created::Panicked => assert!(full, "create panicked on a pool with room"),
    }
}

/// `create_many`: every object made is new and whole, and it stops short only with no slot free.
fn create_many<T: Object, S: Strategy<T, B>, B: Storage>(
    pool: &mut Pool<T, S, B>,
    model: &mut Model<T>,
    id: u64,
    count: usize,
) {
    let failed = pool.stats().failed;
    let mut made = Vec::new();
    let held = Rc::clone(&model.held);
    let n = pool.create_many_with_handle(count, |i, handle, object| {
        object.fill(id + i as u64, &held);
        made.push((handle, id + i as u64));
    });
    assert_eq!(n, made.len(), "create_many counted what it made");
    let stats = pool.stats();
    assert!(
        n == count || stats.free == 0,
        "create_many stopped with room: {stats:?}"
    );
    assert_eq!(
        stats.failed,
        failed + u64::from(n < count),
        "a burst cut short is refused once"
    );
    for (handle, id) in made {
        assert!(
            !model.live.contains_key(&handle),
            "{handle:?} was handed out twice"
        );
        assert!(
            pool.get(handle).is_some_and(|o| o.is(id)),
            "{handle:?} is not {id}"
        );
        model.live.insert(handle, id);
    }
}

fn lease<T: Object, S: Strategy<T, B>, B: Storage>(
    pool: &mut Pool<T, S, B>,
    model: &mut Model<T>,
    count: usize,
    keep: usize,
) {
    let before = pool.stats();
    let mut kept = Vec::new();
    {
        let pool = pool.lender();
        let leases: Vec<_> = (0..count)
            .map_while(|i| S::acquire(&pool, 9000 + i as u64, &model.held).ok())
            .collect();
        let stats = pool.stats();
        assert_eq!(stats.leased, model.forgotten + leases.len());
        model.peak = (model.peak).max(model.live.len() + model.forgotten + leases.len());
        assert_eq!(stats.live, before.live);
        assert_eq!(pool.len(), before.live, "leases are not live");
        assert_eq!(
            pool.iter().count(),
            model.live.len(),
            "iteration skips leases"
        );
        for (handle, id) in &model.live {
            let tainted = model.tainted.contains(handle);
            assert!(pool.get(*handle).is_some_and(|o| tainted || o.is(*id)));
        }
        for (i, lease) in leases.into_iter().enumerate() {
            assert!(lease.is(9000 + i as u64));
            if i % keep == 0 {
                let id = lease.id();
                kept.push((lease.into_handle(), id));
            }
        }
    }
    for (handle, id) in kept {
        assert!(model.live.insert(handle, id).is_none());
    }
}

fn check<T: Object, S, B: Storage>(pool: &Pool<T, S, B>, model: &Model<T>) -> Result<(), String> {
    let stats = pool.stats();
    let live = model.live.len();
    if pool.len() != live || stats.live != live {
        return Err(format!(
            "len {} / stats {} / model {live}",
            pool.len(),
            stats.live
        ));
    }
    if stats.leased != model.forgotten {
        return Err(format!(
            "{} slots lent where {} leases were forgotten",
            stats.leased, model.forgotten
        ));
    }
    if stats.live + stats.leased + stats.free + stats.retired != stats.capacity {
        return Err(format!("slots do not add up: {stats:?}"));
    }
    if stats.created != stats.released + stats.evicted + stats.live as u64 + stats.leased as u64 {
        return Err(format!("objects do not add up: {stats:?}"));
    }
    // The high-water mark is a peak of the past: after `shrink` it may exceed the capacity.
    if stats.high_water != model.peak {
        return Err(format!(
            "high water {} where the most in use at once was {}",
            stats.high_water, model.peak
        ));
    }
    for (handle, id) in &model.live {
        match pool.get(*handle) {
            Some(_) if model.tainted.contains(handle) => {}
            Some(object) if object.is(*id) => {}
            Some(_) => return Err(format!("{handle:?} is not object {id} any more")),
            None => return Err(format!("{handle:?} (object {id}) is unreachable")),
        }
    }
    for handle in &model.dead {
        if pool.get(*handle).is_some() || pool.contains(*handle) {
            return Err(format!("the released {handle:?} reaches an object"));
        }
    }
    for handle in &model.foreign {
        if pool.get(*handle).is_some() || pool.contains(*handle) {
            return Err(format!("the foreign {handle:?} reaches an object"));
        }
    }
    // Sorted lists, not sets: a handle iterated twice shows, and no hashing after every step
    // (a quarter of the model's time, under Miri too).
    let mut iterated: Vec<_> = (live_objects(pool).into_iter())
        .filter(|(h, _)| !model.tainted.contains(h))
        .collect();
    let mut known: Vec<_> = (model.live.iter())
        .filter(|(h, _)| !model.tainted.contains(*h))
        .map(|(h, id)| (*h, *id))
        .collect();
    iterated.sort_unstable();
    known.sort_unstable();
    if iterated != known {
        return Err(format!("iteration {iterated:?} but the model {known:?}"));
    }
    let tainted = model.tainted.len();
    let held = Rc::strong_count(&model.held) - 1;
    let forgotten = model.forgotten;
    if held < live - tainted + forgotten || held > live + forgotten {
        return Err(format!(
            "{} references held by {live} live objects",
            Rc::strong_count(&model.held) - 1
        ));
    }
    Ok(())
}

/// Every way of walking the live objects agrees with `next()`, one at a time: `fold` (by runs
/// of consecutive live slots) from the start and after `skip` steps of `next()`, shared and
/// mutable, with and without handles; and `runs()`/`runs_mut()` hold the same objects in
/// order, each run's slots consecutive, no two runs adjacent in a pool of one chunk.
fn check_walks<T: Object, S, B: Storage>(
    pool: &mut Pool<T, S, B>,
    step: usize,
) -> Result<(), String> {
    let mut one_by_one = Vec::new();
    for (handle, object) in pool.iter() {
        one_by_one.push((handle, object.id()));
    }
    let ids: Vec<u64> = one_by_one.iter().map(|&(_, id)| id).collect();
    let skip = step % (one_by_one.len() + 1);
    let mut folded = Vec::new();
    let mut iter = pool.iter();
    iter.by_ref()
        .take(skip)
        .for_each(|(h, o)| folded.push((h, o.id())));
    iter.for_each(|(h, o)| folded.push((h, o.id())));
    if folded != one_by_one {
        return Err(format!(
            "iter().for_each after {skip} {folded:?}, next() {one_by_one:?}"
        ));
    }
    let mut folded = Vec::new();
    let mut iter = pool.iter_mut();
    for _ in 0..skip {
        let (h, o) = iter.next().expect("as many as iter()");
        folded.push((h, o.id()));
    }
    iter.for_each(|(h, o)| folded.push((h, o.id())));
    if folded != one_by_one {
        return Err(format!("iter_mut().for_each after {skip} {folded:?}"));
    }
    let values: Vec<u64> = pool.values().fold(Vec::new(), |mut v, o| {
        v.push(o.id());
        v
    });
    let mut values_mut = Vec::new();
    let mut walk = pool.values_mut();
    walk.by_ref()
        .take(skip)
        .for_each(|o| values_mut.push(o.id()));
    walk.for_each(|o| values_mut.push(o.id()));
    if values != ids || values_mut != ids {
        return Err(format!(
            "values() {values:?}, values_mut() {values_mut:?}, next() {ids:?}"
        ));
    }
    let runs: Vec<Vec<u64>> = pool
        .runs()
        .map(|run| run.iter().map(T::id).collect())
        .collect();
    let runs_mut: Vec<Vec<u64>> = (pool.runs_mut())
        .map(|run| run.iter().map(T::id).collect())
        .collect();
    if runs != runs_mut || runs.concat() != ids || runs.iter().any(Vec::is_empty) {
        return Err(format!(
            "runs {runs:?}, runs_mut {runs_mut:?}, next() {ids:?}"
        ));
    }
    let mut at = 0;
    let mut last_end = None;
    for run in &runs {
        let indices: Vec<usize> = (one_by_one[at..at + run.len()].iter())
            .map(|(h, _)| h.index())
            .collect();
        if indices.windows(2).any(|pair| pair[1] != pair[0] + 1) {
            return Err(format!("a run over slots {indices:?}"));
        }
        if pool.stats().chunks == 1 && last_end == Some(indices[0]) {
            return Err(format!("a run from slot {} is not the longest", indices[0]));
        }
        last_end = Some(indices[indices.len() - 1] + 1);
        at += run.len();
    }
    Ok(())
}

/// `create_many` of three for a trap, each object recorded in `many` once its `init` is done.
fn create_three<T: Object, S, B: Storage>(
    pool: &mut Pool<T, S, B>,
    held: &Rc<()>,
    many: &RefCell<Vec<Handle<T>>>,
) -> Option<Handle<T>> {
    pool.create_many_with_handle(3, |_, handle, o| {
        o.fill(7004, held);
        many.borrow_mut().push(handle);
    });
    None
}

/// Runs `entry` with `hook` armed, then learns what the pool kept: a step whose hook did not
/// fire is checked as it would be untrapped; one whose hook fired may have happened or not,
/// and only what the entry point may change did. Objects whose reset panicked stay live,
/// tainted.
fn trap<T: Object, S: Strategy<T, B>, B: Storage>(
    pool: &mut Pool<T, S, B>,
    model: &mut Model<T>,
    hook: Hook,
    entry: Entry,
    skip: u8,
    pick: usize,
) {
    let before = pool.stats();
    let held = Rc::clone(&model.held);
    let handle = model.pick(pick);
    let evicts = matches!(entry, Entry::Create) && pool.is_full() && S::victim(pool).is_some();
    // What `create_many` made, each recorded once its `init` is done.
    let many = RefCell::new(Vec::new());
    let (outcome, fired) = trapped(hook, skip, || match entry {
        Entry::Create => match S::create(pool, 7000, &held) {
            Created::Live(handle) => Some(handle),
            Created::Full | Created::Panicked => None,
        },
        Entry::TryCreate => pool.try_create(|o| o.fill(7001, &held)).ok(),
        Entry::CreateMany => create_three(pool, &held, &many),
        Entry::Acquire => {
            drop(S::acquire(&pool.lender(), 7002, &held));
            None
        }
        Entry::AcquireKeep => {
            (S::acquire(&pool.lender(), 7003, &held).ok()).map(Lease::into_handle)
        }
        Entry::Release | Entry::GuardDrop => {
            if let Some(handle) = handle {
                let _ = pool.release(handle);
            }
            None
        }
        Entry::ReleaseAll => {
            pool.release_all();
            None
        }
        Entry::Retain => {
            pool.retain(|o| o.id() % 3 != 0);
            None
        }
        Entry::Shrink => {
            S::shrink(pool);
            None
        }
        Entry::Snapshot => {
            let copy = pool.clone();
            copy.check_consistency().expect("a clone's books");
            *pool = copy;
            None
        }
    });
    pool.check_consistency()
        .unwrap_or_else(|why| panic!("after {hook:?} #{skip} in {entry:?} (fired {fired}): {why}"));
    learn_forgotten(pool, model, entry);
    let may_release = evicts
        || matches!(
            entry,
            Entry::Release | Entry::GuardDrop | Entry::ReleaseAll | Entry::Retain
        );
    let mut created: Vec<Handle<T>> = many.into_inner();
    created.extend(outcome.flatten());
    let now: HashMap<Handle<T>, u64> = live_objects(pool).into_iter().collect();
    for (handle, id) in model.live.clone() {
        match now.get(&handle) {
            None => {
                assert!(may_release, "{entry:?} with {hook:?}: {handle:?} went");
                model.bury(handle);
            }
            Some(_) if model.tainted.contains(&handle) => {}
            Some(_) => {
                if !pool.get(handle).is_some_and(|o| o.is(id)) {
                    assert!(
                        fired && may_release,
                        "{entry:?} with {hook:?}: {handle:?} changed"
                    );
                    model.tainted.insert(handle);
                }
            }
        }
    }
    for (&handle, &id) in &now {
        if model.live.contains_key(&handle) {
            continue;
        }
        if created.contains(&handle) {
            model.live.insert(handle, id);
            assert!(
                pool.get(handle).is_some_and(|o| o.is(id)),
                "{entry:?} made {handle:?}"
            );
        } else {
            // A lease whose reset panicked as it dropped retires its slot: no object appears.
            panic!("{entry:?} with {hook:?}: {handle:?} appeared");
        }
    }
    let stats = pool.stats();
    assert!(stats.high_water >= model.peak, "high water fell: {stats:?}");
    assert!(
        stats.high_water
            <= model
                .peak
                .max(before.live + before.leased + created.len().max(1)),
        "high water past the objects in use: {stats:?}"
    );
    model.peak = stats.high_water;
    if fired {
        assert_eq!(stats.failed, before.failed, "a panic is not a refusal");
    }
}

/// What a copy of a pool (a clone, a loaded save) must count: the pool's stats, with the
/// slots of forgotten leases free and their objects counted as given back.
pub(crate) fn given_back(mut stats: Stats) -> Stats {
    stats.free += stats.leased;
    stats.released += stats.leased as u64;
    stats.leased = 0;
    stats
}

/// Asserts that `copy` holds what `pool` holds, object by object and handle by handle, with
/// its books whole and the forgotten leases' slots free.
fn assert_copy<T: Object, S, B: Storage>(
    pool: &Pool<T, S, B>,
    copy: &Pool<T, S, B>,
    model: &Model<T>,
    what: &str,
) {
    copy.check_consistency()
        .unwrap_or_else(|why| panic!("{what}'s books: {why}"));
    assert_eq!(copy.stats(), given_back(pool.stats()), "{what}'s stats");
    assert_eq!(live_objects(copy), live_objects(pool), "{what}'s objects");
    for (handle, id) in &model.live {
        assert_eq!(
            copy.get(*handle).map(Object::id),
            Some(*id),
            "{what}: {handle:?}"
        );
    }
    for handle in model.dead.iter().chain(&model.foreign) {
        assert!(!copy.contains(*handle), "{what}: the gone {handle:?} live");
    }
}

/// After a trapped `entry`: a clone frees the slots of forgotten leases; nothing else changes
/// them.
fn learn_forgotten<T: Object, S, B: Storage>(
    pool: &Pool<T, S, B>,
    model: &mut Model<T>,
    entry: Entry,
) {
    let leased = pool.stats().leased;
    assert!(
        leased == model.forgotten || (entry == Entry::Snapshot && leased == 0),
        "{entry:?}: {leased} slots lent, {} leases forgotten",
        model.forgotten
    );
    model.forgotten = leased;
}

/// Saves the pool, loads it back and compares, carrying on with the loaded pool when `seed` is
/// odd; loads mutated saves, each refused or whole.
fn saves<T: Object, S, B: Storage>(
    pool: &mut Pool<T, S, B>,
    model: &mut Model<T>,
    seed: u16,
    mutations: u8,
) where
    Pool<T, S, B>: Serialize + DeserializeOwned,
{
    let json = serde_json::to_vec(pool).expect("a pool saves");
    let bytes = postcard::to_allocvec(pool).expect("a pool saves");
    let loaded: Pool<T, S, B> = serde_json::from_slice(&json).expect("a save loads");
    let again: Pool<T, S, B> = postcard::from_bytes(&bytes).expect("a save loads");
    for copy in [&loaded, &again] {
        assert_copy(pool, copy, model, "a loaded save");
    }
    if seed % 2 == 1 {
        let mut loaded = if seed % 4 == 1 { loaded } else { again };
        for handle in model.live.keys() {
            loaded.get_mut(*handle).expect("live").rehold(&model.held);
        }
        *pool = loaded;
        model.forgotten = 0;
    }
    let mut rng = fastrand::Rng::with_seed(u64::from(seed));
    for round in 0..mutations {
        let json_round = round % 2 == 0;
        let mut save = if json_round {
            json.clone()
        } else {
            bytes.clone()
        };
        mutate(&mut rng, &mut save);
        let result = if json_round {
            serde_json::from_slice::<Pool<T, S, B>>(&save).ok()
        } else {
            postcard::from_bytes::<Pool<T, S, B>>(&save).ok()
        };
        if let Some(mut mutant) = result {
            mutant
                .check_consistency()
                .unwrap_or_else(|why| panic!("a mutated save loaded broken: {why}"));
            let held = Rc::new(());
            let _ = (0..4)
                .map_while(|i| mutant.try_create(|o| o.fill(i, &held)).ok())
                .count();
            mutant.check_consistency().expect("after creates");
            mutant.release_all();
            mutant.check_consistency().expect("after release_all");
        }
    }
}

/// One random edit of a save: a bit flipped, a byte replaced, dropped or repeated, a cut, or a
/// span of up to 32 bytes repeated up to three times (a row or an object more).
pub(crate) fn mutate(rng: &mut fastrand::Rng, bytes: &mut Vec<u8>) {
    if bytes.is_empty() {
        return;
    }
    let at = rng.usize(..bytes.len());
    match rng.u8(..6) {
        5 => {
            let end = rng.usize(at..=bytes.len().min(at + 32));
            let span = bytes[at..end].to_vec();
            for _ in 0..rng.u8(1..=3) {
                bytes.splice(end..end, span.iter().copied());
            }
        }
        0 => bytes[at] ^= 1 << rng.u8(..8),
        1 => bytes[at] = rng.u8(..),
        2 => bytes.truncate(at),
        3 => {
            bytes.remove(at);
        }
        _ => {
            let byte = bytes[rng.usize(..bytes.len())];
            bytes.insert(at, byte);
        }
    }
}

// ---------------------------------------------------------------------------------------------
// The sync pool, single-threaded, against the same model.

/// Runs `ops` on a `SyncPool<T>` that fails when full, and the model, checking them after every
/// step. Steps a sync pool has no counterpart for (clones, saves, shrinking, disjoint borrows)
/// are skipped.
pub(crate) fn run_sync<T: Object>(ops: &[Op], capacity: usize) {
    quiet_panics();
    let elsewhere = Rc::new(());
    let other = SyncPool::<T, Fail>::with_capacity(capacity);
    let foreign: Vec<_> = (0..6)
        .filter_map(|id| other.create(|o| o.fill(id, &elsewhere)).ok())
        .collect();
    let mut pool = SyncPool::<T, Fail>::with_capacity(capacity);
    let mut model: Model<T> = Model {
        live: HashMap::new(),
        dead: VecDeque::new(),
        foreign,
        held: Rc::new(()),
        peak: 0,
        tainted: HashSet::new(),
        forgotten: 0,
    };
    for (step, op) in ops.iter().enumerate() {
        apply_sync(&mut pool, &mut model, *op);
        check_sync(&pool, &model).unwrap_or_else(|problem| {
            panic!("sync, after step {step} ({op:?}): {problem}");
        });
        if step % CONSISTENCY_EVERY == 0 || step + 1 == ops.len() {
            pool.check_consistency()
                .unwrap_or_else(|problem| panic!("sync, after step {step} ({op:?}): {problem}"));
        }
    }
    drop(pool);
    assert_eq!(
        Rc::strong_count(&model.held),
        1,
        "dropping the pool dropped everything"
    );
    drop(other);
    assert_eq!(Rc::strong_count(&elsewhere), 1);
}

fn apply_sync<T: Object>(pool: &mut SyncPool<T, Fail>, model: &mut Model<T>, op: Op) {
    match op {
        Op::Create { id } | Op::CreateMany { id, .. } => {
            let full = pool.stats().free == 0;
            match pool.create(|o| o.fill(id, &model.held)) {
                Ok(handle) => {
                    assert!(model.live.insert(handle, id).is_none(), "{handle:?} twice");
                }
                Err(_) => assert!(full, "create refused a pool with room"),
            }
        }
        Op::Get { pick } => {
            if let Some(handle) = model.pick(pick) {
                let expected = model.live.get(&handle).copied();
                assert_eq!(
                    pool.get(handle).map(|o| o.id()),
                    expected,
                    "get({handle:?})"
                );
                assert_eq!(pool.contains(handle), expected.is_some());
            }
        }
        Op::Modify { pick, id } => {
            if let Some(handle) = model.pick(pick) {
                let known = model.live.get_mut(&handle);
                assert_eq!(pool.get_mut(handle).is_some(), known.is_some(), "get_mut");
                if let (Some(object), Some(known)) = (pool.get_mut(handle), known) {
                    object.refill(id);
                    *known = id;
                }
            }
        }
        Op::Release { pick } | Op::Foreign { pick, .. } => {
            let handle = if let Op::Foreign { .. } = op {
                Some(model.foreign[pick % model.foreign.len()])
            } else {
                model.pick(pick)
            };
            if let Some(handle) = handle {
                let live = model.live.contains_key(&handle);
                assert_eq!(pool.release(handle).is_ok(), live, "release({handle:?})");
                if live {
                    model.bury(handle);
                }
                assert!(pool.release(handle).is_err());
            }
        }
        Op::Retain { modulus } => {
            let gone: Vec<_> = (model.live.iter())
                .filter(|&(_, id)| id % modulus == 0)
                .map(|(h, _)| *h)
                .collect();
            for handle in gone {
                pool.release(handle).expect("live");
                model.bury(handle);
            }
        }
        Op::ReleaseAll => {
            let gone: Vec<_> = model.live.keys().copied().collect();
            for handle in gone {
                pool.release(handle).expect("live");
                model.bury(handle);
            }
        }
        Op::Lease { count, keep } => {
            let leases: Vec<_> = (0..count)
                .map_while(|i| {
                    pool.try_acquire(|o| o.fill(9000 + i as u64, &model.held))
                        .ok()
                })
                .collect();
            assert_eq!(pool.stats().leased, leases.len());
            for (i, lease) in leases.into_iter().enumerate() {
                assert!(lease.is(9000 + i as u64));
                if i % keep == 0 {
                    let id = lease.id();
                    model.live.insert(lease.into_handle(), id);
                }
            }
        }
        Op::PanicInInit { id } => {
            let full = pool.stats().free == 0;
            let result = catch_unwind(AssertUnwindSafe(|| {
                pool.try_create(|o| {
                    o.fill(id, &model.held);
                    panic!("init panics on purpose");
                })
            }));
            assert!(full || result.is_err());
        }
        Op::Trap {
            hook,
            entry,
            skip,
            pick,
        } => trap_sync(pool, model, hook, entry, skip, pick),
        Op::Shrink | Op::Forget { .. } | Op::Snapshot | Op::Disjoint { .. } | Op::Save { .. } => {}
    }
}

/// [`trap`] for the sync pool: an object whose reset panics is retired, not kept live.
fn trap_sync<T: Object>(
    pool: &SyncPool<T, Fail>,
    model: &mut Model<T>,
    hook: Hook,
    entry: Entry,
    skip: u8,
    pick: usize,
) {
    let handle = model.pick(pick).filter(|h| model.live.contains_key(h));
    let held = Rc::clone(&model.held);
    let (outcome, fired) = trapped(hook, skip, || match entry {
        Entry::Create | Entry::TryCreate | Entry::CreateMany => {
            pool.create(|o| o.fill(7000, &held)).ok()
        }
        Entry::Acquire => {
            drop(pool.acquire(|o| o.fill(7002, &held)));
            None
        }
        Entry::AcquireKeep => pool
            .acquire(|o| o.fill(7003, &held))
            .ok()
            .map(pooling::SyncLease::into_handle),
        Entry::Release | Entry::ReleaseAll | Entry::Retain | Entry::Shrink | Entry::Snapshot => {
            if let Some(handle) = handle {
                pool.release(handle).expect("live");
            }
            None
        }
        Entry::GuardDrop => {
            if let Some(handle) = handle {
                let guard = pool.get(handle).expect("live");
                pool.release(handle).expect("live");
                drop(guard);
            }
            None
        }
    });
    pool.check_consistency().unwrap_or_else(|why| {
        panic!("sync, after {hook:?} #{skip} in {entry:?} (fired {fired}): {why}")
    });
    if let Some(handle) = handle
        && !matches!(
            entry,
            Entry::Create
                | Entry::TryCreate
                | Entry::CreateMany
                | Entry::Acquire
                | Entry::AcquireKeep
        )
    {
        // Released before any hook ran: gone, whether its reset panicked (retired) or not.
        assert!(
            !pool.contains(handle),
            "{handle:?} still live after release"
        );
        model.bury(handle);
    }
    if let Some(handle) = outcome.flatten() {
        let id = pool.get(handle).expect("just made live").id();
        model.live.insert(handle, id);
    }
}

fn check_sync<T: Object>(pool: &SyncPool<T, Fail>, model: &Model<T>) -> Result<(), String> {
    let stats = pool.stats();
    let live = model.live.len();
    if pool.len() != live || stats.live != live || stats.leased != 0 {
        return Err(format!(
            "len {} / stats {stats:?} / model {live}",
            pool.len()
        ));
    }
    if stats.live + stats.free + stats.retired != stats.capacity {
        return Err(format!("slots do not add up: {stats:?}"));
    }
    if stats.created != stats.released + live as u64 {
        return Err(format!("objects do not add up: {stats:?}"));
    }
    for (handle, id) in &model.live {
        if !pool.get(*handle).is_some_and(|o| o.is(*id)) {
            return Err(format!("{handle:?} is not object {id}"));
        }
    }
    for handle in model.dead.iter().chain(&model.foreign) {
        if pool.get(*handle).is_some() || pool.contains(*handle) {
            return Err(format!("the gone {handle:?} reaches an object"));
        }
    }
    // Objects whose reset panicked are retired, perhaps still holding their reference.
    let held = Rc::strong_count(&model.held) - 1;
    if held < live || held > live + stats.retired {
        return Err(format!("{held} references held by {live} live objects"));
    }
    Ok(())
}
