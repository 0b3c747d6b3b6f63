//! A slot's books: its word (version and link, [`state`]), its occupancy bit ([`occupancy`]),
//! the free list threaded through the words ([`free_list`]), and the handles that name its
//! objects ([`handle`]).

pub(crate) mod free_list;
pub(crate) mod handle;
pub(crate) mod occupancy;
pub(crate) mod offset;
pub(crate) mod state;
pub(crate) mod walk;
pub(crate) mod word;

/// The end of the free list.
pub(crate) const NIL: u32 = u32::MAX;

/// The low half of a lent slot's word: no index (indices end below it), and not `NIL`, so a
/// slot's word says whether it is lent.
#[expect(
    clippy::cast_possible_truncation,
    reason = "INDEX_END is below u32::MAX"
)]
pub(crate) const LENT: u32 = crate::limits::INDEX_END as u32;
