#[derive(Pooled)]
#[pool(size = 64, sync)]
struct Job {
    id: u64,
    payload: Vec<u8>,
}
