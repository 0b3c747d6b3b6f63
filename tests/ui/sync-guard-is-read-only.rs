//! A sync pool's `get` returns a read-only guard: another thread may be reading the object too.

use pooling::Pooled;

#[derive(Pooled)]
#[pool(size = 64, sync)]
struct Job {
    id: u64,
}

fn main() {
    let jobs = JobPool::new();
    let job = jobs.create(|_| {}).unwrap();
    jobs.get(job).unwrap().id = 7;
}
