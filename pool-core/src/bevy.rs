//! With the `bevy` feature, a pool is a `bevy_ecs` [`Resource`] as it is:
//! `world.insert_resource(BulletPool::new())`, then `Res<BulletPool>` in the systems that read
//! it and `ResMut<BulletPool>` in those that change it, with no newtype around it (which the
//! orphan rule would force on every game). So is every pool type the derive makes: a
//! [`Pool`] of either storage, a [`SyncPool`](crate::SyncPool) and a
//! [`ColumnPool`](crate::ColumnPool) of either storage, so that a game switching a struct to
//! `layout = columns` keeps its systems' parameters. These are the impls `#[derive(Resource)]` writes: a
//! resource is a component, kept in a sparse set, that requires `IsResource`. Bounded by what a
//! resource must be, `Send + Sync + 'static`, whatever makes the pool so.

use crate::{ColumnPool, ColumnStorage, Columnar, Pool, Pooled, Storage};
use bevy_ecs::component::{
    Component, ComponentId, Mutable, RequiredComponentsRegistrator, StorageType,
};
use bevy_ecs::resource::{IsResource, Resource};

/// `Component` and `Resource` for a pool type, as `#[derive(Resource)]` writes them.
macro_rules! resource {
    ($($pool:ty => [$($params:tt)*]),+ $(,)?) => {$(
        impl<$($params)*> Component for $pool
        where
            Self: Send + Sync + 'static,
        {
            const STORAGE_TYPE: StorageType = StorageType::SparseSet;
            type Mutability = Mutable;

            fn register_required_components(
                _requiree: ComponentId,
                required: &mut RequiredComponentsRegistrator,
            ) {
                let components = required.components_registrator();
                let id = match components.component_id::<Self>() {
                    Some(id) => id,
                    None => components.register_component::<Self>(),
                };
                required.register_required::<IsResource>(move || IsResource::new(id));
            }
        }

        impl<$($params)*> Resource for $pool where Self: Send + Sync + 'static {}
    )+};
}

resource!(
    Pool<T, S, B> => [T: Pooled, S, B: Storage],
    ColumnPool<P, S, B> => [P: Columnar, S, B: ColumnStorage],
);

#[cfg(any(target_has_atomic = "32", feature = "portable-atomic"))]
resource!(crate::SyncPool<T, S, B> => [T: Pooled, S, B: Storage]);
