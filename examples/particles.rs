//! The seed's spell effect: a hero casts spells, each cast bursts into a few hundred particles,
//! and every particle lives in one fixed-size `ParticlePool` built at start-up.
//!
//! It shows the whole life of pooled objects:
//! - `#[derive(Pooled)]` with each kind of field: reset to blank (`frames_left`, `emitter`), to a
//!   value (`#[pool(reset = 1.0)]`), a buffer built once with its capacity
//!   (`#[pool(build = ...)]`) and a field that survives release (`#[pool(keep)]`);
//! - `create` to spawn a burst, `retain` to animate every particle and hand the dead ones back;
//! - the seed's "just don't create": a burst that does not fit in the free slots is skipped;
//! - no heap allocation at all once the pool, the emitters and the output buffer are built: the
//!   example measures the frame loop with `allocation_counter` and prints the count, which is 0.
//!
//! Run it in a terminal to watch the animation (plain ANSI escape codes):
//!
//! ```text
//! cargo run --release --example particles
//! cargo run --release --example particles -- --frames 60
//! ```
//!
//! When stdout is not a terminal (`| cat`, CI logs) it does not animate: it prints a summary line
//! every 10 frames instead.
//!
//! `--columns` runs the same frames twice without drawing, once with the particles as objects
//! and once kept as columns (`#[pool(layout = columns)]`, each field in an array of its own),
//! checks that both print the same, and prints each layout's time a frame:
//!
//! ```text
//! cargo run --release --example particles -- --columns
//! ```

mod cli;

use pooling::{Pooled, Stats};
use std::io::{self, IsTerminal, Write};
use std::process::ExitCode;
use std::rc::Rc;
use std::time::{Duration, Instant};

const DEFAULT_FRAMES: u32 = 150;
const FRAME_TIME: Duration = Duration::from_millis(33);
const COLS: u16 = 72;
const ROWS: u16 = 22;
/// Positions remembered per particle, drawn as a fading tail.
const TRAIL_LEN: usize = 4;
/// The hero casts a spell this often, whether or not it fits.
const CAST_EVERY: u32 = 8;
const GRAVITY: f64 = 0.03;
/// A constant seed, so that every run draws the same frames.
const SEED: u64 = 0x5EED;

const USAGE: &str = "\
Usage: cargo run --release --example particles [-- OPTIONS]

Animates particle bursts from a fixed-size pool, then prints the pool's stats.

Options:
  --frames N   number of frames to run (default 150, about 5 seconds)
  --columns    run the frames without drawing in both layouts, objects and columns, check
               that they print the same, and print each one's time a frame
  --help       print this help";

/// A spell kind. Created once at start-up; particles share it through an `Rc`.
struct Emitter {
    name: &'static str,
    /// An ANSI 256-colour index.
    colour: u8,
    speed: f64,
    drag: f64,
}

// ANCHOR: particle
#[derive(Pooled)]
#[pool(size = 512)]
struct Particle {
    x: f64,
    y: f64,
    vx: f64,
    vy: f64,
    frames_left: u32,
    lifetime: u32,
    /// 1.0 is "no drag": a blank 0.0 would freeze a particle whose spell forgot to set it.
    #[pool(reset = 1.0)]
    drag: f64,
    /// Built with room for the whole tail, once per slot; cleared at release, keeping it, so
    /// pushing never allocates.
    #[pool(build = Vec::with_capacity(TRAIL_LEN))]
    trail: Vec<(f64, f64)>,
    /// How many particles this slot has held: it describes the slot, so it survives release.
    #[pool(keep)]
    uses: u32,
    /// Let go at release, so a spell's `Rc` counts only live particles.
    emitter: Option<Rc<Emitter>>,
}
// ANCHOR_END: particle

/// `Particle` kept as columns: the same fields and attributes, each field in an array of its own.
#[derive(Pooled)]
#[pool(size = 512, layout = columns)]
struct ParticleColumn {
    x: f64,
    y: f64,
    vx: f64,
    vy: f64,
    frames_left: u32,
    lifetime: u32,
    #[pool(reset = 1.0)]
    drag: f64,
    #[pool(build = Vec::with_capacity(TRAIL_LEN))]
    trail: Vec<(f64, f64)>,
    #[pool(keep)]
    uses: u32,
    emitter: Option<Rc<Emitter>>,
}

/// What the scene and the canvas read of a live particle, in either layout.
struct View<'a> {
    x: f64,
    y: f64,
    frames_left: u32,
    lifetime: u32,
    trail: &'a [(f64, f64)],
    emitter: Option<&'a Emitter>,
}

/// A new particle's start.
struct Spawn<'a> {
    x: f64,
    y: f64,
    vx: f64,
    vy: f64,
    lifetime: u32,
    spell: &'a Rc<Emitter>,
}

/// A frame's step for one particle, the same in both layouts: false when it burns out or falls
/// off the screen and goes back to the pool.
fn step(
    frames_left: &mut u32,
    trail: &mut Vec<(f64, f64)>,
    x: &mut f64,
    y: &mut f64,
    vx: &mut f64,
    vy: &mut f64,
    drag: f64,
) -> bool {
    *frames_left -= 1;
    if *frames_left == 0 || *y >= f64::from(ROWS) {
        return false;
    }
    // Drop the oldest point first, so the trail never grows past its capacity.
    if trail.len() == TRAIL_LEN {
        trail.remove(0);
    }
    trail.push((*x, *y));
    *vx *= drag;
    *vy = *vy * drag + GRAVITY;
    *x += *vx;
    *y += *vy;
    true
}

/// What the scene does with its pool, in either layout.
trait Particles {
    fn new() -> Self;
    fn stats(&self) -> Stats;
    fn spawn(&mut self, spawn: &Spawn<'_>) -> bool;
    fn animate(&mut self);
    fn each(&self, visit: impl FnMut(View<'_>));
    fn busiest(&self) -> u32;
    fn release_all(&mut self);
}

impl Particles for ParticlePool {
    fn new() -> Self {
        ParticlePool::new()
    }

    fn stats(&self) -> Stats {
        ParticlePool::stats(self)
    }

    fn spawn(&mut self, s: &Spawn<'_>) -> bool {
        self.create(|p| {
            (p.x, p.y, p.vx, p.vy) = (s.x, s.y, s.vx, s.vy);
            p.frames_left = s.lifetime;
            p.lifetime = s.lifetime;
            p.drag = s.spell.drag;
            p.uses += 1;
            p.emitter = Some(Rc::clone(s.spell));
        })
        .is_ok()
    }

    fn animate(&mut self) {
        self.retain(|p| {
            let drag = p.drag;
            step(
                &mut p.frames_left,
                &mut p.trail,
                &mut p.x,
                &mut p.y,
                &mut p.vx,
                &mut p.vy,
                drag,
            )
        });
    }

    fn each(&self, mut visit: impl FnMut(View<'_>)) {
        for (_, p) in self {
            visit(View {
                x: p.x,
                y: p.y,
                frames_left: p.frames_left,
                lifetime: p.lifetime,
                trail: &p.trail,
                emitter: p.emitter.as_deref(),
            });
        }
    }

    fn busiest(&self) -> u32 {
        self.values().map(|p| p.uses).max().unwrap_or(0)
    }

    fn release_all(&mut self) {
        ParticlePool::release_all(self);
    }
}

impl Particles for ParticleColumnPool {
    fn new() -> Self {
        ParticleColumnPool::new()
    }

    fn stats(&self) -> Stats {
        ParticleColumnPool::stats(self)
    }

    fn spawn(&mut self, s: &Spawn<'_>) -> bool {
        self.create(|p| {
            (*p.x, *p.y, *p.vx, *p.vy) = (s.x, s.y, s.vx, s.vy);
            *p.frames_left = s.lifetime;
            *p.lifetime = s.lifetime;
            *p.drag = s.spell.drag;
            *p.uses += 1;
            *p.emitter = Some(Rc::clone(s.spell));
        })
        .is_ok()
    }

    fn animate(&mut self) {
        self.retain(|p| step(p.frames_left, p.trail, p.x, p.y, p.vx, p.vy, *p.drag));
    }

    fn each(&self, mut visit: impl FnMut(View<'_>)) {
        for p in self.values() {
            visit(View {
                x: *p.x,
                y: *p.y,
                frames_left: *p.frames_left,
                lifetime: *p.lifetime,
                trail: p.trail,
                emitter: p.emitter.as_deref(),
            });
        }
    }

    fn busiest(&self) -> u32 {
        self.values().map(|p| *p.uses).max().unwrap_or(0)
    }

    fn release_all(&mut self) {
        ParticleColumnPool::release_all(self);
    }
}

fn main() -> ExitCode {
    let read = cli::read(
        USAGE,
        (DEFAULT_FRAMES, false),
        |(frames, columns), arg, value| match arg {
            "--frames" => {
                let text = value()?;
                *frames = text.parse().map_err(|_| {
                    format!("--frames expects a whole number of frames, not `{text}`")
                })?;
                Ok(())
            }
            "--columns" => {
                *columns = true;
                Ok(())
            }
            _ => cli::unknown(arg),
        },
    );
    let (frames, columns) = match read {
        Ok(settings) => settings,
        Err(status) => return status,
    };
    let outcome = if columns {
        compare_layouts(frames)
    } else {
        run(frames)
    };
    match outcome {
        Ok(()) => ExitCode::SUCCESS,
        // `| head` closing the pipe early is not a failure of the example.
        Err(error) if error.kind() == io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("error: {error}");
            ExitCode::FAILURE
        }
    }
}

/// Runs the frames without drawing in both layouts, and prints what both print (or fails if
/// they differ) and each one's time a frame.
fn compare_layouts(frames: u32) -> io::Result<()> {
    // Alternate trials, the fastest of each: the first run of all also warms the caches.
    let (mut objects_time, mut columns_time) = (Duration::MAX, Duration::MAX);
    let (mut objects, mut columns) = (Vec::new(), Vec::new());
    for _ in 0..3 {
        let time;
        (objects, time) = headless::<ParticlePool>(frames)?;
        objects_time = objects_time.min(time);
        let time;
        (columns, time) = headless::<ParticleColumnPool>(frames)?;
        columns_time = columns_time.min(time);
    }
    if objects != columns {
        return Err(io::Error::other(format!(
            "the layouts differ:\n{}\n--- columns:\n{}",
            String::from_utf8_lossy(&objects),
            String::from_utf8_lossy(&columns)
        )));
    }
    let mut stdout = io::stdout().lock();
    stdout.write_all(&objects)?;
    writeln!(
        stdout,
        "both layouts printed the above; time a frame (spawning and animating): objects {:.2} µs, columns {:.2} µs",
        objects_time.as_secs_f64() * 1e6,
        columns_time.as_secs_f64() * 1e6,
    )
}

/// What a run without drawing prints, and its time a frame.
fn headless<P: Particles>(frames: u32) -> io::Result<(Vec<u8>, Duration)> {
    let mut scene = Scene::<P>::new();
    let mut canvas = Canvas::new();
    // Room for every status line, so that the frames allocate nothing.
    let mut out = Vec::with_capacity((frames as usize / 10 + 2) * 128);
    let mut outcome = Ok(());
    let start = Instant::now();
    let allocations = allocation_counter::measure(|| {
        outcome = run_frames(&mut scene, &mut canvas, &mut out, frames, false);
    });
    let time = start.elapsed() / frames.max(1);
    outcome?;
    report(&mut scene, &mut out, allocations.count_total)?;
    Ok((out, time))
}

fn run(frames: u32) -> io::Result<()> {
    // Everything that allocates happens here, before the measured loop.
    let mut scene = Scene::<ParticlePool>::new();
    let mut canvas = Canvas::new();
    let animate = io::stdout().is_terminal();
    let mut stdout = io::stdout().lock();
    // The first write also makes stdout allocate its buffer, outside the measurement.
    if animate {
        stdout.write_all(b"\x1b[?25l\x1b[2J")?;
    } else {
        writeln!(
            stdout,
            "casting spells for {frames} frames into a pool of {} particles",
            scene.pool.stats().capacity
        )?;
    }
    stdout.flush()?;

    let mut outcome = Ok(());
    let allocations = allocation_counter::measure(|| {
        outcome = run_frames(&mut scene, &mut canvas, &mut stdout, frames, animate);
    });
    if animate {
        stdout.write_all(b"\x1b[0m\x1b[?25h\n")?;
    }
    outcome?;
    report(&mut scene, &mut stdout, allocations.count_total)
}

fn run_frames<P: Particles>(
    scene: &mut Scene<P>,
    canvas: &mut Canvas,
    out: &mut impl Write,
    frames: u32,
    animate: bool,
) -> io::Result<()> {
    let mut next_frame = Instant::now();
    for frame in 1..=frames {
        if frame % CAST_EVERY == 1 {
            scene.cast_spell();
        }
        scene.animate();
        canvas.clear();
        if animate {
            canvas.draw(scene);
            canvas.write_frame(scene, frame, frames)?;
            out.write_all(&canvas.out)?;
            out.flush()?;
            next_frame += FRAME_TIME;
            std::thread::sleep(next_frame.saturating_duration_since(Instant::now()));
        } else if frame % 10 == 0 || frame == frames {
            canvas.write_status(scene, frame, frames)?;
            canvas.out.push(b'\n');
            out.write_all(&canvas.out)?;
        }
    }
    Ok(())
}

struct Scene<P> {
    pool: P,
    spells: [Rc<Emitter>; 3],
    rng: fastrand::Rng,
    bursts_cast: usize,
    bursts_skipped: usize,
}

impl<P: Particles> Scene<P> {
    fn new() -> Self {
        let spell = |name, colour, speed, drag| {
            Rc::new(Emitter {
                name,
                colour,
                speed,
                drag,
            })
        };
        Self {
            pool: P::new(),
            spells: [
                spell("fireball", 208, 1.1, 0.90),
                spell("frost nova", 45, 0.8, 0.96),
                spell("arcane burst", 171, 0.45, 1.0),
            ],
            rng: fastrand::Rng::with_seed(SEED),
            bursts_cast: 0,
            bursts_skipped: 0,
        }
    }

    /// Spawns a whole burst at a random spot, or skips it if it does not fit.
    fn cast_spell(&mut self) {
        // The hero takes the spells in turn.
        let turn = self.bursts_cast + self.bursts_skipped;
        let spell = &self.spells[turn % self.spells.len()];
        let burst = self.rng.usize(120..=240);
        // The seed's strategy: half a spell looks broken, so a burst that does not fit is skipped.
        if self.pool.stats().free < burst {
            self.bursts_skipped += 1;
            return;
        }
        self.bursts_cast += 1;
        let (x, y) = (self.rng.f64() * 56.0 + 8.0, self.rng.f64() * 10.0 + 3.0);
        for _ in 0..burst {
            let angle = self.rng.f64() * std::f64::consts::TAU;
            let speed = spell.speed * (0.2 + 0.8 * self.rng.f64());
            let lifetime = self.rng.u32(16..=34);
            let spawned = self.pool.spawn(&Spawn {
                x,
                y,
                // Terminal cells are about twice as tall as wide: stretch x to keep bursts round.
                vx: 2.0 * speed * angle.cos(),
                vy: speed * angle.sin(),
                lifetime,
                spell,
            });
            // Cannot happen after the check above; if it did, the burst would just be smaller.
            if !spawned {
                break;
            }
        }
    }

    /// Moves every particle one frame; the ones that burn out or fall off the screen go back to
    /// the pool.
    fn animate(&mut self) {
        self.pool.animate();
    }
}

#[derive(Clone, Copy)]
struct Paint {
    glyph: char,
    style: Style,
}

#[derive(Clone, Copy, PartialEq)]
struct Style {
    /// An ANSI 256-colour index.
    colour: u8,
    dim: bool,
}

/// The grid of cells and the bytes of one frame, both allocated once and reused every frame.
struct Canvas {
    cells: Vec<Option<Paint>>,
    out: Vec<u8>,
}

impl Canvas {
    fn new() -> Self {
        let cells = usize::from(COLS) * usize::from(ROWS);
        Self {
            cells: vec![None; cells],
            // Room for a colour change before every cell, and then some.
            out: Vec::with_capacity(cells * 24 + 1024),
        }
    }

    fn clear(&mut self) {
        self.cells.fill(None);
        self.out.clear();
    }

    fn draw<P: Particles>(&mut self, scene: &Scene<P>) {
        // Trails first, so that every particle's head is drawn over them.
        scene.pool.each(|p| {
            let Some(emitter) = p.emitter else { return };
            for &(x, y) in p.trail {
                self.paint(x, y, '·', emitter.colour, true);
            }
        });
        scene.pool.each(|p| {
            let Some(emitter) = p.emitter else { return };
            self.paint(p.x, p.y, head_glyph(&p), emitter.colour, false);
        });
        let hero = (f64::from(COLS) / 2.0, f64::from(ROWS) - 1.0);
        self.paint(hero.0, hero.1, '@', 15, false);
    }

    fn paint(&mut self, x: f64, y: f64, glyph: char, colour: u8, dim: bool) {
        if let Some(index) = cell_index(x, y) {
            let style = Style { colour, dim };
            self.cells[index] = Some(Paint { glyph, style });
        }
    }

    /// The grid and a status line, redrawn from the top-left corner over the previous frame.
    fn write_frame<P: Particles>(
        &mut self,
        scene: &Scene<P>,
        frame: u32,
        frames: u32,
    ) -> io::Result<()> {
        self.out.extend_from_slice(b"\x1b[H");
        for row in self.cells.chunks(usize::from(COLS)) {
            let mut current = None;
            for &cell in row {
                // Escape codes only where the style changes keep a frame small.
                if let Some(paint) = cell
                    && current != Some(paint.style)
                {
                    write_style(&mut self.out, paint.style)?;
                    current = Some(paint.style);
                }
                let glyph = cell.map_or(' ', |c| c.glyph);
                let mut utf8 = [0; 4];
                self.out
                    .extend_from_slice(glyph.encode_utf8(&mut utf8).as_bytes());
            }
            self.out.extend_from_slice(b"\x1b[0m\n");
        }
        self.write_status(scene, frame, frames)?;
        self.out.extend_from_slice(b"\x1b[K");
        Ok(())
    }

    fn write_status<P: Particles>(
        &mut self,
        scene: &Scene<P>,
        frame: u32,
        frames: u32,
    ) -> io::Result<()> {
        let stats = scene.pool.stats();
        write!(
            self.out,
            "frame {frame:>4}/{frames}  live {:>3}/{}  bursts cast {}, skipped {}",
            stats.live, stats.capacity, scene.bursts_cast, scene.bursts_skipped,
        )
    }
}

fn write_style(out: &mut Vec<u8>, style: Style) -> io::Result<()> {
    let dim = if style.dim { "2;" } else { "" };
    write!(out, "\x1b[0;{dim}38;5;{}m", style.colour)
}

/// '*' while young, '+' in middle age, '.' near the end, in thirds of the particle's life.
fn head_glyph(p: &View<'_>) -> char {
    let left = p.frames_left * 3;
    if left > p.lifetime * 2 {
        '*'
    } else if left > p.lifetime {
        '+'
    } else {
        '.'
    }
}

/// The grid cell under a position, or `None` off screen.
#[expect(
    clippy::cast_possible_truncation,
    clippy::cast_sign_loss,
    reason = "both are checked to lie within the grid first"
)]
fn cell_index(x: f64, y: f64) -> Option<usize> {
    let (col, row) = (x.floor(), y.floor());
    // `contains` is false for NaN too.
    if !(0.0..f64::from(COLS)).contains(&col) || !(0.0..f64::from(ROWS)).contains(&row) {
        return None;
    }
    Some(row as usize * usize::from(COLS) + col as usize)
}

fn report<P: Particles>(
    scene: &mut Scene<P>,
    out: &mut impl Write,
    allocations: u64,
) -> io::Result<()> {
    let stats = scene.pool.stats();
    writeln!(
        out,
        "bursts cast: {}, skipped because the pool was too full: {}",
        scene.bursts_cast, scene.bursts_skipped
    )?;
    writeln!(
        out,
        "pool: capacity {}, live {}, high water {}, free {}",
        stats.capacity, stats.live, stats.high_water, stats.free
    )?;
    let busiest = scene.pool.busiest();
    writeln!(out, "busiest live slot has held {busiest} particles")?;
    writeln!(out, "live particles holding each spell:")?;
    for spell in &scene.spells {
        // The `Rc` here is one reference; the others are live particles.
        writeln!(out, "  {:<13}{}", spell.name, Rc::strong_count(spell) - 1)?;
    }
    scene.pool.release_all();
    let held: usize = scene.spells.iter().map(|s| Rc::strong_count(s) - 1).sum();
    writeln!(out, "after release_all: {held} references left")?;
    writeln!(out, "heap allocations after start-up: {allocations}")
}
