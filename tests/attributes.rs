//! The struct-level attributes that shape the generated pool type: `name`, `vis` and `crate`.

use pooling::Pooled;

#[derive(Pooled)]
#[pool(size = 4, name = Sparks)]
struct Spark {
    heat: u32,
}

#[test]
fn name_renames_the_pool_type() {
    let mut sparks = Sparks::new();
    let spark = sparks.create(|s| s.heat = 3).unwrap();
    assert_eq!(sparks.get(spark).unwrap().heat, 3);
    assert!(format!("{sparks:?}").starts_with("Sparks { capacity: 4,"));
}

mod effects {
    use pooling::Pooled;

    /// Visible to the whole crate, its pool only to this module.
    #[derive(Pooled)]
    #[pool(size = 2, vis = pub(self))]
    pub(crate) struct Flash {
        pub(crate) brightness: u8,
    }

    /// Private, its pool visible to the crate's other modules.
    #[derive(Pooled)]
    #[pool(size = 2, vis = "pub(crate)")]
    pub(crate) struct Smoke {
        pub(crate) density: u8,
    }

    pub(crate) fn flash_once() -> u8 {
        let mut flashes = FlashPool::new();
        let flash = flashes.create(|f| f.brightness = 9).unwrap();
        flashes.get(flash).unwrap().brightness
    }
}

#[test]
fn vis_sets_the_pool_types_visibility() {
    assert_eq!(effects::flash_once(), 9);
    let mut smoke = effects::SmokePool::new();
    let puff = smoke.create(|s| s.density = 4).unwrap();
    assert_eq!(smoke.get(puff).unwrap().density, 4);
}

/// A crate that wraps `pooling` and re-exports it, as an engine would.
mod engine {
    pub(crate) mod pooling {
        pub(crate) use ::pooling::*;
    }
}

mod game {
    use crate::engine::pooling::{Pooled, Reset};

    #[derive(Reset)]
    #[pool(crate = crate::engine::pooling)]
    pub(crate) struct Stats {
        pub(crate) hits: u32,
    }

    #[derive(Pooled)]
    #[pool(size = 2, crate = "crate::engine::pooling")]
    pub(crate) struct Unit {
        pub(crate) stats: Stats,
    }
}

#[test]
fn crate_points_generated_code_at_a_re_export() {
    let mut units = game::UnitPool::new();
    let unit = units.create(|u| u.stats.hits = 2).unwrap();
    units.release(unit).unwrap();
    let again = units.create(|_| {}).unwrap();
    assert_eq!(units.get(again).unwrap().stats.hits, 0);
}
