//! A `PoolToken` lives only for the call to `blank` it is given to: it cannot be kept to build objects later.

use pooling::{PoolToken, Pooled};
use std::cell::RefCell;

thread_local! {
    static KEPT: RefCell<Option<PoolToken<'static, Ghost>>> = const { RefCell::new(None) };
}

struct Ghost;

impl Pooled for Ghost {
    const SIZE: usize = 1;
    type Strategy = pooling::Fail;

    fn blank(token: PoolToken<'_, Self>) -> Self {
        KEPT.set(Some(token));
        Ghost
    }

    fn reset_at_release(&mut self) {}

    fn reset_at_reuse(&mut self) {}
}

fn main() {}
