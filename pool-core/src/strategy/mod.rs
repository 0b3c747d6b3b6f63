//! What a full pool does: the strategy markers of [`Pool<T, S>`](crate::Pool), each with the
//! methods that differ by strategy.

pub(crate) mod evict;
mod fail;
pub(crate) mod grow;
mod panic;

pub use evict::Evict;
pub use fail::Fail;
pub use grow::Grow;
pub use panic::Panic;
