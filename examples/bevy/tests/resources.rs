//! Every pool type the derive makes is a bevy `Resource` with the `bevy` feature, as it is (issue
//! 38, item 9): a game that switches a struct to `layout = columns`, to inline storage or to a
//! `sync` pool keeps `Res<FooPool>` and `ResMut<FooPool>` in its systems, with no newtype.
#![allow(
    clippy::needless_pass_by_value,
    clippy::too_many_arguments,
    reason = "bevy hands systems their parameters by value, one per resource"
)]

use bevy_ecs::prelude::*;
use pooling::Pooled;

#[derive(Pooled)]
#[pool(size = 8)]
struct Spark {
    heat: u32,
}

#[derive(Pooled)]
#[pool(size = 8, storage = inline)]
struct Chirp {
    heat: u32,
}

#[derive(Pooled)]
#[pool(size = 2, on_full = grow, max = 8)]
struct Ember {
    heat: u32,
}

#[derive(Pooled)]
#[pool(size = 8, sync)]
struct Job {
    heat: u32,
}

#[derive(Pooled)]
#[pool(size = 8, layout = columns)]
struct Flame {
    heat: u32,
}

#[derive(Pooled)]
#[pool(size = 8, storage = inline, layout = columns)]
struct Glow {
    heat: u32,
}

#[derive(Pooled)]
#[pool(size = 2, on_full = grow, max = 8, layout = columns)]
struct Blaze {
    heat: u32,
}

/// What the reading systems counted: the live objects' heat, summed, in each pool.
#[derive(Resource, Default)]
struct Heat(Vec<u32>);

fn spawn(
    mut sparks: ResMut<SparkPool>,
    mut chirps: ResMut<ChirpPool>,
    mut embers: ResMut<EmberPool>,
    jobs: Res<JobPool>,
    mut flames: ResMut<FlamePool>,
    mut glows: ResMut<GlowPool>,
    mut blazes: ResMut<BlazePool>,
) {
    for heat in 1..=3 {
        sparks.create(|s| s.heat = heat).unwrap();
        chirps.create(|c| c.heat = heat).unwrap();
        embers.create(|e| e.heat = heat).unwrap();
        jobs.create(|j| j.heat = heat).unwrap();
        flames.create(|f| *f.heat = heat).unwrap();
        glows.create(|g| *g.heat = heat).unwrap();
        blazes.create(|b| *b.heat = heat).unwrap();
    }
}

fn read(
    sparks: Res<SparkPool>,
    chirps: Res<ChirpPool>,
    embers: Res<EmberPool>,
    jobs: Res<JobPool>,
    flames: Res<FlamePool>,
    glows: Res<GlowPool>,
    blazes: Res<BlazePool>,
    mut heat: ResMut<Heat>,
) {
    heat.0 = vec![
        sparks.values().map(|s| s.heat).sum(),
        chirps.values().map(|c| c.heat).sum(),
        embers.values().map(|e| e.heat).sum(),
        jobs.iter().map(|(_, j)| j.heat).sum(),
        flames.values().map(|f| *f.heat).sum(),
        glows.values().map(|g| *g.heat).sum(),
        blazes.values().map(|b| *b.heat).sum(),
    ];
}

#[test]
fn every_pool_type_the_derive_makes_is_a_resource() {
    let mut world = World::new();
    world.insert_resource(SparkPool::new());
    world.insert_resource(ChirpPool::new());
    world.insert_resource(EmberPool::new());
    world.insert_resource(JobPool::new());
    world.insert_resource(FlamePool::new());
    world.insert_resource(GlowPool::new());
    world.insert_resource(BlazePool::new());
    world.init_resource::<Heat>();
    let mut schedule = Schedule::default();
    schedule.add_systems((spawn, read).chain());
    schedule.run(&mut world);
    schedule.run(&mut world);
    assert_eq!(world.resource::<Heat>().0, [12; 7]);
    assert_eq!(
        world.resource::<BlazePool>().capacity(),
        8,
        "grown in a system"
    );
    assert_eq!(world.resource::<FlamePool>().len(), 6);
}
