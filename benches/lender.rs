//! A lender (issue 38): taking one, and a lease with its give-back through a fresh lender, beside
//! create and release, in one run, in both layouts.
//!
//! Each iteration runs 1,024 operations on a pool of 1,024 slots, 512 of them live (the
//! churn's start), each operation with the next of the churn's spawns:
//!
//! - `create_release`: `create` from the spawn, then `release` of its handle;
//! - `lender`: `pool.lender()`, dropped at once;
//! - `lease_fresh`: `pool.lender()`, `acquire` set up from the spawn, and both dropped (the
//!   lease gives its object back, reset): the loop of code that takes a lender per lease;
//! - `lease`: `acquire` and the give-back through one lender kept for the iteration.
//!
//! `cargo bench -p pooling-benches --bench lender`. Before measuring, each loop runs once and
//! the pool must hold the same live objects after, with nothing leased and every operation
//! counted.

use criterion::{Criterion, criterion_group, criterion_main};
use pooling::Pooled;
use pooling_benches::particle::ParticlePool;
use pooling_benches::{CHURN_CAPACITY, Churn, Group, Spawn};
use std::hint::black_box;

/// The particle in columns: a column of each of its fields.
#[derive(Pooled)]
#[pool(size = 1024, layout = columns)]
struct ParticleColumns {
    frames_left: u32,
    x: f64,
    y: f64,
    vx: f64,
    vy: f64,
}

/// Writes `spawn` into a column pool's row, as `Spawn::write` does into a particle.
#[inline]
fn write(spawn: &Spawn, row: ParticleColumnsMut<'_>) {
    let ParticleColumnsMut {
        frames_left,
        x,
        y,
        vx,
        vy,
        ..
    } = row;
    *frames_left = spawn.frames_left;
    *x = spawn.x;
    *y = spawn.y;
    *vx = spawn.vx;
    *vy = spawn.vy;
}

/// One of the loops: an operation for each spawn.
type Loop<P> = fn(&mut P, &[Spawn]);

/// What each pool does in a loop, one operation per spawn.
trait Lends {
    const NAME: &'static str;
    /// Creates half the pool's objects.
    fn start(spawns: &[Spawn]) -> Self;
    fn create_release(&mut self, spawns: &[Spawn]);
    fn lender(&mut self, spawns: &[Spawn]);
    fn lease_fresh(&mut self, spawns: &[Spawn]);
    fn lease(&mut self, spawns: &[Spawn]);
    /// Live and leased objects, and objects created (or lent).
    fn figures(&self) -> (usize, usize, u64);
}

impl Lends for ParticlePool {
    const NAME: &'static str = "objects";

    fn start(spawns: &[Spawn]) -> Self {
        let mut pool = Self::new();
        for spawn in spawns {
            pool.create(|p| spawn.write(p)).unwrap();
        }
        pool
    }

    fn create_release(&mut self, spawns: &[Spawn]) {
        for spawn in spawns {
            let handle = self.create(|p| spawn.write(p)).unwrap();
            self.release(black_box(handle)).unwrap();
        }
    }

    fn lender(&mut self, spawns: &[Spawn]) {
        for _ in spawns {
            black_box(&self.lender());
        }
    }

    fn lease_fresh(&mut self, spawns: &[Spawn]) {
        for spawn in spawns {
            let lender = self.lender();
            let mut lease = lender.acquire(|p| spawn.write(p)).unwrap();
            black_box(&mut *lease);
        }
    }

    fn lease(&mut self, spawns: &[Spawn]) {
        let lender = self.lender();
        for spawn in spawns {
            let mut lease = lender.acquire(|p| spawn.write(p)).unwrap();
            black_box(&mut *lease);
        }
    }

    fn figures(&self) -> (usize, usize, u64) {
        let stats = self.stats();
        (stats.live, stats.leased, stats.created)
    }
}

impl Lends for ParticleColumnsPool {
    const NAME: &'static str = "columns";

    fn start(spawns: &[Spawn]) -> Self {
        let mut pool = Self::new();
        for spawn in spawns {
            pool.create(|row| write(spawn, row)).unwrap();
        }
        pool
    }

    fn create_release(&mut self, spawns: &[Spawn]) {
        for spawn in spawns {
            let handle = self.create(|row| write(spawn, row)).unwrap();
            self.release(black_box(handle)).unwrap();
        }
    }

    fn lender(&mut self, spawns: &[Spawn]) {
        for _ in spawns {
            black_box(&self.lender());
        }
    }

    fn lease_fresh(&mut self, spawns: &[Spawn]) {
        for spawn in spawns {
            let lender = self.lender();
            let mut lease = lender.acquire(|row| write(spawn, row)).unwrap();
            black_box(lease.row_mut());
        }
    }

    fn lease(&mut self, spawns: &[Spawn]) {
        let lender = self.lender();
        for spawn in spawns {
            let mut lease = lender.acquire(|row| write(spawn, row)).unwrap();
            black_box(lease.row_mut());
        }
    }

    fn figures(&self) -> (usize, usize, u64) {
        let stats = self.stats();
        (stats.live, stats.leased, stats.created)
    }
}

fn lender(c: &mut Criterion) {
    let churn = Churn::new();
    let spawns: Vec<Spawn> = churn.steps.iter().map(|step| step.spawn).collect();
    bench::<ParticlePool>(c, &churn.initial, &spawns);
    bench::<ParticleColumnsPool>(c, &churn.initial, &spawns);
}

/// The four loops on one pool, each checked once before it is measured.
fn bench<P: Lends>(c: &mut Criterion, initial: &[Spawn], spawns: &[Spawn]) {
    let mut pool = P::start(initial);
    assert_eq!(initial.len() * 2, CHURN_CAPACITY);
    let mut group = c.benchmark_group(format!("lender_{}", P::NAME));
    let loops: [(&str, Loop<P>, u64); 4] = [
        ("create_release", P::create_release, 1),
        ("lender", P::lender, 0),
        ("lease_fresh", P::lease_fresh, 1),
        ("lease", P::lease, 1),
    ];
    for (name, run, counted) in loops {
        check(&mut pool, run, spawns, counted);
        measure(&mut group, name, &mut pool, run, spawns);
    }
    group.finish();
}

/// Runs `run` once: the same objects live after, none leased, `counted` creations (or leases)
/// per spawn.
fn check<P: Lends>(pool: &mut P, run: Loop<P>, spawns: &[Spawn], counted: u64) {
    let (live, leased, created) = pool.figures();
    run(pool, spawns);
    let after = pool.figures();
    let expected = created + counted * spawns.len() as u64;
    assert_eq!(after, (live, leased, expected), "{}", P::NAME);
    assert_eq!(leased, 0);
}

fn measure<P: Lends>(
    group: &mut Group<'_>,
    name: &str,
    pool: &mut P,
    run: Loop<P>,
    spawns: &[Spawn],
) {
    group.bench_function(name, |b| b.iter(|| run(pool, black_box(spawns))));
}

criterion_group! {
    name = benches;
    config = pooling_benches::config();
    targets = lender
}
criterion_main!(benches);
