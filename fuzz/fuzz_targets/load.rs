//! Saves as untrusted input, from libFuzzer: the first byte picks the format (JSON or postcard)
//! and the pool (a heap pool of each full-pool strategy, an inline one, one of an enum); the
//! rest is the save. A load is an error or a pool whose books are whole, which then survives
//! use: creates until full, releases, a lease through its lender, each followed by a full check.

#![no_main]

#[path = "../../tests/support/model.rs"]
#[allow(dead_code)]
mod model;
#[path = "../../tests/support/subjects.rs"]
mod subjects;

use pooling::{Evict, Fail, Grow, Heap, Inline, Panic, Pool, Pooled, Storage};
use serde::de::DeserializeOwned;
use subjects::{Boss, Chirp, Enemy, Shot, Spark, Voice};

/// Loads `save` as a `Pool<T, S, B>` from JSON or postcard, and uses what loads.
fn load<T: Pooled, S, B: Storage>(postcard: bool, save: &[u8])
where
    Pool<T, S, B>: DeserializeOwned,
{
    let loaded = if postcard {
        postcard::from_bytes::<Pool<T, S, B>>(save).ok()
    } else {
        serde_json::from_slice::<Pool<T, S, B>>(save).ok()
    };
    let Some(mut pool) = loaded else {
        return;
    };
    pool.check_consistency()
        .unwrap_or_else(|why| panic!("a loaded pool with broken books: {why}"));
    let live: Vec<_> = pool.iter().map(|(h, _)| h).collect();
    assert_eq!(live.len(), pool.len());
    assert!(live.iter().all(|&h| pool.contains(h)));
    let mut made = Vec::new();
    while made.len() < 64 {
        match pool.try_create(|_| {}) {
            Ok(handle) => made.push(handle),
            Err(_) => break,
        }
    }
    pool.check_consistency().unwrap();
    for handle in live.iter().chain(&made).step_by(2) {
        pool.release(*handle).unwrap();
    }
    pool.check_consistency().unwrap();
    let lent = pool.lender().try_acquire(|_| {}).map(|lease| lease.into_handle());
    pool.check_consistency().unwrap();
    if let Ok(handle) = lent {
        pool.release(handle).unwrap();
    }
    pool.release_all();
    pool.check_consistency().unwrap();
}

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    let Some((&which, save)) = data.split_first() else {
        return;
    };
    let postcard = which & 1 == 1;
    match (which >> 1) % 6 {
        0 => load::<Spark, Fail, Heap>(postcard, save),
        1 => load::<Boss, Panic, Heap>(postcard, save),
        2 => load::<Voice, Evict, Heap>(postcard, save),
        3 => load::<Enemy, Grow<24>, Heap>(postcard, save),
        4 => load::<Chirp, Evict, Inline<70, 2>>(postcard, save),
        _ => load::<Shot, Grow<12>, Heap>(postcard, save),
    }
});
