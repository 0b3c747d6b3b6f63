//! A soak test, as consoles demand before a game ships: days of a game's mix of pool operations,
//! checked as it goes.
//!
//! Each frame spawns and animates particles (a pool that refuses when full), starts and fades
//! sounds (a pool that evicts the quietest), spawns waves of enemies and kills them by handle (a
//! pool that grows for a wave and shrinks after), keeps a boss alive now and then (a pool that
//! panics when full, and never does) and borrows scratch buffers through leases. Every frame
//! checks each pool's books; every 1,024 frames a full check walks every pool and every handle
//! the game holds. At the end it prints operations per second, the most objects live at once,
//! and the heap bytes the run left allocated, which must be 0.
//!
//! ```text
//! cargo run --release --example soak                   # 10 million operations
//! cargo run --release --example soak -- --ops 1e9      # a billion
//! cargo run --release --example soak -- --seconds 3600 # an hour
//! ```
//!
//! An operation is a call on a pool (create, release, get, acquire, shrink) or an object visited
//! by `retain` or by iteration.

mod cli;

use pooling::{Handle, Pooled, Stats, TotalOrder};
use std::process::ExitCode;
use std::time::{Duration, Instant};

const USAGE: &str = "\
Usage: cargo run --release --example soak [-- OPTIONS]

Runs a game-like mix of pool operations, checking invariants as it goes.

Options:
  --ops N       operations to run, such as 1e9 or 250_000_000 (default 1e7)
  --seconds S   run for S seconds instead
  --seed N      the random seed (default 1)
  --help        print this help";

#[derive(Pooled)]
#[pool(size = 4096)]
struct Particle {
    frames_left: u32,
    x: f32,
    y: f32,
    #[pool(reset_with = clear_trail)]
    trail: Vec<(f32, f32)>,
}

const TRAIL: usize = 4;

fn clear_trail(trail: &mut Vec<(f32, f32)>) {
    trail.clear();
    trail.reserve(TRAIL);
}

#[derive(Pooled)]
#[pool(size = 32, on_full = evict, evict_by = Voice::loudness)]
struct Voice {
    volume: f32,
    sample: u32,
}

impl Voice {
    fn loudness(&self) -> TotalOrder<f32> {
        TotalOrder(self.volume)
    }
}

#[derive(Pooled)]
#[pool(size = 64, on_full = grow, max = 1024)]
struct Enemy {
    id: u64,
    health: u32,
}

#[derive(Pooled)]
#[pool(size = 2, on_full = panic)]
struct Boss {
    id: u64,
    phase: u32,
}

#[derive(Pooled)]
#[pool(size = 8)]
struct Scratch {
    #[pool(reset_with = clear_points)]
    points: Vec<[f32; 3]>,
}

const POINTS: usize = 64;

fn clear_points(points: &mut Vec<[f32; 3]>) {
    points.clear();
    points.reserve(POINTS);
}

enum Budget {
    Ops(u64),
    Time(Duration),
}

fn main() -> ExitCode {
    let (budget, seed) = match cli::read(USAGE, (Budget::Ops(10_000_000), 1), option) {
        Ok(settings) => settings,
        Err(status) => return status,
    };
    let mut game = Game::new(seed);
    game.warm_up();
    // Printed before the run is measured: stdout allocates its buffer on first use.
    match &budget {
        Budget::Ops(ops) => println!("soaking for {ops} operations (seed {seed})"),
        Budget::Time(time) => println!("soaking for {} s (seed {seed})", time.as_secs_f64()),
    }
    let start = Instant::now();
    let mut report = Report::default();
    let heap = allocation_counter::measure(|| report = game.run(&budget, start));
    let seconds = start.elapsed().as_secs_f64();
    game.finish();
    println!(
        "done: {} operations in {seconds:.1} s, {:.0} million per second",
        report.ops,
        approximate(report.ops) / seconds / 1e6
    );
    println!(
        "{} frames; most objects live at once: {} (particles {}, voices {}, enemies {}, bosses {}, leases {})",
        report.frames,
        report.peak_live,
        game.particles.stats().high_water,
        game.voices.stats().high_water,
        game.enemies.stats().high_water,
        game.bosses.stats().high_water,
        game.scratch.stats().high_water,
    );
    println!(
        "voices evicted: {}; particles refused: {}; enemy pool grew to {} slots and shrank {} times",
        game.voices.stats().evicted,
        game.particles.stats().failed,
        report.most_enemy_slots,
        report.shrinks,
    );
    println!(
        "heap bytes the run allocated and still held at its end: {} (at its peak: {})",
        heap.bytes_current, heap.bytes_max
    );
    if heap.bytes_current == 0 {
        ExitCode::SUCCESS
    } else {
        eprintln!("error: the run leaked {} bytes", heap.bytes_current);
        ExitCode::FAILURE
    }
}

fn option(
    (budget, seed): &mut (Budget, u64),
    arg: &str,
    value: &mut dyn FnMut() -> Result<String, String>,
) -> Result<(), String> {
    match arg {
        "--ops" => *budget = Budget::Ops(parse_count(&value()?)?),
        "--seconds" => {
            let text = value()?;
            let seconds = text
                .parse()
                .ok()
                .and_then(|s| Duration::try_from_secs_f64(s).ok());
            *budget = Budget::Time(
                seconds.ok_or(format!("--seconds takes a number of seconds, not `{text}`"))?,
            );
        }
        "--seed" => {
            let text = value()?;
            *seed =
                (text.parse()).map_err(|_| format!("--seed takes a whole number, not `{text}`"))?;
        }
        _ => return cli::unknown(arg),
    }
    Ok(())
}

/// `1e9`, `2.5e8`, `1_000_000` or `1000000`.
fn parse_count(text: &str) -> Result<u64, String> {
    let clean = text.replace('_', "");
    let error = || format!("--ops takes a count such as 1e9 or 1_000_000, not `{text}`");
    if let Ok(count @ 1..) = clean.parse::<u64>() {
        return Ok(count);
    }
    let float: f64 = clean.parse().map_err(|_| error())?;
    if (1.0..=1e18).contains(&float) && float.fract() == 0.0 {
        #[expect(
            clippy::cast_possible_truncation,
            clippy::cast_sign_loss,
            reason = "a whole number between 1 and 1e18"
        )]
        Ok(float as u64)
    } else {
        Err(error())
    }
}

/// A count as a float, for rates and progress.
#[expect(clippy::cast_precision_loss, reason = "printed to a few digits")]
fn approximate(count: u64) -> f64 {
    count as f64
}

#[derive(Default)]
struct Report {
    ops: u64,
    frames: u64,
    peak_live: usize,
    most_enemy_slots: usize,
    shrinks: u64,
}

struct Game {
    rng: fastrand::Rng,
    particles: ParticlePool,
    voices: VoicePool,
    enemies: EnemyPool,
    bosses: BossPool,
    scratch: ScratchPool,
    /// The enemies the game can name, with the id each must still have.
    enemy_handles: Vec<(Handle<Enemy>, u64)>,
    /// Enemies killed lately, whose handles must stay stale.
    dead_enemies: Vec<Handle<Enemy>>,
    boss: Option<(Handle<Boss>, u64, u64)>,
    next_id: u64,
}

const WAVE_EVERY: u64 = 64;
const SHRINK_EVERY: u64 = 256;
const FULL_CHECK_EVERY: u64 = 1024;
const DEAD_KEPT: usize = 256;

impl Game {
    fn new(seed: u64) -> Self {
        Self {
            rng: fastrand::Rng::with_seed(seed),
            particles: ParticlePool::new(),
            voices: VoicePool::new(),
            enemies: EnemyPool::new(),
            bosses: BossPool::new(),
            scratch: ScratchPool::new(),
            enemy_handles: Vec::with_capacity(1024),
            dead_enemies: Vec::with_capacity(DEAD_KEPT),
            boss: None,
            next_id: 0,
        }
    }

    /// Grows the enemy pool once and shrinks it back, so that the table of grown chunks, which
    /// stays for the pool's life, is allocated before the run is measured.
    fn warm_up(&mut self) {
        let handles: Vec<_> = (0..65)
            .map(|_| self.enemies.create(|e| e.health = 1).expect("room to grow"))
            .collect();
        for handle in handles {
            self.enemies.release(handle).expect("live");
        }
        self.enemies.shrink();
    }

    fn run(&mut self, budget: &Budget, start: Instant) -> Report {
        let mut report = Report::default();
        let mut next_progress = 1u32;
        loop {
            let done = match budget {
                Budget::Ops(ops) => report.ops >= *ops,
                Budget::Time(time) => report.frames.is_multiple_of(64) && start.elapsed() >= *time,
            };
            if done {
                break;
            }
            report.ops += self.frame(report.frames);
            report.frames += 1;
            let live =
                self.particles.len() + self.voices.len() + self.enemies.len() + self.bosses.len();
            report.peak_live = report.peak_live.max(live);
            report.most_enemy_slots = report.most_enemy_slots.max(self.enemies.capacity());
            if report.frames.is_multiple_of(SHRINK_EVERY) && self.enemies.shrink() > 0 {
                report.shrinks += 1;
            }
            self.check_books();
            if report.frames.is_multiple_of(FULL_CHECK_EVERY) {
                report.ops += self.full_check();
            }
            let progress = match budget {
                Budget::Ops(ops) => approximate(report.ops) / approximate(*ops),
                Budget::Time(time) => start.elapsed().as_secs_f64() / time.as_secs_f64(),
            };
            if progress * 10.0 >= f64::from(next_progress) {
                println!(
                    "{:>3}%: {} operations, {:.1} s, {} particles, {} enemies in {} slots",
                    next_progress * 10,
                    report.ops,
                    start.elapsed().as_secs_f64(),
                    self.particles.len(),
                    self.enemies.len(),
                    self.enemies.capacity(),
                );
                next_progress += 1;
            }
        }
        self.enemies.release_all();
        self.enemy_handles.clear();
        if let Some((boss, ..)) = self.boss.take() {
            self.bosses.release(boss).expect("the boss is live");
        }
        self.enemies.shrink();
        report
    }

    /// One frame of the game; returns the operations it made.
    fn frame(&mut self, frame: u64) -> u64 {
        let mut ops = 0;
        // A burst of sparks; what does not fit is skipped.
        for _ in 0..self.rng.usize(0..40) {
            let (x, y, life) = (self.rng.f32(), self.rng.f32(), self.rng.u32(5..60));
            ops += 1;
            if self
                .particles
                .create(|p| {
                    p.frames_left = life;
                    p.x = x;
                    p.y = y;
                })
                .is_err()
            {
                break;
            }
        }
        self.particles.retain(|p| {
            ops += 1;
            if p.trail.len() == TRAIL {
                p.trail.remove(0);
            }
            p.trail.push((p.x, p.y));
            p.frames_left -= 1;
            p.frames_left > 0
        });
        // Sounds: more than 32 at once cuts the quietest.
        for _ in 0..self.rng.usize(0..3) {
            let (volume, sample) = (self.rng.f32(), self.rng.u32(..16));
            ops += 1;
            self.voices.create(|v| {
                v.volume = volume;
                v.sample = sample;
            });
        }
        self.voices.retain(|v| {
            ops += 1;
            v.volume *= 0.9;
            v.volume > 0.01
        });
        ops += self.enemies_frame(frame);
        ops += self.boss_frame(frame);
        ops + self.scratch_frame()
    }

    fn enemies_frame(&mut self, frame: u64) -> u64 {
        let mut ops = 0;
        if frame.is_multiple_of(WAVE_EVERY) {
            for _ in 0..self.rng.usize(50..400) {
                let id = self.fresh_id();
                ops += 1;
                let health = self.rng.u32(1..=3);
                match self.enemies.create(|e| {
                    e.id = id;
                    e.health = health;
                }) {
                    Ok(handle) => self.enemy_handles.push((handle, id)),
                    Err(_) => break,
                }
            }
        }
        // The hero hits enemies by handle; some die. Waves outgrow the 64 slots built up front,
        // and the lulls between them let `shrink` give the grown chunks back.
        for _ in 0..self.rng.usize(0..32) {
            if self.enemy_handles.is_empty() {
                break;
            }
            let at = self.rng.usize(..self.enemy_handles.len());
            let (handle, id) = self.enemy_handles[at];
            ops += 1;
            let enemy = self.enemies.get_mut(handle).expect("a named enemy is live");
            assert_eq!(enemy.id, id, "{handle:?} names another enemy");
            enemy.health -= 1;
            if enemy.health == 0 {
                self.enemy_handles.swap_remove(at);
                ops += 2;
                self.enemies.release(handle).expect("live");
                assert!(self.enemies.release(handle).is_err(), "released twice");
                if self.dead_enemies.len() == DEAD_KEPT {
                    self.dead_enemies.swap_remove(self.rng.usize(..DEAD_KEPT));
                }
                self.dead_enemies.push(handle);
            }
        }
        ops
    }

    fn boss_frame(&mut self, frame: u64) -> u64 {
        match self.boss {
            None if frame.is_multiple_of(500) => {
                let id = self.fresh_id();
                let handle = self.bosses.create(|b| b.id = id);
                self.boss = Some((handle, id, frame));
                1
            }
            Some((handle, id, since)) => {
                let boss = self.bosses.get_mut(handle).expect("the boss is live");
                assert_eq!(boss.id, id);
                boss.phase += 1;
                if frame - since >= 100 {
                    self.bosses.release(handle).expect("live");
                    self.boss = None;
                    return 2;
                }
                1
            }
            None => 0,
        }
    }

    /// Three scratch buffers borrowed at once, given back as they drop.
    fn scratch_frame(&mut self) -> u64 {
        let n = self.rng.usize(..POINTS);
        let scratch = self.scratch.lender();
        let mut a = scratch.acquire(|_| {}).expect("scratch room");
        let mut b = scratch.acquire(|_| {}).expect("scratch room");
        let mut c = scratch.acquire(|_| {}).expect("scratch room");
        a.points
            .extend((0..n).map(|i| [f32::from(u8::try_from(i).unwrap_or(u8::MAX)); 3]));
        b.points.extend(a.points.iter().rev());
        c.points.push(a.points.first().copied().unwrap_or_default());
        assert_eq!(a.points.len(), b.points.len());
        assert_eq!(scratch.stats().leased, 3);
        3
    }

    fn fresh_id(&mut self) -> u64 {
        self.next_id += 1;
        self.next_id
    }

    /// Each pool's counts must add up, every frame.
    fn check_books(&self) {
        check_stats("particles", self.particles.stats());
        check_stats("voices", self.voices.stats());
        check_stats("enemies", self.enemies.stats());
        check_stats("bosses", self.bosses.stats());
        check_stats("scratch", self.scratch.stats());
        assert_eq!(self.enemies.len(), self.enemy_handles.len());
        assert_eq!(self.scratch.stats().leased, 0, "every lease went back");
    }

    /// Walks every pool and every handle the game holds; returns the operations it made.
    fn full_check(&self) -> u64 {
        let mut ops = 0;
        assert_eq!(self.particles.iter().count(), self.particles.len());
        assert!(
            self.particles
                .values()
                .all(|p| p.frames_left > 0 && p.trail.len() <= TRAIL)
        );
        assert_eq!(self.voices.values().count(), self.voices.len());
        assert_eq!(self.enemies.iter().count(), self.enemies.len());
        ops += (self.particles.len() + self.voices.len() + self.enemies.len()) as u64;
        for (handle, id) in &self.enemy_handles {
            assert_eq!(self.enemies.get(*handle).map(|e| e.id), Some(*id));
        }
        for handle in &self.dead_enemies {
            assert!(
                self.enemies.get(*handle).is_none(),
                "a dead enemy came back"
            );
        }
        ops + (self.enemy_handles.len() + self.dead_enemies.len()) as u64
    }

    /// After the run: the pools still agree with themselves, and every enemy chunk went back.
    fn finish(&mut self) {
        self.check_books();
        assert_eq!(
            self.enemies.capacity(),
            64,
            "the grown chunks were given back"
        );
        assert!(self.dead_enemies.iter().all(|h| !self.enemies.contains(*h)));
    }
}

fn check_stats(pool: &str, stats: Stats) {
    assert_eq!(
        stats.live + stats.leased + stats.free + stats.retired,
        stats.capacity,
        "{pool}: slots do not add up: {stats:?}"
    );
    assert_eq!(
        stats.created,
        stats.released + stats.evicted + (stats.live + stats.leased) as u64,
        "{pool}: objects do not add up: {stats:?}"
    );
}
