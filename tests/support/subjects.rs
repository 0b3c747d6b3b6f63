//! The pools under test, one per full-pool strategy, for `model.rs`.

use crate::model::{self, Created};
use crate::subject;
use std::panic::{AssertUnwindSafe, catch_unwind};

subject!(Spark, SparkPool, [size = 8],
    create: |pool, id, held| match pool.create(|o| model::Object::fill(o, id, held)) {
        Ok(handle) => Created::Live(handle),
        Err(_) => Created::Full,
    },
    victim: |_| None,
    shrink: |_| 0);

subject!(Boss, BossPool, [size = 8, on_full = panic],
    create: |pool, id, held| {
        let full = pool.is_full();
        match catch_unwind(AssertUnwindSafe(|| pool.create(|o| model::Object::fill(o, id, held)))) {
            Ok(handle) => Created::Live(handle),
            Err(_) if full => Created::Panicked,
            Err(panic) => std::panic::resume_unwind(panic),
        }
    },
    victim: |_| None,
    shrink: |_| 0);

subject!(Voice, VoicePool, [size = 8, on_full = evict, evict_by = crate::model::rank],
    create: |pool, id, held| Created::Live(pool.create(|o| model::Object::fill(o, id, held))),
    victim: |pool| pool.victim(),
    shrink: |_| 0);

subject!(Enemy, EnemyPool, [size = 4, on_full = grow, max = 24],
    create: |pool, id, held| match pool.create(|o| model::Object::fill(o, id, held)) {
        Ok(handle) => Created::Live(handle),
        Err(_) => Created::Full,
    },
    victim: |_| None,
    shrink: |pool| pool.shrink());
