//! Parallel iteration with rayon (the `rayon` feature) against the sequential iterators, on a
//! heap pool, a grown one and an inline one, on four threads. Miri skips `rayon_walks::`: rayon's
//! threads are too slow under it (pool-core's `par::` unit tests drive the same code without
//! threads there).

mod rayon_walks {
    use pooling::{Fail, Grow, Handle, Inline, Pool, Pooled, Storage};
    use rayon::prelude::*;
    use std::panic::{AssertUnwindSafe, catch_unwind};

    #[derive(Pooled, Clone, Debug, PartialEq)]
    #[pool(size = 3000)]
    struct Spark {
        id: u32,
        x: f64,
        v: f64,
        trail: Vec<u32>,
    }

    type Heap = Pool<Spark>;
    type Grown = Pool<Spark, Grow<9000>>;
    type Inlined = Pool<Spark, Fail, Inline<3000, 47>>;

    /// Four threads, whatever the machine has, so that the work is split and stolen.
    fn on_four_threads<R: Send>(run: impl FnOnce() -> R + Send) -> R {
        let threads = rayon::ThreadPoolBuilder::new().num_threads(4).build();
        threads.expect("a thread pool").install(run)
    }

    fn spark(id: u32) -> impl FnOnce(&mut Spark) {
        move |s| {
            s.id = id;
            s.x = f64::from(id);
            s.v = f64::from(id % 7) - 3.0;
            s.trail.push(id);
        }
    }

    /// `count` sparks made by `create`, then every third released, so that the groups have
    /// holes.
    fn fill<P>(
        pool: &mut P,
        count: u32,
        mut create: impl FnMut(&mut P, u32) -> Option<Handle<Spark>>,
        mut release: impl FnMut(&mut P, Handle<Spark>),
    ) {
        let handles: Vec<_> = (0..count)
            .map(|id| create(pool, id).expect("room for every spark"))
            .collect();
        for handle in handles.into_iter().skip(1).step_by(3) {
            release(pool, handle);
        }
    }

    fn heap() -> Heap {
        let mut pool = Heap::new();
        fill(
            &mut pool,
            3000,
            |p, id| p.try_create(spark(id)).ok(),
            |p, h| {
                p.release(h).unwrap();
            },
        );
        pool
    }

    /// Chunks of 3000, 4096 and 1904 slots.
    fn grown() -> Grown {
        let mut pool = Grown::new();
        fill(
            &mut pool,
            9000,
            |p, id| p.create(spark(id)).ok(),
            |p, h| {
                p.release(h).unwrap();
            },
        );
        assert_eq!(pool.stats().chunks, 3);
        pool
    }

    fn inlined() -> Box<Inlined> {
        let mut pool = Box::new(Inlined::new());
        fill(
            &mut *pool,
            3000,
            |p, id| p.try_create(spark(id)).ok(),
            |p, h| {
                p.release(h).unwrap();
            },
        );
        pool
    }

    fn step(s: &mut Spark) {
        for _ in 0..4 {
            s.v -= s.x * 0.01;
            s.x += s.v * 0.1;
        }
    }

    fn walks_as_sequential<S, B: Storage>(pool: &mut Pool<Spark, S, B>)
    where
        Pool<Spark, S, B>: Clone + Send,
    {
        let mut sequential = pool.clone();
        sequential.values_mut().for_each(step);
        on_four_threads(|| pool.par_values_mut().for_each(step));
        assert_eq!(
            pool.iter().collect::<Vec<_>>(),
            sequential.iter().collect::<Vec<_>>()
        );

        let expected: Vec<(Handle<Spark>, u32)> =
            sequential.iter_mut().map(|(h, s)| (h, s.id)).collect();
        let walked: Vec<(Handle<Spark>, u32)> =
            on_four_threads(|| pool.par_iter_mut().map(|(h, s)| (h, s.id)).collect());
        assert_eq!(walked, expected);
        assert_eq!(walked.len(), pool.len());
    }

    #[test]
    fn par_values_mut_and_par_iter_mut_do_what_the_sequential_ones_do() {
        walks_as_sequential(&mut heap());
        walks_as_sequential(&mut grown());
        walks_as_sequential(&mut *inlined());
    }

    fn reads_as_sequential<S, B: Storage>(pool: &Pool<Spark, S, B>)
    where
        Pool<Spark, S, B>: Sync,
    {
        let expected: Vec<(Handle<Spark>, &Spark)> = pool.iter().collect();
        let read: Vec<(Handle<Spark>, &Spark)> = on_four_threads(|| pool.par_iter().collect());
        assert_eq!(read, expected);
        let ids: u64 = on_four_threads(|| pool.par_values().map(|s| u64::from(s.id)).sum());
        assert_eq!(ids, pool.values().map(|s| u64::from(s.id)).sum::<u64>());
        assert_eq!(on_four_threads(|| pool.par_values().count()), pool.len());
    }

    #[test]
    fn par_iter_and_par_values_read_what_the_sequential_ones_read() {
        reads_as_sequential(&heap());
        reads_as_sequential(&grown());
        reads_as_sequential(&*inlined());
    }

    #[test]
    fn a_pool_behind_a_rwlock_is_read_in_parallel_from_other_threads() {
        let pool = std::sync::Arc::new(std::sync::RwLock::new(heap()));
        let expected: u64 = pool.read().unwrap().values().map(|s| u64::from(s.id)).sum();
        let readers: Vec<_> = (0..2)
            .map(|_| {
                let pool = std::sync::Arc::clone(&pool);
                std::thread::spawn(move || {
                    let pool = pool.read().unwrap();
                    on_four_threads(|| pool.par_values().map(|s| u64::from(s.id)).sum::<u64>())
                })
            })
            .collect();
        for reader in readers {
            assert_eq!(reader.join().unwrap(), expected);
        }
        on_four_threads(|| {
            pool.write()
                .unwrap()
                .par_values_mut()
                .for_each(|s| s.id += 1);
        });
        let after: u64 = pool.read().unwrap().values().map(|s| u64::from(s.id)).sum();
        assert_eq!(after, expected + 2000);
    }

    /// Steps a spark, and kills every fifth and those the step takes below `x = 0`.
    fn dies(s: &mut Spark) -> bool {
        step(s);
        s.x >= 0.0 && !s.id.is_multiple_of(5)
    }

    /// The slots the next `create`s take, in order: the free list.
    fn taken_in_order<S, B: Storage>(pool: &mut Pool<Spark, S, B>) -> Vec<usize> {
        std::iter::from_fn(|| pool.try_create(|_| {}).ok())
            .map(Handle::index)
            .collect()
    }

    fn retains_as_sequential<S, B: Storage>(pool: &mut Pool<Spark, S, B>)
    where
        Pool<Spark, S, B>: Clone + Send,
    {
        let released = pool.stats().released;
        let mut sequential = pool.clone();
        sequential.retain(dies);
        on_four_threads(|| pool.par_retain(dies));
        assert!(pool.stats().released > released + 100);
        assert_eq!(pool.stats(), sequential.stats());
        assert_eq!(
            pool.iter().collect::<Vec<_>>(),
            sequential.iter().collect::<Vec<_>>()
        );
        let free = pool.stats().free;
        let taken = taken_in_order(pool);
        assert_eq!(taken.len(), free);
        assert_eq!(taken, taken_in_order(&mut sequential));
    }

    #[test]
    fn par_retain_leaves_the_free_list_and_stats_of_retain() {
        retains_as_sequential(&mut heap());
        retains_as_sequential(&mut grown());
        retains_as_sequential(&mut *inlined());
    }

    #[test]
    fn par_retain_gives_the_same_free_list_however_it_splits() {
        let mut one = heap();
        let mut two = one.clone();
        rayon::ThreadPoolBuilder::new()
            .num_threads(1)
            .build()
            .unwrap()
            .install(|| one.par_retain(dies));
        on_four_threads(|| two.par_retain(dies));
        assert_eq!(taken_in_order(&mut one), taken_in_order(&mut two));
    }

    fn panics_leave_the_pool_whole<S, B: Storage>(pool: &mut Pool<Spark, S, B>)
    where
        Pool<Spark, S, B>: Send,
    {
        let (live_before, released_before) = (pool.len(), pool.stats().released);
        let capacity = pool.capacity();
        let ids: Vec<u32> = pool.values().map(|s| s.id).collect();
        let panics_at = ids[ids.len() / 2];
        let result = catch_unwind(AssertUnwindSafe(|| {
            on_four_threads(|| {
                pool.par_retain(|s| {
                    assert!(s.id != panics_at, "a closure panics");
                    s.id % 2 == 0
                });
            });
        }));
        assert!(result.is_err(), "the panic reaches the caller");

        let stats = pool.stats();
        assert_eq!(pool.len(), pool.iter().count());
        assert_eq!(
            pool.len(),
            pool.values().filter(|s| !s.trail.is_empty()).count()
        );
        assert!(
            pool.values().any(|s| s.id == panics_at),
            "the panicking object is kept"
        );
        let released = live_before - pool.len();
        assert_eq!(stats.released, released_before + released as u64);
        // Every released spark was odd and reset.
        assert!(pool.values().all(|s| s.trail == [s.id]));
        let taken = taken_in_order(pool);
        assert_eq!(taken.len(), capacity - live_before + released);
        let mut unique = taken.clone();
        unique.sort_unstable();
        unique.dedup();
        assert_eq!(
            unique.len(),
            taken.len(),
            "no slot is on the free list twice"
        );
        assert!(pool.is_full());
        assert_eq!(pool.len(), capacity);
    }

    #[test]
    fn a_panic_in_par_retain_reaches_the_caller_and_leaves_the_pool_whole() {
        let mut heap = heap();
        let mut grown = grown();
        panics_leave_the_pool_whole(&mut heap);
        panics_leave_the_pool_whole(&mut grown);
        panics_leave_the_pool_whole(&mut *inlined());
    }

    /// A reset that panics on one object: that of the fuse 13.
    fn fallible_reset(fuse: &mut u32) {
        assert!(*fuse != 13, "a reset panics");
        *fuse = 0;
    }

    #[derive(Pooled)]
    #[pool(size = 2000)]
    struct Fused {
        #[pool(reset_with = fallible_reset)]
        fuse: u32,
        trail: Vec<u32>,
    }

    #[test]
    fn a_panic_in_a_reset_during_par_retain_keeps_that_object_and_the_pool_whole() {
        let mut pool = FusedPool::new();
        for fuse in 0..2000 {
            pool.create(|f| {
                f.fuse = fuse;
                f.trail.push(fuse);
            })
            .expect("room");
        }
        let result = catch_unwind(AssertUnwindSafe(|| {
            on_four_threads(|| pool.par_retain(|f| f.fuse % 2 == 0));
        }));
        assert!(result.is_err(), "the reset's panic reaches the caller");
        pool.check_consistency().expect("the pool is whole");
        assert!(
            pool.values().any(|f| f.fuse == 13),
            "the object whose reset panicked stays live"
        );
        assert!(pool.values().all(|f| f.trail == [f.fuse]));
        let stats = pool.stats();
        assert_eq!(stats.live, pool.len());
        assert_eq!(stats.released, 2000 - pool.len() as u64);
        let free = 2000 - pool.len();
        for _ in 0..free {
            pool.create(|_| {}).expect("every freed slot can be taken");
        }
        assert!(pool.is_full());
        pool.check_consistency().expect("the pool is whole");
    }
}
