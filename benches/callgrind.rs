//! Instruction counts under callgrind (gungraun): the churn step (of the 40-byte particle, and
//! of a 24-byte object), get, iteration at 10/50/90 %,
//! the particle frame and heavy reuse, for pooling, slab, `SlotMap` and `DenseSlotMap`, on the
//! same generic loops as the criterion benches (`workload`); pooling's lease through a
//! fresh lender beside its create and release (`lease`, as benches/lender.rs); and a column
//! pool's kernel over `groups_mut` at 90 % live beside soa_derive holding the live objects
//! (`kernel_90`, as benches/holes.rs); and a burst of 2,000 creates by `create_many` into an
//! empty pool beside as many `Vec::push`es of the same particles (`burst`, as benches/groups.rs).
//!
//! Every peer's container is built, warmed up and checked in `setup` (not counted), which hands
//! the benchmark a closure that runs the loop. Each case runs twice: `<peer>` runs the workload,
//! `<peer>_base` the same closure with no operations. Their difference divided by the operation
//! count is the figure per operation (`benches/budget.py`), with the call, the closure and the
//! loop's own setup subtracted.
//!
//! ```sh
//! cargo install gungraun-runner --version 0.20.0 --locked
//! cargo bench -p pooling-benches --bench callgrind
//! ```

use gungraun::{library_benchmark, library_benchmark_group, main};
use pooling::Pooled;
use pooling_benches::particle::{Heavy, HeavyPool, NAMES, Owner, ParticlePool};
use pooling_benches::reuse::Recycling;
use pooling_benches::small::{self, Mote, MotePool, SmallPeer};
use pooling_benches::{
    Bursts, CAPACITY, CHURN_CAPACITY, CHURN_STEPS, Churn, Container, LOOKUPS, Lookups, Occupancy,
    Release, Reuse, workload,
};
use slotmap::{DenseSlotMap, SlotMap};
use soa_derive::StructOfArray;
use std::hint::black_box;
use std::rc::Rc;

/// The measured closure: runs the workload's loop (or none of it, for the baseline).
type Run = Box<dyn FnMut() -> u64>;

/// `$body` with `$peer` the container of the named peer, built with `$capacity` slots.
macro_rules! by_peer {
    ($name:expr, $capacity:expr, |$peer:ident| $body:expr) => {
        match $name {
            "pooling" => {
                let $peer = ParticlePool::with_capacity($capacity);
                $body
            }
            "slab" => {
                let $peer = slab::Slab::with_capacity($capacity);
                $body
            }
            "slotmap" => {
                let $peer = SlotMap::with_capacity($capacity);
                $body
            }
            "dense_slotmap" => {
                let $peer = DenseSlotMap::with_capacity($capacity);
                $body
            }
            other => panic!("no peer {other}"),
        }
    };
}

fn churn_setup(peer: &str, steps: usize) -> Run {
    fn run<P: Release + 'static>(steps: usize, peer: P) -> Run {
        let churn = Churn::new();
        let (mut peer, mut live) = workload::churned(&churn, peer);
        let steps = churn.steps[..steps].to_vec();
        Box::new(move || {
            workload::churn(&mut peer, &mut live, &steps);
            0
        })
    }
    by_peer!(peer, CHURN_CAPACITY, |p| run(steps, p))
}

fn churn_24_setup(peer: &str, steps: usize) -> Run {
    fn run<P: SmallPeer + 'static>(steps: usize, peer: P) -> Run {
        let churn = Churn::new();
        let (mut peer, mut live) = small::churned(&churn, peer);
        let steps = churn.steps[..steps].to_vec();
        Box::new(move || {
            small::churn(&mut peer, &mut live, &steps);
            0
        })
    }
    match peer {
        "pooling" => run(steps, MotePool::new()),
        "slab" => run(steps, slab::Slab::<Mote>::with_capacity(CHURN_CAPACITY)),
        "slotmap" => run(steps, SlotMap::<_, Mote>::with_capacity(CHURN_CAPACITY)),
        "dense_slotmap" => run(
            steps,
            DenseSlotMap::<_, Mote>::with_capacity(CHURN_CAPACITY),
        ),
        other => panic!("no peer {other}"),
    }
}

fn get_setup(peer: &str, lookups: usize) -> Run {
    fn run<P: Container + Release + 'static>(lookups: usize, peer: P) -> Run
    where
        P::Key: Copy + 'static,
    {
        let l = Lookups::new();
        let (peer, live) = workload::occupy(&l.occupancy, peer);
        let keys = workload::lookups(&l, &peer, &live)[..lookups].to_vec();
        Box::new(move || workload::get(black_box(&peer), &keys))
    }
    by_peer!(peer, CAPACITY, |p| run(lookups, p))
}

fn iterate_setup(peer: &str, percent: usize, iterate: bool) -> Run {
    walk_setup(peer, percent, iterate, false)
}

fn iterate_keyed_setup(peer: &str, percent: usize, iterate: bool) -> Run {
    walk_setup(peer, percent, iterate, true)
}

/// A peer at `percent` live, walked (with its keys if `keyed`) if `iterate`.
fn walk_setup(peer: &str, percent: usize, iterate: bool, keyed: bool) -> Run {
    fn run<P: Container + Release + 'static>(percent: usize, walk: (bool, bool), peer: P) -> Run {
        let (peer, _) = workload::occupy(&Occupancy::new(percent), peer);
        Box::new(move || match black_box(walk) {
            (false, _) => 0,
            (true, false) => workload::sum(black_box(&peer)),
            (true, true) => workload::sum_keyed(black_box(&peer)),
        })
    }
    by_peer!(peer, CAPACITY, |p| run(percent, (iterate, keyed), p))
}

fn frame_setup(peer: &str, frames: usize) -> Run {
    fn run<P: Container + 'static>(frames: usize, mut peer: P) -> Run {
        let bursts = Bursts::new();
        let first = workload::warm_up(&bursts, &mut peer);
        Box::new(move || {
            for n in first..first + frames {
                workload::frame(&mut peer, bursts.burst(n));
            }
            0
        })
    }
    by_peer!(peer, CAPACITY, |p| run(frames, p))
}

fn reuse_setup(peer: &str, rounds: usize) -> Run {
    let held = NAMES.len();
    fn run<R: Reuse + 'static>(rounds: usize, mut peer: R) -> Run {
        let owner = Rc::new(Owner { name: "emitter" });
        let mut held = Vec::with_capacity(NAMES.len());
        workload::check_reuse(&mut peer, &mut held, &owner);
        Box::new(move || {
            for _ in 0..rounds {
                workload::reuse(&mut peer, &mut held, &owner);
            }
            0
        })
    }
    match peer {
        "pooling" => run(rounds, HeavyPool::new()),
        "slab" => run(
            rounds,
            Recycling::new(slab::Slab::<Heavy>::with_capacity(held), held),
        ),
        "slotmap" => run(rounds, Recycling::new(SlotMap::with_capacity(held), held)),
        "dense_slotmap" => run(
            rounds,
            Recycling::new(DenseSlotMap::with_capacity(held), held),
        ),
        other => panic!("no peer {other}"),
    }
}

/// Runs the closure and leaks it, so that no container's drop is counted.
fn measure(mut run: Run) -> u64 {
    let sum = run();
    std::mem::forget(run);
    black_box(sum)
}

#[library_benchmark]
#[bench::pooling(args = ("pooling", CHURN_STEPS), setup = churn_setup)]
#[bench::pooling_base(args = ("pooling", 0), setup = churn_setup)]
#[bench::slab(args = ("slab", CHURN_STEPS), setup = churn_setup)]
#[bench::slab_base(args = ("slab", 0), setup = churn_setup)]
#[bench::slotmap(args = ("slotmap", CHURN_STEPS), setup = churn_setup)]
#[bench::slotmap_base(args = ("slotmap", 0), setup = churn_setup)]
#[bench::dense_slotmap(args = ("dense_slotmap", CHURN_STEPS), setup = churn_setup)]
#[bench::dense_slotmap_base(args = ("dense_slotmap", 0), setup = churn_setup)]
fn churn(run: Run) -> u64 {
    measure(run)
}

#[library_benchmark]
#[bench::pooling(args = ("pooling", CHURN_STEPS), setup = churn_24_setup)]
#[bench::pooling_base(args = ("pooling", 0), setup = churn_24_setup)]
#[bench::slab(args = ("slab", CHURN_STEPS), setup = churn_24_setup)]
#[bench::slab_base(args = ("slab", 0), setup = churn_24_setup)]
#[bench::slotmap(args = ("slotmap", CHURN_STEPS), setup = churn_24_setup)]
#[bench::slotmap_base(args = ("slotmap", 0), setup = churn_24_setup)]
#[bench::dense_slotmap(args = ("dense_slotmap", CHURN_STEPS), setup = churn_24_setup)]
#[bench::dense_slotmap_base(args = ("dense_slotmap", 0), setup = churn_24_setup)]
fn churn_24(run: Run) -> u64 {
    measure(run)
}

#[library_benchmark]
#[bench::pooling(args = ("pooling", LOOKUPS), setup = get_setup)]
#[bench::pooling_base(args = ("pooling", 0), setup = get_setup)]
#[bench::slab(args = ("slab", LOOKUPS), setup = get_setup)]
#[bench::slab_base(args = ("slab", 0), setup = get_setup)]
#[bench::slotmap(args = ("slotmap", LOOKUPS), setup = get_setup)]
#[bench::slotmap_base(args = ("slotmap", 0), setup = get_setup)]
#[bench::dense_slotmap(args = ("dense_slotmap", LOOKUPS), setup = get_setup)]
#[bench::dense_slotmap_base(args = ("dense_slotmap", 0), setup = get_setup)]
fn get(run: Run) -> u64 {
    measure(run)
}

#[library_benchmark]
#[bench::pooling(args = ("pooling", 10, true), setup = iterate_setup)]
#[bench::pooling_base(args = ("pooling", 10, false), setup = iterate_setup)]
#[bench::slab(args = ("slab", 10, true), setup = iterate_setup)]
#[bench::slab_base(args = ("slab", 10, false), setup = iterate_setup)]
#[bench::slotmap(args = ("slotmap", 10, true), setup = iterate_setup)]
#[bench::slotmap_base(args = ("slotmap", 10, false), setup = iterate_setup)]
#[bench::dense_slotmap(args = ("dense_slotmap", 10, true), setup = iterate_setup)]
#[bench::dense_slotmap_base(args = ("dense_slotmap", 10, false), setup = iterate_setup)]
fn iterate_10(run: Run) -> u64 {
    measure(run)
}

#[library_benchmark]
#[bench::pooling(args = ("pooling", 50, true), setup = iterate_setup)]
#[bench::pooling_base(args = ("pooling", 50, false), setup = iterate_setup)]
#[bench::slab(args = ("slab", 50, true), setup = iterate_setup)]
#[bench::slab_base(args = ("slab", 50, false), setup = iterate_setup)]
#[bench::slotmap(args = ("slotmap", 50, true), setup = iterate_setup)]
#[bench::slotmap_base(args = ("slotmap", 50, false), setup = iterate_setup)]
#[bench::dense_slotmap(args = ("dense_slotmap", 50, true), setup = iterate_setup)]
#[bench::dense_slotmap_base(args = ("dense_slotmap", 50, false), setup = iterate_setup)]
fn iterate_50(run: Run) -> u64 {
    measure(run)
}

#[library_benchmark]
#[bench::pooling(args = ("pooling", 90, true), setup = iterate_setup)]
#[bench::pooling_base(args = ("pooling", 90, false), setup = iterate_setup)]
#[bench::slab(args = ("slab", 90, true), setup = iterate_setup)]
#[bench::slab_base(args = ("slab", 90, false), setup = iterate_setup)]
#[bench::slotmap(args = ("slotmap", 90, true), setup = iterate_setup)]
#[bench::slotmap_base(args = ("slotmap", 90, false), setup = iterate_setup)]
#[bench::dense_slotmap(args = ("dense_slotmap", 90, true), setup = iterate_setup)]
#[bench::dense_slotmap_base(args = ("dense_slotmap", 90, false), setup = iterate_setup)]
fn iterate_90(run: Run) -> u64 {
    measure(run)
}

#[library_benchmark]
#[bench::pooling(args = ("pooling", 50, true), setup = iterate_keyed_setup)]
#[bench::pooling_base(args = ("pooling", 50, false), setup = iterate_keyed_setup)]
#[bench::slab(args = ("slab", 50, true), setup = iterate_keyed_setup)]
#[bench::slab_base(args = ("slab", 50, false), setup = iterate_keyed_setup)]
#[bench::slotmap(args = ("slotmap", 50, true), setup = iterate_keyed_setup)]
#[bench::slotmap_base(args = ("slotmap", 50, false), setup = iterate_keyed_setup)]
#[bench::dense_slotmap(args = ("dense_slotmap", 50, true), setup = iterate_keyed_setup)]
#[bench::dense_slotmap_base(args = ("dense_slotmap", 50, false), setup = iterate_keyed_setup)]
fn iterate_keyed_50(run: Run) -> u64 {
    measure(run)
}

#[library_benchmark]
#[bench::pooling(args = ("pooling", 1), setup = frame_setup)]
#[bench::pooling_base(args = ("pooling", 0), setup = frame_setup)]
#[bench::slab(args = ("slab", 1), setup = frame_setup)]
#[bench::slab_base(args = ("slab", 0), setup = frame_setup)]
#[bench::slotmap(args = ("slotmap", 1), setup = frame_setup)]
#[bench::slotmap_base(args = ("slotmap", 0), setup = frame_setup)]
#[bench::dense_slotmap(args = ("dense_slotmap", 1), setup = frame_setup)]
#[bench::dense_slotmap_base(args = ("dense_slotmap", 0), setup = frame_setup)]
fn frame(run: Run) -> u64 {
    measure(run)
}

#[library_benchmark]
#[bench::pooling(args = ("pooling", 1), setup = reuse_setup)]
#[bench::pooling_base(args = ("pooling", 0), setup = reuse_setup)]
#[bench::slab(args = ("slab", 1), setup = reuse_setup)]
#[bench::slab_base(args = ("slab", 0), setup = reuse_setup)]
#[bench::slotmap(args = ("slotmap", 1), setup = reuse_setup)]
#[bench::slotmap_base(args = ("slotmap", 0), setup = reuse_setup)]
#[bench::dense_slotmap(args = ("dense_slotmap", 1), setup = reuse_setup)]
#[bench::dense_slotmap_base(args = ("dense_slotmap", 0), setup = reuse_setup)]
fn reuse(run: Run) -> u64 {
    measure(run)
}

/// Operations of the `lease` case: each a lease and its give-back through a fresh lender
/// (`pooling`), or a create and a release (`create_release`), on the churn's pool at its start.
const LEASES: usize = 1024;

fn lease_setup(what: &str, leases: usize) -> Run {
    let churn = Churn::new();
    let mut pool = ParticlePool::new();
    for spawn in &churn.initial {
        pool.create(|p| spawn.write(p)).unwrap();
    }
    let spawns: Vec<_> = churn.steps[..leases]
        .iter()
        .map(|step| step.spawn)
        .collect();
    match what {
        "lease_fresh" => Box::new(move || {
            for spawn in &spawns {
                let lender = pool.lender();
                let mut lease = lender.acquire(|p| spawn.write(p)).unwrap();
                black_box(&mut *lease);
            }
            0
        }),
        "create_release" => Box::new(move || {
            for spawn in &spawns {
                let handle = pool.create(|p| spawn.write(p)).unwrap();
                pool.release(black_box(handle)).unwrap();
            }
            0
        }),
        other => panic!("no loop {other}"),
    }
}

#[library_benchmark]
#[bench::pooling(args = ("lease_fresh", LEASES), setup = lease_setup)]
#[bench::pooling_base(args = ("lease_fresh", 0), setup = lease_setup)]
#[bench::create_release(args = ("create_release", LEASES), setup = lease_setup)]
#[bench::create_release_base(args = ("create_release", 0), setup = lease_setup)]
fn lease(run: Run) -> u64 {
    measure(run)
}

/// A body of six `f32` kept as columns (issue 39's kernel path), and the same for soa_derive.
#[derive(Pooled)]
#[pool(size = 10_000, layout = columns)]
struct Body {
    x: f32,
    y: f32,
    z: f32,
    vx: f32,
    vy: f32,
    vz: f32,
}

#[derive(StructOfArray, Clone, Copy, Default)]
struct Soa {
    x: f32,
    y: f32,
    z: f32,
    vx: f32,
    vy: f32,
    vz: f32,
}

/// Live objects of the kernel cases: 90 % of `CAPACITY`.
const KERNEL_LIVE: usize = CAPACITY * 9 / 10;

/// The ballistic kernel over six columns of `n` slots each.
#[inline]
fn kernel(x: &mut [f32], y: &mut [f32], z: &mut [f32], v: [&mut [f32]; 3]) {
    let n = x.len();
    let (y, z) = (&mut y[..n], &mut z[..n]);
    let [vx, vy, vz] = v.map(|c| &mut c[..n]);
    for i in 0..n {
        vy[i] -= 9.81 * 0.01;
        vx[i] *= 0.999;
        vz[i] *= 0.999;
        x[i] += vx[i] * 0.01;
        y[i] += vy[i] * 0.01;
        z[i] += vz[i] * 0.01;
    }
}

/// A column pool of `CAPACITY` slots at 90 % live, the released ones at random (a fixed seed),
/// its kernel run over `groups_mut`; or soa_derive holding its live objects, the kernel over
/// its columns. `run` false: the same, no kernel.
fn kernel_setup(peer: &str, run: bool) -> Run {
    let mut rng = fastrand::Rng::with_seed(39);
    let mut dead: Vec<usize> = (0..CAPACITY).collect();
    rng.shuffle(&mut dead);
    dead.truncate(CAPACITY - KERNEL_LIVE);
    match peer {
        "groups" => {
            let mut pool = BodyPool::new();
            let handles: Vec<_> = (0..CAPACITY)
                .map(|i| pool.create(|b| *b.vx = i as f32).unwrap())
                .collect();
            for &at in &dead {
                pool.release(handles[at]).unwrap();
            }
            Box::new(move || {
                if black_box(run) {
                    for (_, g) in pool.groups_mut() {
                        kernel(g.x, g.y, g.z, [g.vx, g.vy, g.vz]);
                    }
                }
                pool.len() as u64
            })
        }
        "soa" => {
            let mut soa = SoaVec::new();
            for i in 0..KERNEL_LIVE {
                soa.push(Soa {
                    vx: i as f32,
                    ..Soa::default()
                });
            }
            Box::new(move || {
                if black_box(run) {
                    let v = [&mut soa.vx[..], &mut soa.vy[..], &mut soa.vz[..]];
                    kernel(&mut soa.x, &mut soa.y, &mut soa.z, v);
                }
                soa.len() as u64
            })
        }
        other => panic!("no peer {other}"),
    }
}

#[library_benchmark]
#[bench::groups(args = ("groups", true), setup = kernel_setup)]
#[bench::groups_base(args = ("groups", false), setup = kernel_setup)]
#[bench::soa(args = ("soa", true), setup = kernel_setup)]
#[bench::soa_base(args = ("soa", false), setup = kernel_setup)]
fn kernel_90(run: Run) -> u64 {
    measure(run)
}

/// Objects of the `burst` case.
const BURST: usize = 2_000;

/// A burst of `count` particles: `create_many` into a pool of `BURST` slots, all free
/// (`create_many`), the same with each handle recorded as benches/groups.rs's burst does
/// (`with_handle`), or pushes onto a `Vec` with room for them (`vec_push`).
fn burst_setup(what: &str, count: usize) -> Run {
    let bursts = Bursts::new();
    let frames = BURST.div_ceil(pooling_benches::BURST);
    let spawns: Vec<_> = (0..frames)
        .flat_map(|n| bursts.burst(n))
        .copied()
        .take(count)
        .collect();
    match what {
        "create_many" => {
            let mut pool = ParticlePool::with_capacity(BURST);
            Box::new(move || {
                let made = pool.create_many(spawns.len(), |n, p| spawns[n].write(p));
                assert_eq!(made, spawns.len());
                pool.len() as u64
            })
        }
        "with_handle" => {
            let mut pool = ParticlePool::with_capacity(BURST);
            let mut made = Vec::with_capacity(BURST);
            Box::new(move || {
                pool.create_many_with_handle(spawns.len(), |n, handle, p| {
                    spawns[n].write(p);
                    made.push(handle);
                });
                assert_eq!(made.len(), spawns.len());
                pool.len() as u64
            })
        }
        "vec_push" => {
            let mut particles = Vec::with_capacity(BURST);
            Box::new(move || {
                for spawn in &spawns {
                    particles.push(spawn.particle());
                }
                particles.len() as u64
            })
        }
        other => panic!("no loop {other}"),
    }
}

#[library_benchmark]
#[bench::create_many(args = ("create_many", BURST), setup = burst_setup)]
#[bench::create_many_base(args = ("create_many", 0), setup = burst_setup)]
#[bench::with_handle(args = ("with_handle", BURST), setup = burst_setup)]
#[bench::with_handle_base(args = ("with_handle", 0), setup = burst_setup)]
#[bench::vec_push(args = ("vec_push", BURST), setup = burst_setup)]
#[bench::vec_push_base(args = ("vec_push", 0), setup = burst_setup)]
fn burst(run: Run) -> u64 {
    measure(run)
}

library_benchmark_group!(
    name = workloads;
    benchmarks = churn, churn_24, get, iterate_10, iterate_50, iterate_90, iterate_keyed_50, frame, reuse, lease, kernel_90, burst
);

main!(library_benchmark_groups = workloads);
