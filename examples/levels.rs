//! The seed's advice on sizing pools: one size may not fit every scene, so tune it per level, and
//! a pool that must grow for a rare peak can contract once the peak is over.
//!
//! It shows:
//! - `with_capacity` giving one pool type another size per level, and `stats().high_water` telling
//!   which size: an effects-heavy volcano needs 512 particles, a quiet library 64;
//! - `#[pool(on_full = grow, max = 256)]`: an enemy pool of 32 adds chunks of 32, 64, then 128
//!   as a boss fight spawns waves, moving no enemy, so a handle taken before it grew still reaches
//!   the same enemy at the same address; at `max`, `create` fails and `stats().failed` counts it;
//! - `shrink` giving the chunks back after the fight, except one that still holds a live enemy.
//!
//! ```text
//! cargo run --release --example levels
//! ```

mod cli;

use pooling::{Handle, Pooled, Stats};
use std::process::ExitCode;

const USAGE: &str = "\
Usage: cargo run --release --example levels [-- --help]

Sizes a particle pool per level, then fights a boss with an enemy pool that grows and shrinks.
It takes no options.";

/// A constant seed, so that every run plays the same frames and fights the same fight.
const SEED: u64 = 0x1E7E1;

#[derive(Pooled)]
#[pool(size = 512)]
struct Particle {
    x: f32,
    y: f32,
    vx: f32,
    vy: f32,
    frames_left: u32,
}

/// How hard a level leans on its particle effects.
struct Level {
    name: &'static str,
    frames: u32,
    /// Particles emitted each frame: lava bursts on the volcano, dust and candle sparks in the
    /// library.
    emitted: std::ops::RangeInclusive<u32>,
    lifetime: std::ops::RangeInclusive<u32>,
}

const VOLCANO: Level = Level {
    name: "volcano",
    frames: 120,
    emitted: 16..=40,
    lifetime: 8..=20,
};

const LIBRARY: Level = Level {
    name: "library",
    frames: 120,
    emitted: 0..=3,
    lifetime: 10..=30,
};

#[derive(Pooled)]
#[pool(size = 32, on_full = grow, max = 256)]
struct Enemy {
    health: u32,
    boss: bool,
    /// Runs from the fight rather than join it, and so survives it.
    fled: bool,
}

const BOSS_HEALTH: u32 = 1000;
const GOBLIN_HEALTH: u32 = 20;
const WAVES: [u32; 4] = [40, 60, 80, 120];

fn main() -> ExitCode {
    if let Err(status) = cli::read(USAGE, (), |(), arg, _| cli::unknown(arg)) {
        return status;
    }
    particles_per_level();
    println!();
    boss_fight();
    ExitCode::SUCCESS
}

/// Plays each level once with the default 512 slots to measure it, then sizes each level's pool
/// from its high-water mark.
fn particles_per_level() {
    println!("particles: one pool type, a size per level");
    for level in [&VOLCANO, &LIBRARY] {
        let stats = play(level, ParticlePool::new());
        // A power of two at or above the peak: room to spare, and a round number to tune by hand.
        let fits = stats.high_water.next_power_of_two();
        print_level(level, stats, &format!("-> {fits} would fit"));
    }
    let library = play(&LIBRARY, ParticlePool::with_capacity(64));
    print_level(&LIBRARY, library, "the same frames in 1/8 of the slots");
    let volcano = play(&VOLCANO, ParticlePool::with_capacity(64));
    print_level(&VOLCANO, volcano, "the library's size starves the volcano");
}

fn play(level: &Level, mut pool: ParticlePool) -> Stats {
    let mut rng = fastrand::Rng::with_seed(SEED);
    for _ in 0..level.frames {
        pool.retain(|p| {
            p.x += p.vx;
            p.y += p.vy;
            p.frames_left -= 1;
            p.frames_left > 0
        });
        for _ in 0..rng.u32(level.emitted.clone()) {
            let frames_left = rng.u32(level.lifetime.clone());
            let (vx, vy) = (rng.f32() - 0.5, rng.f32());
            // A particle that does not fit is simply not drawn; `stats().failed` counts it.
            let _ = pool.create(|p| {
                p.vx = vx;
                p.vy = vy;
                p.frames_left = frames_left;
            });
        }
    }
    pool.stats()
}

fn print_level(level: &Level, stats: Stats, note: &str) {
    println!(
        "  {:<8} capacity {:>3}: high water {:>3}, failed {:>4}  {note}",
        level.name, stats.capacity, stats.high_water, stats.failed
    );
}

/// Waves of goblins join a boss: the enemy pool grows to `max`, then shrinks back after the
/// fight.
fn boss_fight() {
    let mut rng = fastrand::Rng::with_seed(SEED);
    let mut enemies = EnemyPool::new();
    let boss = enemies
        .create(|e| {
            e.health = BOSS_HEALTH;
            e.boss = true;
        })
        .expect("an empty pool has room");
    // Compared, never read: growth must not move the boss.
    let boss_address = std::ptr::from_ref(enemies.get(boss).expect("the boss is live"));
    println!("boss fight: {enemies:?}");

    let mut fled = None;
    for (wave, &goblins) in (1..).zip(&WAVES) {
        let mut spawned = 0;
        for n in 0..goblins {
            // The last goblin of the third wave runs off and hides, high up in a grown chunk.
            let flees = wave == 3 && n + 1 == goblins;
            if let Ok(goblin) = enemies.create(|e| {
                e.health = GOBLIN_HEALTH;
                e.fled = flees;
            }) {
                spawned += 1;
                if flees {
                    fled = Some(goblin);
                }
            }
        }
        hero_attacks(&mut enemies, boss, &mut rng);
        let stats = enemies.stats();
        let boss_now = enemies.get(boss).expect("the boss outlives the waves");
        println!(
            "  wave {wave}: {spawned:>3} of {goblins:>3} goblins spawn -> capacity {:>3} in {} chunks; \
             boss health {:>4}, same address {}",
            stats.capacity,
            stats.chunks,
            boss_now.health,
            std::ptr::eq(boss_now, boss_address),
        );
    }
    let stats = enemies.stats();
    println!(
        "  the pool reached max = {}; the goblins it refused: stats().failed = {}",
        stats.capacity, stats.failed
    );
    after_the_fight(&mut enemies, boss, fled);
}

/// The hero hits the boss and every goblin that stayed; goblins at 0 health go back to the pool.
fn hero_attacks(enemies: &mut EnemyPool, boss: Handle<Enemy>, rng: &mut fastrand::Rng) {
    if let Some(boss) = enemies.get_mut(boss) {
        boss.health = boss.health.saturating_sub(200);
    }
    enemies.retain(|e| {
        if e.boss || e.fled {
            return true;
        }
        e.health = e.health.saturating_sub(rng.u32(0..=12));
        e.health > 0
    });
}

/// Everyone who fought falls; the goblin that fled keeps one grown chunk alive until found.
fn after_the_fight(enemies: &mut EnemyPool, boss: Handle<Enemy>, fled: Option<Handle<Enemy>>) {
    enemies.retain(|e| e.fled);
    println!("after the fight, only the goblin that fled is live:");
    println!("  {enemies:?}");
    println!(
        "  the boss's handle is stale: contains = {}",
        enemies.contains(boss)
    );
    let freed = enemies.shrink();
    println!("  shrink gave back {freed} slots; the fled goblin's chunk stays:");
    println!("  {enemies:?}");
    if let Some(goblin) = fled {
        let health = enemies.get(goblin).map_or(0, |e| e.health);
        let slot = goblin.index();
        let caught = enemies.release(goblin).is_ok();
        println!(
            "  the hero finds the fled goblin (slot {slot}, health {health}): released = {caught}"
        );
    }
    let freed = enemies.shrink();
    println!("  shrink gave back {freed} more slots; back to the size built up front:");
    println!("  {enemies:?}");
}
