//! What the loom models share: the object they pool and the model runner.

use pool_core::{Fail, PoolToken, Pooled};

/// `value` is set by `init` and reset on reuse; `resets` counts the slot's releases and is
/// never reset, so that a test can tell that each give-back reset the object exactly once.
pub(crate) struct Probe {
    pub(crate) value: u32,
    pub(crate) resets: u32,
    pub(crate) payload: Vec<u32>,
}

impl Pooled for Probe {
    const SIZE: usize = 2;
    type Strategy = Fail;

    fn blank(_: PoolToken<'_, Self>) -> Self {
        Probe {
            value: 0,
            resets: 0,
            payload: Vec::new(),
        }
    }

    fn reset_at_release(&mut self) {
        self.resets += 1;
        self.payload.clear();
    }

    fn reset_at_reuse(&mut self) {
        self.value = 0;
    }
}

impl Clone for Probe {
    fn clone(&self) -> Self {
        Probe {
            value: self.value,
            resets: self.resets,
            payload: self.payload.clone(),
        }
    }
}

/// Spawns a loom thread that runs `body` on a clone of `shared` (the pool's `Arc`), made here.
pub(crate) fn spawn_with<A, T>(
    shared: &A,
    body: impl FnOnce(A) -> T + Send + 'static,
) -> loom::thread::JoinHandle<T>
where
    A: Clone + Send + 'static,
    T: Send + 'static,
{
    let shared = shared.clone();
    loom::thread::spawn(move || body(shared))
}

/// Runs `test` under loom with a preemption bound, so the whole suite stays within minutes.
pub(crate) fn model(bound: usize, test: impl Fn() + Sync + Send + 'static) {
    let mut builder = loom::model::Builder::new();
    builder.preemption_bound = Some(bound);
    builder.check(test);
}
