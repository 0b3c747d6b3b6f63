#[derive(Pooled)]
#[pool(size = 16, on_full = panic)]
enum Task<T> {
    #[pool(blank)]
    Idle,
    Running { work: T, progress: u32 },
    Done(Vec<T>),
}
