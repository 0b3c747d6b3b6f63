//! A particle system on every core with rayon (`pooling`'s `rayon` feature): each frame moves
//! every particle with `par_values_mut`, then ages them with `par_retain`, whose dead are reset
//! in parallel and their slots returned, and spawns a burst into the freed slots.
//!
//! The same frames run sequentially (`values_mut`, `retain`) on a second pool, and the two must
//! agree exactly after every frame: the same particles in the same slots, the same free
//! list (the bursts land in the same slots), the same stats.
//!
//! `cargo run --release -p pooling-parallel [-- FRAMES]`

use pooling::Pooled;
use rayon::prelude::*;

#[derive(Pooled, Clone, Debug, PartialEq)]
#[pool(size = 100_000)]
struct Particle {
    pos: [f32; 2],
    vel: [f32; 2],
    frames_left: u32,
    /// Where it has been, every 8th frame: reset (keeping its buffer) when the particle dies.
    trail: Vec<[f32; 2]>,
}

impl Particle {
    /// Eight sub-steps of a spring towards the origin, damped by speed.
    fn animate(&mut self) {
        for _ in 0..8 {
            for a in 0..2 {
                self.vel[a] -= 0.02 * self.pos[a];
            }
            let speed = self.vel[0].hypot(self.vel[1]);
            for a in 0..2 {
                self.pos[a] += self.vel[a] * 0.05 / (1.0 + speed);
            }
        }
    }

    /// One frame of aging: false when the particle dies.
    fn age(&mut self) -> bool {
        self.frames_left -= 1;
        if self.frames_left.is_multiple_of(8) {
            self.trail.push(self.pos);
        }
        self.frames_left > 0
    }
}

/// Spawns the `frame`th burst: the same particles in either pool.
fn burst(pool: &mut ParticlePool, frame: u32) -> usize {
    let mut spawned = 0;
    for k in 0..1_500u32 {
        let seed = frame
            .wrapping_mul(7919)
            .wrapping_add(k.wrapping_mul(104_729));
        #[expect(clippy::cast_precision_loss, reason = "small whole numbers")]
        let spread = |bits: u32| (seed >> bits & 0xff) as f32 / 32.0 - 4.0;
        let made = pool.try_create(|p| {
            p.pos = [spread(0), spread(8)];
            p.vel = [spread(16) / 8.0, spread(4) / 8.0];
            p.frames_left = 10 + seed % 50;
        });
        if made.is_err() {
            break;
        }
        spawned += 1;
    }
    spawned
}

/// The live particles by slot: two pools' handles differ (each pool counts its versions apart),
/// their slots do not.
fn snapshot(pool: &ParticlePool) -> Vec<(usize, &Particle)> {
    pool.iter().map(|(handle, p)| (handle.index(), p)).collect()
}

fn main() {
    let frames: u32 = std::env::args()
        .nth(1)
        .map_or(120, |arg| arg.parse().expect("FRAMES is a number"));
    let mut parallel = ParticlePool::new();
    let mut sequential = ParticlePool::new();
    let (mut spawned, mut died) = (0, 0);
    for frame in 0..frames {
        let before = parallel.len();
        parallel.par_values_mut().for_each(Particle::animate);
        parallel.par_retain(Particle::age);
        died += before - parallel.len();
        spawned += burst(&mut parallel, frame);

        sequential.values_mut().for_each(Particle::animate);
        sequential.retain(Particle::age);
        burst(&mut sequential, frame);

        assert_eq!(parallel.stats(), sequential.stats(), "frame {frame}: stats");
        assert!(
            snapshot(&parallel) == snapshot(&sequential),
            "frame {frame}: the parallel pool holds other particles than the sequential one"
        );
    }
    let live = parallel.len();
    assert_eq!(spawned, live + died);
    assert!(died > 0 && live > 0, "particles lived and died");
    let far = parallel
        .par_iter_mut()
        .map(|(_, p)| p.pos[0].hypot(p.pos[1]))
        .reduce(|| 0.0, f32::max);
    println!(
        "{frames} frames on {} threads: {spawned} spawned, {died} died, {live} live \
         (farthest {far:.2} from the origin); the parallel frames matched the sequential ones",
        rayon::current_num_threads()
    );
    println!("{:?}", parallel.stats());
}
