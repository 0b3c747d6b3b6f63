//! The methods a pool does not have where users look for them, present as a compile error that
//! says where they are: a `Pool`'s leases are its lender's (`acquire` on a `Pool` fails with "a
//! `Pool` lends objects through its `Lender`..."). And the methods a feature adds, present
//! without it as a compile error that names the feature:
//! `pool.par_values()` without `rayon` fails with "parallel iteration over a pool of `Spark`
//! needs the `rayon` feature of `pooling`", not with "no method named `par_values`"; a heap
//! pool's `new()` without `alloc`, with "a heap pool of `Particle` needs the `alloc` feature".
//! Each takes a bound that no type meets (`T: RayonFeature`), so it cannot be called; hidden
//! from the docs, which are built with every feature.

#[cfg(not(feature = "alloc"))]
pub use heap::AllocFeature;
#[cfg(not(feature = "rayon"))]
pub use parallel::RayonFeature;

#[cfg(all(
    feature = "alloc",
    any(target_has_atomic = "32", feature = "portable-atomic"),
    not(feature = "async")
))]
pub use waiting::AsyncFeature;

/// What a stand-in for a parallel walk returns: nothing can be done with it.
#[cfg(not(feature = "rayon"))]
#[derive(Debug)]
pub enum MissingFeature {}

#[cfg(not(feature = "alloc"))]
/// A heap pool's constructors, without `alloc`.
pub mod heap {
    use crate::{Heap, Pool, Pooled};

    /// Met by no type: the bound of a heap pool's constructors without the `alloc` feature.
    #[diagnostic::on_unimplemented(
        message = "a heap pool of `{Self}` needs the `alloc` feature of `pooling`",
        label = "heap pools (`storage = heap`, the default) come with the `alloc` feature",
        note = "add `features = [\"alloc\"]` to the `pooling` dependency, or keep the slots inside the pool with `#[pool(storage = inline)]`"
    )]
    pub trait AllocFeature {}

    #[doc(hidden)]
    impl<T: Pooled, S> Pool<T, S, Heap> {
        /// With the `alloc` feature, a pool of `T::SIZE` slots on the heap.
        pub fn new() -> Self
        where
            T: AllocFeature,
        {
            unreachable!("no type implements `AllocFeature`")
        }

        /// With the `alloc` feature, a pool of `capacity` slots on the heap.
        pub fn with_capacity(capacity: usize) -> Self
        where
            T: AllocFeature,
        {
            let _ = capacity;
            unreachable!("no type implements `AllocFeature`")
        }
    }
}

#[cfg(not(feature = "rayon"))]
/// The parallel walks, without `rayon`.
pub mod parallel {
    use super::MissingFeature;
    use crate::{Pool, Pooled, Storage};

    /// Met by no type: the bound of the parallel walks without the `rayon` feature.
    #[diagnostic::on_unimplemented(
        message = "parallel iteration over a pool of `{Self}` needs the `rayon` feature of `pooling`",
        label = "`par_iter`, `par_iter_mut`, `par_values`, `par_values_mut`, `par_retain` and a column pool's `par_runs_mut` and `par_groups_mut` come with the `rayon` feature",
        note = "add `features = [\"rayon\"]` to the `pooling` dependency"
    )]
    pub trait RayonFeature {}

    #[doc(hidden)]
    impl<T: Pooled, S, B: Storage> Pool<T, S, B> {
        /// With the `rayon` feature, rayon's `par_iter`.
        pub fn par_iter(&self) -> MissingFeature
        where
            T: RayonFeature,
        {
            unreachable!("no type implements `RayonFeature`")
        }

        /// With the `rayon` feature, rayon's `par_iter_mut`.
        pub fn par_iter_mut(&mut self) -> MissingFeature
        where
            T: RayonFeature,
        {
            unreachable!("no type implements `RayonFeature`")
        }

        /// With the `rayon` feature, the live objects in parallel.
        pub fn par_values(&self) -> MissingFeature
        where
            T: RayonFeature,
        {
            unreachable!("no type implements `RayonFeature`")
        }

        /// With the `rayon` feature, the live objects mutably in parallel.
        pub fn par_values_mut(&mut self) -> MissingFeature
        where
            T: RayonFeature,
        {
            unreachable!("no type implements `RayonFeature`")
        }

        /// With the `rayon` feature, `retain` in parallel.
        pub fn par_retain(&mut self, keep: impl Fn(&mut T) -> bool)
        where
            T: RayonFeature,
        {
            let _ = keep;
            unreachable!("no type implements `RayonFeature`")
        }
    }

    #[cfg(feature = "alloc")]
    #[doc(hidden)]
    impl<P: crate::Columnar, S> crate::ColumnPool<P, S> {
        /// With the `rayon` feature, the runs of column slices in parallel.
        pub fn par_runs_mut(&mut self) -> MissingFeature
        where
            P: RayonFeature,
        {
            unreachable!("no type implements `RayonFeature`")
        }

        /// With the `rayon` feature, the groups of column slices in parallel.
        pub fn par_groups_mut(&mut self) -> MissingFeature
        where
            P: RayonFeature,
        {
            unreachable!("no type implements `RayonFeature`")
        }
    }
}

#[cfg(all(
    feature = "alloc",
    any(target_has_atomic = "32", feature = "portable-atomic"),
    not(feature = "async")
))]
/// Waiting for a slot, without `async`.
pub mod waiting {
    use crate::{OwnedSyncLease, Pooled, SyncLease, SyncPool};
    use alloc::sync::Arc;
    use core::future::Pending;

    /// Met by no type: the bound of waiting for a slot without the `async` feature.
    #[diagnostic::on_unimplemented(
        message = "waiting for a free slot of a pool of `{Self}` needs the `async` feature of `pooling`",
        label = "`acquire_async` and `acquire_owned_async` come with the `async` feature",
        note = "add `features = [\"async\"]` to the `pooling` dependency"
    )]
    pub trait AsyncFeature {}

    #[doc(hidden)]
    impl<T: Pooled, S> SyncPool<T, S> {
        /// With the `async` feature, a lease as soon as a slot is free.
        pub fn acquire_async(&self, init: impl FnOnce(&mut T)) -> Pending<SyncLease<'_, T>>
        where
            T: AsyncFeature,
        {
            let _ = init;
            unreachable!("no type implements `AsyncFeature`")
        }

        /// With the `async` feature, an owned lease as soon as a slot is free.
        pub fn acquire_owned_async<F: FnOnce(&mut T)>(
            self: &Arc<Self>,
            init: F,
        ) -> Pending<OwnedSyncLease<T, S>>
        where
            T: AsyncFeature,
        {
            let _ = init;
            unreachable!("no type implements `AsyncFeature`")
        }
    }
}

/// A `Pool`'s leases, which are its lender's.
pub mod lending {
    use crate::{Lease, Pool, PoolFull, Pooled, Storage};

    #[doc(hidden)]
    impl<T: Pooled, S, B: Storage> Pool<T, S, B> {
        /// Not a method of `Pool`: a pool lends through its [`Lender`](crate::Lender). Here so that
        /// a call says so at compile time.
        #[doc(hidden)]
        pub fn acquire<F>(&self, init: F) -> Result<Lease<'_, T>, PoolFull>
        where
            Self: LendsThroughItsLender<T>,
        {
            LendsThroughItsLender::lend(self, init)
        }

        /// Not a method of `Pool`: a pool lends through its [`Lender`](crate::Lender). Here so that
        /// a call says so at compile time.
        #[doc(hidden)]
        pub fn try_acquire<F>(&self, init: F) -> Result<Lease<'_, T>, PoolFull>
        where
            Self: LendsThroughItsLender<T>,
        {
            LendsThroughItsLender::lend(self, init)
        }
    }

    /// Implemented by no type: the bound of the `acquire` a `Pool` does not have, whose message
    /// points to its lender.
    #[doc(hidden)]
    #[diagnostic::on_unimplemented(
        message = "a `Pool` lends objects through its `Lender`, which holds it mutably: `let pool = pool.lender();` then `pool.acquire(...)`",
        label = "`acquire` and `try_acquire` are methods of `pooling::Lender`, from `Pool::lender(&mut self)`",
        note = "for a pool that many threads lease from at once, use a `SyncPool`: `#[pool(size = N, sync)]`"
    )]
    pub trait LendsThroughItsLender<T: Pooled> {
        /// Never called: no type implements the trait.
        fn lend<F>(&self, init: F) -> Result<crate::Lease<'_, T>, PoolFull>;
    }
}

pub use lending::LendsThroughItsLender;
