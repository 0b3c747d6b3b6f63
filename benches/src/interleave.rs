//! Timing rows side by side on a shared machine: each trial times one call of every row, in an
//! order shuffled from trial to trial, so that a load that comes and goes slows every row of a
//! trial alike and no row always follows the same one (the row after another's objects runs
//! slower, even warmed). A row's figure is the median over the trials of its time over its
//! peer's in the same trial, with the quartiles: what criterion's runs of one row after another
//! cannot give here.

use crate::SEED;
use std::time::Instant;

/// Untimed calls before each timed one, and untimed trials before the first counted one.
const WARM: usize = 3;

/// Times `trials` trials of `rows` rows: `run(row)` makes one call of a row, timed after `WARM`
/// untimed ones (the row's objects in cache as far as they fit). Each row's times, in seconds.
pub fn trials(rows: usize, trials: usize, mut run: impl FnMut(usize)) -> Vec<Vec<f64>> {
    let mut times = vec![Vec::with_capacity(trials); rows];
    let mut order: Vec<usize> = (0..rows).collect();
    let mut rng = fastrand::Rng::with_seed(SEED);
    for trial in 0..trials + WARM {
        rng.shuffle(&mut order);
        for &row in &order {
            for _ in 0..WARM {
                run(row);
            }
            let start = Instant::now();
            run(row);
            let took = start.elapsed().as_secs_f64();
            if trial >= WARM {
                times[row].push(took);
            }
        }
    }
    times
}

/// The `q`-th quartile of `v` (2: the median).
pub fn quartile(mut v: Vec<f64>, q: usize) -> f64 {
    v.sort_by(f64::total_cmp);
    v[(v.len() - 1) * q / 4]
}

/// The median time of a row, in microseconds.
pub fn micros(times: &[f64]) -> f64 {
    quartile(times.to_vec(), 2) * 1e6
}

/// The ratio of a row's times to its peer's, trial by trial: `median (first-third quartile)`.
pub fn ratio(times: &[f64], of: &[f64]) -> String {
    let r: Vec<f64> = times.iter().zip(of).map(|(a, b)| a / b).collect();
    format!(
        "{:.2} ({:.2}-{:.2})",
        quartile(r.clone(), 2),
        quartile(r.clone(), 1),
        quartile(r, 3)
    )
}
