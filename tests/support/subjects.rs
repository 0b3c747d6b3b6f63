//! The pooled types under test, one per full-pool strategy, for `model.rs`.

use crate::object;

object!(Spark, [size = 8]);
object!(Boss, [size = 8, on_full = panic]);
object!(
    Voice,
    [size = 8, on_full = evict, evict_by = crate::model::rank]
);
object!(Enemy, [size = 4, on_full = grow, max = 24]);
