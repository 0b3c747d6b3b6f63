//! The methods of the pool type `#[derive(Pooled)]` generates (`ParticlePool` for `Particle`),
//! written once here: the derive invokes `__pool_methods!` with the pool's name, its object
//! type, its generics and its full-pool strategy, so its own output stays short enough to read.
//! Every method forwards to [`Pool`](crate::Pool).

/// The inherent methods and trait impls of a generated pool type.
#[doc(hidden)]
#[macro_export]
macro_rules! __pool_methods {
    (
        pool: $pool:ident,
        name: $name:literal,
        object: $object:ty,
        impl: [$($impl_generics:tt)*],
        generics: [$($ty_generics:tt)*],
        where: [$($where:tt)*],
        borrowed: [$($borrowed:tt)*],
        debug_where: [$($debug_where:tt)*],
        create: $create:ident $(($measure:ident))?
    ) => {
        #[automatically_derived]
        #[allow(dead_code)]
        impl $($impl_generics)* $pool $($ty_generics)* $($where)* {
            /// Builds the pool with its default capacity, from `#[pool(size = N)]`.
            #[inline]
            pub fn new() -> Self {
                Self($crate::Pool::new())
            }

            /// Builds the pool with `capacity` slots instead of its default size.
            #[inline]
            pub fn with_capacity(capacity: usize) -> Self {
                Self($crate::Pool::with_capacity(capacity))
            }

            /// The number of slots, live or not.
            #[inline]
            pub fn capacity(&self) -> usize {
                self.0.capacity()
            }

            /// The number of live objects.
            #[inline]
            pub fn len(&self) -> usize {
                self.0.len()
            }

            /// Whether no object is live.
            #[inline]
            pub fn is_empty(&self) -> bool {
                self.0.is_empty()
            }

            /// Whether no slot is free.
            #[inline]
            pub fn is_full(&self) -> bool {
                self.0.is_full()
            }

            $crate::__pool_create!($create $(($measure))?; $object; $name);

            /// The object `handle` names, or `None` once it has been released.
            #[inline]
            pub fn get(&self, handle: $crate::Handle<$object>) -> ::core::option::Option<&$object> {
                self.0.get(handle)
            }

            /// The object `handle` names, mutably, or `None` once it has been released.
            #[inline]
            pub fn get_mut(
                &mut self,
                handle: $crate::Handle<$object>,
            ) -> ::core::option::Option<&mut $object> {
                self.0.get_mut(handle)
            }

            /// Whether `handle` names a live object.
            #[inline]
            pub fn contains(&self, handle: $crate::Handle<$object>) -> bool {
                self.0.contains(handle)
            }

            /// Resets the object `handle` names and frees its slot; an error, changing nothing,
            /// when it was already released.
            #[inline]
            pub fn release(
                &mut self,
                handle: $crate::Handle<$object>,
            ) -> ::core::result::Result<(), $crate::StaleHandle> {
                self.0.release(handle)
            }

            /// Live objects with their handles, in slot order.
            #[inline]
            pub fn iter(&self) -> $crate::Iter<'_, $object> {
                self.0.iter()
            }

            /// Live objects with their handles, mutably, in slot order.
            #[inline]
            pub fn iter_mut(&mut self) -> $crate::IterMut<'_, $object> {
                self.0.iter_mut()
            }

            /// Live objects without their handles, in slot order.
            #[inline]
            pub fn values(&self) -> $crate::Values<'_, $object> {
                self.0.values()
            }

            /// Live objects without their handles, mutably, in slot order.
            #[inline]
            pub fn values_mut(&mut self) -> $crate::ValuesMut<'_, $object> {
                self.0.values_mut()
            }

            /// Calls `keep` on every live object and releases each one for which it returns false.
            #[inline]
            pub fn retain(&mut self, keep: impl ::core::ops::FnMut(&mut $object) -> bool) {
                self.0.retain(keep);
            }

            /// Releases every live object; every outstanding handle becomes stale.
            #[inline]
            pub fn release_all(&mut self) {
                self.0.release_all();
            }

            /// Occupancy and traffic figures for sizing the pool.
            #[inline]
            pub fn stats(&self) -> $crate::Stats {
                self.0.stats()
            }
        }

        #[automatically_derived]
        impl $($impl_generics)* ::core::default::Default for $pool $($ty_generics)* $($where)* {
            #[inline]
            fn default() -> Self {
                Self::new()
            }
        }

        #[automatically_derived]
        impl $($impl_generics)* ::core::fmt::Debug for $pool $($ty_generics)* $($debug_where)* {
            fn fmt(&self, f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {
                $crate::__private::debug_pool($name, &self.0, f)
            }
        }

        #[automatically_derived]
        impl $($borrowed)* ::core::iter::IntoIterator for &'__pool $pool $($ty_generics)* $($where)* {
            type Item = ($crate::Handle<$object>, &'__pool $object);
            type IntoIter = $crate::Iter<'__pool, $object>;

            #[inline]
            fn into_iter(self) -> Self::IntoIter {
                self.0.iter()
            }
        }

        #[automatically_derived]
        impl $($borrowed)* ::core::iter::IntoIterator for &'__pool mut $pool $($ty_generics)* $($where)* {
            type Item = ($crate::Handle<$object>, &'__pool mut $object);
            type IntoIter = $crate::IterMut<'__pool, $object>;

            #[inline]
            fn into_iter(self) -> Self::IntoIter {
                self.0.iter_mut()
            }
        }
    };
}

/// `create` and `acquire` as the full-pool strategy has them, and what goes with them:
/// `try_create`/`try_acquire` where they cannot fail, `victim` where `create` evicts, `shrink`
/// where the pool grows.
#[doc(hidden)]
#[macro_export]
macro_rules! __pool_create {
    (fail; $object:ty; $name:literal) => {
        /// Takes a free slot, hands its blank object to `init` and returns its handle; an error,
        /// changing nothing, when the pool is full.
        #[inline]
        pub fn create(
            &mut self,
            init: impl ::core::ops::FnOnce(&mut $object),
        ) -> ::core::result::Result<$crate::Handle<$object>, $crate::PoolFull> {
            self.0.create(init)
        }

        /// Lends a blank object set up by `init`, through `&self`; it comes back, reset, when the
        /// lease drops. An error, changing nothing, when no slot is free.
        #[inline]
        pub fn acquire(
            &self,
            init: impl ::core::ops::FnOnce(&mut $object),
        ) -> ::core::result::Result<$crate::Lease<'_, $object>, $crate::PoolFull> {
            self.0.acquire(init)
        }
    };
    (panic; $object:ty; $name:literal) => {
        /// Takes a free slot, hands its blank object to `init` and returns its handle.
        ///
        /// # Panics
        /// When the pool is full, naming its capacity and high-water mark.
        #[inline]
        #[track_caller]
        pub fn create(
            &mut self,
            init: impl ::core::ops::FnOnce(&mut $object),
        ) -> $crate::Handle<$object> {
            $crate::__private::create_or_panic(&mut self.0, $name, init)
        }

        /// Creates an object if a slot is free, without panicking; an error, changing nothing,
        /// when the pool is full.
        #[inline]
        pub fn try_create(
            &mut self,
            init: impl ::core::ops::FnOnce(&mut $object),
        ) -> ::core::result::Result<$crate::Handle<$object>, $crate::PoolFull> {
            self.0.create(init)
        }

        /// Lends a blank object set up by `init`, through `&self`; it comes back, reset, when the
        /// lease drops.
        ///
        /// # Panics
        /// When no slot is free, naming the pool's capacity and high-water mark.
        #[inline]
        #[track_caller]
        pub fn acquire(
            &self,
            init: impl ::core::ops::FnOnce(&mut $object),
        ) -> $crate::Lease<'_, $object> {
            $crate::__private::acquire_or_panic(&self.0, $name, init)
        }

        /// Lends an object if a slot is free, without panicking; an error, changing nothing,
        /// when none is.
        #[inline]
        pub fn try_acquire(
            &self,
            init: impl ::core::ops::FnOnce(&mut $object),
        ) -> ::core::result::Result<$crate::Lease<'_, $object>, $crate::PoolFull> {
            self.0.acquire(init)
        }
    };
    (evict($importance:ident); $object:ty; $name:literal) => {
        /// Takes a free slot, or when the pool is full evicts the live object that `evict_by`
        /// ranks lowest and takes its slot; hands the blank object to `init` and returns its
        /// handle.
        #[inline]
        pub fn create(
            &mut self,
            init: impl ::core::ops::FnOnce(&mut $object),
        ) -> $crate::Handle<$object> {
            self.0.create_evicting(init, $importance)
        }

        /// Creates an object if a slot is free, without evicting; an error, changing nothing,
        /// when the pool is full.
        #[inline]
        pub fn try_create(
            &mut self,
            init: impl ::core::ops::FnOnce(&mut $object),
        ) -> ::core::result::Result<$crate::Handle<$object>, $crate::PoolFull> {
            self.0.create(init)
        }

        /// The live object `create` would evict if the pool were full now: the one `evict_by`
        /// ranks lowest. One pass over the live objects.
        #[inline]
        pub fn victim(&self) -> ::core::option::Option<$crate::Handle<$object>> {
            self.0.least_important($importance)
        }

        /// Lends a blank object set up by `init`, through `&self`; it comes back, reset, when the
        /// lease drops. An error, changing nothing, when no slot is free: unlike `create` it
        /// never evicts, because evicting resets a live object that someone may be reading
        /// through `&self`.
        #[inline]
        pub fn acquire(
            &self,
            init: impl ::core::ops::FnOnce(&mut $object),
        ) -> ::core::result::Result<$crate::Lease<'_, $object>, $crate::PoolFull> {
            self.0.acquire(init)
        }
    };
    (grow; $object:ty; $name:literal) => {
        /// Takes a free slot, growing the pool when full, hands its blank object to `init` and
        /// returns its handle; an error, changing nothing, when the pool is at `max`.
        #[inline]
        pub fn create(
            &mut self,
            init: impl ::core::ops::FnOnce(&mut $object),
        ) -> ::core::result::Result<$crate::Handle<$object>, $crate::PoolFull> {
            self.0.create(init)
        }

        /// Lends a blank object set up by `init`, through `&self`, growing the pool when full;
        /// it comes back, reset, when the lease drops. An error, changing nothing, at `max`.
        #[inline]
        pub fn acquire(
            &self,
            init: impl ::core::ops::FnOnce(&mut $object),
        ) -> ::core::result::Result<$crate::Lease<'_, $object>, $crate::PoolFull> {
            self.0.acquire(init)
        }

        /// Gives back the grown chunks that hold no live object; returns how many slots.
        #[inline]
        pub fn shrink(&mut self) -> usize {
            self.0.shrink()
        }
    };
}
