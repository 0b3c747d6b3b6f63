//! Objects of several shapes in one pool: the chapter's answer to objects of different sizes is a
//! pool sized for the largest, and in Rust that is an enum. Two turrets fire bullets, missiles
//! that leave a smoke trail, and laser beams, all from one `ProjectilePool`.
//!
//! It shows:
//! - `#[derive(Pooled)]` on an enum, with `#[pool(blank)]` on the variant every projectile is
//!   reset to (`Bullet`), and fields of other variants that need no reset at all: a missile's
//!   `Vec` trail and a laser's bare `Rc<Turret>` are dropped at release;
//! - `retain` to move every projectile and hand back the ones that left the field, burned out or
//!   faded, whatever their variant;
//! - what is kept across reuse: a bullet reused as a bullet is reset in place, so bullets never
//!   allocate; a missile's trail is dropped with the missile, so each missile allocates its trail
//!   once. The example counts the heap allocations of the battle with `allocation_counter` and
//!   checks that there is exactly one per missile.
//!
//! ```text
//! cargo run --example projectiles
//! cargo run --example projectiles -- --ticks 60
//! ```

use pooling::Pooled;
use std::io::{self, Write};
use std::process::ExitCode;
use std::rc::Rc;

const DEFAULT_TICKS: u32 = 24;
/// Projectiles leave the field past this distance.
const FIELD: f32 = 40.0;
/// Ticks a missile flies, and points its trail holds.
const FUEL: usize = 10;
const LASER_TICKS: u32 = 3;

const USAGE: &str = "\
Usage: cargo run --example projectiles [-- OPTIONS]

Two turrets fire bullets, missiles and lasers from one pool of projectiles, an enum; prints what
flies each tick, then the pool's stats and the battle's heap allocations.

Options:
  --ticks N   number of ticks to run (default 24)
  --help      print this help";

struct Turret {
    name: &'static str,
}

#[derive(Pooled)]
#[pool(size = 32)]
enum Projectile {
    /// The blank variant: every projectile is reset to a bullet at rest. A bullet reused as a
    /// bullet has its fields reset in place.
    #[pool(blank)]
    Bullet { x: f32, speed: f32 },
    /// Not the blank variant: at release the missile is replaced by a blank bullet, so its trail
    /// is dropped (no reset, so no `Reset` needed).
    Missile { x: f32, speed: f32, trail: Vec<f32> },
    /// A bare `Rc` would be a compile error in the blank variant, which is reset; here it is
    /// dropped at release, letting the turret go.
    Laser { owner: Rc<Turret>, ticks_left: u32 },
}

impl Projectile {
    /// Moves the projectile one tick; false once it has left the field, burned out or faded.
    fn fly(&mut self) -> bool {
        match self {
            Projectile::Bullet { x, speed } => {
                *x += *speed;
                *x < FIELD
            }
            Projectile::Missile { x, speed, trail } => {
                trail.push(*x);
                *speed *= 1.5;
                *x += *speed;
                *x < FIELD && trail.len() < FUEL
            }
            Projectile::Laser { ticks_left, .. } => {
                *ticks_left -= 1;
                *ticks_left > 0
            }
        }
    }
}

enum Command {
    Run { ticks: u32 },
    Help,
}

fn parse_args(mut args: impl Iterator<Item = String>) -> Result<Command, String> {
    let mut ticks = DEFAULT_TICKS;
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--help" | "-h" => return Ok(Command::Help),
            "--ticks" => {
                let value = args.next().ok_or("--ticks needs a number of ticks")?;
                ticks = value.parse().map_err(|_| {
                    format!("--ticks expects a whole number of ticks, not `{value}`")
                })?;
            }
            _ => return Err(format!("unknown argument `{arg}`")),
        }
    }
    Ok(Command::Run { ticks })
}

fn main() -> ExitCode {
    let ticks = match parse_args(std::env::args().skip(1)) {
        Ok(Command::Run { ticks }) => ticks,
        Ok(Command::Help) => {
            println!("{USAGE}");
            return ExitCode::SUCCESS;
        }
        Err(message) => {
            eprintln!("error: {message}\n\n{USAGE}");
            return ExitCode::from(2);
        }
    };
    match run(ticks) {
        Ok(()) => ExitCode::SUCCESS,
        // `| head` closing the pipe early is not a failure of the example.
        Err(error) if error.kind() == io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("error: {error}");
            ExitCode::FAILURE
        }
    }
}

/// What the battle fired.
#[derive(Default)]
struct Fired {
    bullets: u32,
    missiles: u32,
    lasers: u32,
    /// Shots that found the pool full.
    refused: u32,
}

fn run(ticks: u32) -> io::Result<()> {
    // Everything that allocates up front happens here, before the measured battle.
    let mut projectiles = ProjectilePool::new();
    let turrets = [
        Rc::new(Turret { name: "west" }),
        Rc::new(Turret { name: "east" }),
    ];
    let mut stdout = io::stdout().lock();
    // The first write also makes stdout allocate its buffer, outside the measurement.
    writeln!(
        stdout,
        "{} projectile slots of {} bytes each: every variant fits in one",
        projectiles.capacity(),
        size_of::<Projectile>()
    )?;

    let mut fired = Fired::default();
    let mut outcome = Ok(());
    let allocations = allocation_counter::measure(|| {
        outcome = battle(&mut projectiles, &turrets, ticks, &mut fired, &mut stdout);
    });
    outcome?;

    let counts: Vec<String> = (turrets.iter())
        .map(|t| format!("{} {}", t.name, Rc::strong_count(t)))
        .collect();
    writeln!(
        stdout,
        "fired {} bullets, {} missiles, {} lasers; {} shots found the pool full",
        fired.bullets, fired.missiles, fired.lasers, fired.refused
    )?;
    writeln!(
        stdout,
        "turret Rc counts with lasers in flight: {}",
        counts.join(", ")
    )?;
    projectiles.release_all();
    let counts: Vec<String> = (turrets.iter())
        .map(|t| format!("{} {}", t.name, Rc::strong_count(t)))
        .collect();
    writeln!(
        stdout,
        "after release_all: {} (only the turrets' own)",
        counts.join(", ")
    )?;
    assert!(turrets.iter().all(|t| Rc::strong_count(t) == 1));
    writeln!(stdout, "{projectiles:?}")?;
    writeln!(
        stdout,
        "heap allocations in the battle: {}, one per missile trail; reused bullets and lasers \
         allocate nothing",
        allocations.count_total
    )?;
    assert_eq!(
        allocations.count_total,
        u64::from(fired.missiles),
        "only missile trails allocate"
    );
    Ok(())
}

fn battle(
    projectiles: &mut ProjectilePool,
    turrets: &[Rc<Turret>; 2],
    ticks: u32,
    fired: &mut Fired,
    out: &mut impl Write,
) -> io::Result<()> {
    for tick in 0..ticks {
        projectiles.retain(Projectile::fly);
        for (i, turret) in turrets.iter().enumerate() {
            let created = match (tick + 2 * u32::try_from(i).expect("two turrets")) % 6 {
                // The blank object is a bullet already: set its speed, nothing else.
                0..=2 => projectiles
                    .create(|p| {
                        if let Projectile::Bullet { speed, .. } = p {
                            *speed = 4.0;
                        }
                    })
                    .map(|_| fired.bullets += 1),
                3 => projectiles
                    .create(|p| {
                        *p = Projectile::Missile {
                            x: 0.0,
                            speed: 1.0,
                            trail: Vec::with_capacity(FUEL),
                        };
                    })
                    .map(|_| fired.missiles += 1),
                4 => projectiles
                    .create(|p| {
                        *p = Projectile::Laser {
                            owner: Rc::clone(turret),
                            ticks_left: LASER_TICKS,
                        };
                    })
                    .map(|_| fired.lasers += 1),
                _ => Ok(()),
            };
            if created.is_err() {
                fired.refused += 1;
            }
        }
        report(tick, projectiles, out)?;
    }
    Ok(())
}

fn report(tick: u32, projectiles: &ProjectilePool, out: &mut impl Write) -> io::Result<()> {
    let (mut bullets, mut missiles, mut trail) = (0, 0, 0);
    let mut lasers = [0; 2];
    for p in projectiles.values() {
        match p {
            Projectile::Bullet { .. } => bullets += 1,
            Projectile::Missile { trail: t, .. } => {
                missiles += 1;
                trail += t.len();
            }
            Projectile::Laser { owner, .. } => lasers[usize::from(owner.name == "east")] += 1,
        }
    }
    writeln!(
        out,
        "tick {tick:>2}  bullets {bullets:>2}  missiles {missiles} (trail points {trail:>2})  \
         lasers {} west {} east  free {:>2}",
        lasers[0],
        lasers[1],
        projectiles.capacity() - projectiles.len()
    )
}
