//! The seed's pooled `List<Vector3>`: scratch buffers a frame borrows and gives back.
//!
//! In C# every `New()` from a pool must be paired with a `Store()` "at the right place", because
//! nothing knows when the list has gone out of scope. Here each frame borrows its scratch
//! `Vec<[f32; 3]>` buffers through leases (`acquire` on the pool's lender, which takes `&self`,
//! so several can be out at once), fills them, and simply lets them drop: each buffer goes back
//! to the pool, cleared, keeping its capacity. The first frames grow the buffers; after that no frame
//! allocates, which the example measures and prints.
//!
//! ```text
//! cargo run --release --example scratch
//! ```

mod cli;

use pooling::{Lender, Pooled};
use std::process::ExitCode;

const USAGE: &str = "\
Usage: cargo run --release --example scratch [-- --help]

Borrows scratch lists through leases each frame and counts the frames' heap allocations. It
takes no options.";

const FRAMES: u32 = 24;
const AGENTS: usize = 48;
/// A constant seed, so that every run plays the same frames.
const SEED: u64 = 0x005C_4A7C;

/// A scratch list of points, borrowed for part of a frame.
#[derive(Pooled)]
#[pool(size = 4, on_full = panic)]
struct Scratch {
    points: Vec<[f32; 3]>,
}

struct Agent {
    position: [f32; 3],
    heading: [f32; 3],
}

fn main() -> ExitCode {
    if let Err(status) = cli::read(USAGE, (), |(), arg, _| cli::unknown(arg)) {
        return status;
    }
    let mut rng = fastrand::Rng::with_seed(SEED);
    let mut agents: Vec<Agent> = (0..AGENTS)
        .map(|_| Agent {
            position: [rng.f32() * 100.0, 0.0, rng.f32() * 100.0],
            heading: [rng.f32() - 0.5, 0.0, rng.f32() - 0.5],
        })
        .collect();
    let mut scratch = ScratchPool::new();
    let mut quiet_since = None;
    for frame in 0..FRAMES {
        let mut report = (0, 0, 0.0);
        let allocations = allocation_counter::measure(|| {
            report = simulate(&scratch.lender(), &mut agents, &mut rng);
        });
        let count = allocations.count_total;
        let (visible, waypoints, spread) = report;
        println!(
            "frame {frame:>2}: {visible:>2} agents in view, {waypoints:>3} waypoints, spread {spread:>5.1}, heap allocations {count}"
        );
        quiet_since = match (count, quiet_since) {
            (0, None) => Some(frame),
            (0, since) => since,
            _ => None,
        };
    }
    let stats = scratch.stats();
    println!(
        "scratch pool: {} buffers, at most {} lent at once, {} leases in all, {} out now",
        stats.capacity, stats.high_water, stats.created, stats.leased
    );
    match quiet_since {
        Some(frame) => println!("after warm-up (frame {frame} on), no frame allocated"),
        None => println!("the last frame still allocated"),
    }
    ExitCode::SUCCESS
}

/// One frame: three scratch lists borrowed at once, dropped (given back) at the end of the
/// function. Returns what the frame found, for the log.
fn simulate(
    scratch: &Lender<'_, Scratch>,
    agents: &mut [Agent],
    rng: &mut fastrand::Rng,
) -> (usize, usize, f32) {
    for agent in agents.iter_mut() {
        for (p, h) in agent.position.iter_mut().zip(agent.heading) {
            *p += h;
        }
    }
    let eye = [50.0, 0.0, 50.0];
    let range = 20.0 + rng.f32() * 30.0;

    let mut visible = scratch.acquire(|_| {});
    visible.points.extend(
        agents
            .iter()
            .map(|agent| agent.position)
            .filter(|position| distance(*position, eye) < range),
    );

    let mut waypoints = scratch.acquire(|_| {});
    for target in &visible.points {
        let steps = 1 + rng.usize(..4);
        waypoints
            .points
            .extend((1..=steps).map(|step| lerp(eye, *target, step, steps)));
    }

    let mut centre = scratch.acquire(|_| {});
    centre.points.push(mean(&visible.points));
    let spread = visible
        .points
        .iter()
        .map(|p| distance(*p, centre.points[0]))
        .fold(0.0, f32::max);

    (visible.points.len(), waypoints.points.len(), spread)
}

fn distance(a: [f32; 3], b: [f32; 3]) -> f32 {
    a.iter()
        .zip(b)
        .map(|(a, b)| (a - b) * (a - b))
        .sum::<f32>()
        .sqrt()
}

fn lerp(from: [f32; 3], to: [f32; 3], step: usize, steps: usize) -> [f32; 3] {
    let t = f32::from(u8::try_from(step).unwrap_or(u8::MAX))
        / f32::from(u8::try_from(steps).unwrap_or(u8::MAX));
    [0, 1, 2].map(|i| from[i] + (to[i] - from[i]) * t)
}

fn mean(points: &[[f32; 3]]) -> [f32; 3] {
    let count = f32::from(u16::try_from(points.len().max(1)).unwrap_or(u16::MAX));
    let sum = points
        .iter()
        .fold([0.0; 3], |acc, p| [0, 1, 2].map(|i| acc[i] + p[i]));
    sum.map(|s| s / count)
}
