//! `on_full = evict` for column pools (issue 33): the `evict_by` measure ranks rows, and a full
//! pool evicts as the default layout's does.

use pooling::{Handle, Pooled, TotalOrder};
use std::cell::Cell;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::rc::Rc;

#[derive(Pooled)]
#[pool(size = 3, on_full = evict, evict_by = |v| TotalOrder(*v.volume), layout = columns)]
struct Voice {
    volume: f32,
    sample: Option<Rc<()>>,
}

/// `Voice`'s twin in the default layout: the model.
#[derive(Pooled)]
#[pool(size = 3, on_full = evict, evict_by = |v| TotalOrder(v.volume))]
struct Twin {
    volume: f32,
    sample: Option<Rc<()>>,
}

thread_local! {
    static FRAGILE: Cell<bool> = const { Cell::new(false) };
}

fn fragile_reset(log: &mut Vec<u8>) {
    assert!(!FRAGILE.get(), "the reset panics");
    log.clear();
}

#[derive(Pooled)]
#[pool(size = 2, on_full = evict, evict_by = |n| *n.rank, layout = columns)]
struct Note {
    rank: u32,
    #[pool(reset_with = fragile_reset)]
    log: Vec<u8>,
}

#[test]
fn a_full_pool_evicts_the_row_ranked_lowest_and_resets_it() {
    let sample = Rc::new(());
    let mut voices = VoicePool::new();
    let loud = voices.create(|v| *v.volume = 0.9);
    let quiet = voices.create(|v| {
        *v.volume = 0.1;
        *v.sample = Some(Rc::clone(&sample));
    });
    let also_quiet = voices.create(|v| *v.volume = 0.1);
    assert_eq!(voices.victim(), Some(quiet), "the lowest slot of equals");
    let new = voices.create(|v| *v.volume = 0.5);
    assert!(voices.get(quiet).is_none(), "evicted: its handle is stale");
    assert_eq!(Rc::strong_count(&sample), 1, "its row was reset");
    assert_eq!(new.index(), quiet.index(), "its slot reused");
    assert!(voices.contains(loud) && voices.contains(also_quiet));
    let stats = voices.stats();
    assert_eq!((stats.live, stats.evicted, stats.created), (3, 1, 4));
    voices.check_consistency().unwrap();
}

#[test]
fn random_creates_evict_as_the_default_layout_does() {
    for seed in 0..if cfg!(miri) { 2 } else { 30 } {
        let mut rng = fastrand::Rng::with_seed(seed);
        let (mut voices, mut twins) = (VoicePool::new(), TwinPool::new());
        let mut handles: Vec<(Handle<Voice>, Handle<Twin>)> = Vec::new();
        for step in 0..120 {
            if rng.u8(..4) == 0 && !handles.is_empty() {
                let (a, b) = handles.swap_remove(rng.usize(..handles.len()));
                assert_eq!(voices.release(a).is_ok(), twins.release(b).is_ok());
                continue;
            }
            let volume = f32::from(rng.u8(..8));
            let a = voices.create(|v| *v.volume = volume);
            let b = twins.create(|v| v.volume = volume);
            assert_eq!(a.index(), b.index(), "seed {seed}, step {step}");
            handles.push((a, b));
            let rows: Vec<_> = voices.iter().map(|(h, v)| (h.index(), *v.volume)).collect();
            let model: Vec<_> = twins.iter().map(|(h, v)| (h.index(), v.volume)).collect();
            assert_eq!(rows, model, "seed {seed}, step {step}");
            assert_eq!(voices.stats().evicted, twins.stats().evicted);
        }
    }
}

#[test]
fn leases_never_evict() {
    let mut voices = VoicePool::new();
    for volume in [0.1, 0.2, 0.3] {
        voices.create(|v| *v.volume = volume);
    }
    let lender = voices.lender();
    assert!(
        lender.acquire(|_| {}).is_err(),
        "full, and leases never evict"
    );
    assert_eq!(lender.stats().evicted, 0);
}

#[test]
fn a_pool_full_of_leases_has_nothing_to_evict_and_stays_whole() {
    let mut notes = NotePool::new();
    {
        let lender = notes.lender();
        let leases = [
            lender.acquire(|_| {}).unwrap(),
            lender.acquire(|_| {}).unwrap(),
        ];
        std::mem::forget(leases);
    }
    let full = catch_unwind(AssertUnwindSafe(|| notes.create(|_| {})));
    assert!(full.is_err(), "nothing live to evict");
    notes.check_consistency().unwrap();
    assert_eq!(notes.stats().leased, 2);
}

#[test]
fn a_reset_that_panics_while_evicting_leaves_the_victim_live() {
    let mut notes = NotePool::new();
    let low = notes.create(|n| {
        *n.rank = 1;
        n.log.push(1);
    });
    let high = notes.create(|n| *n.rank = 2);
    FRAGILE.set(true);
    let evicted = catch_unwind(AssertUnwindSafe(|| notes.create(|n| *n.rank = 3)));
    FRAGILE.set(false);
    assert!(evicted.is_err());
    assert!(
        notes.contains(low) && notes.contains(high),
        "nothing evicted"
    );
    assert_eq!(notes.stats().evicted, 0);
    notes.check_consistency().unwrap();
    let new = notes.create(|n| *n.rank = 3);
    assert!(!notes.contains(low));
    assert!(notes.get(new).unwrap().log.is_empty());
}

/// A measure handed through a `macro_rules!` `expr` fragment, which wraps it in an invisible
/// group.
macro_rules! ranked {
    ($name:ident, $rank:expr) => {
        #[derive(Pooled)]
        #[pool(size = 2, on_full = evict, evict_by = $rank, layout = columns)]
        struct $name {
            rank: u32,
        }
    };
}

ranked!(Ranked, |r| *r.rank);

#[test]
fn a_measure_passed_through_a_macro_is_read() {
    let mut pool = RankedPool::new();
    let low = pool.create(|r| *r.rank = 1);
    let high = pool.create(|r| *r.rank = 9);
    pool.create(|r| *r.rank = 5);
    assert!(!pool.contains(low) && pool.contains(high));
}
