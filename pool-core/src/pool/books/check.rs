//! A full walk of a pool's books, for tests and fuzzers: every slot, occupancy bit, free-list
//! entry and count against the invariants the pool relies on.

use super::Books;
use crate::Pooled;
use crate::limits::RETIRED_VERSION;
use crate::slot::free_list::FreeStack;
use crate::slot::state;
use crate::slot::word;
use crate::storage::{Slots, Storage};
use alloc::collections::BTreeSet;
use alloc::format;
use alloc::string::String;

impl<T: Pooled, B: Storage> Books<T, B> {
    /// Walks every slot, occupancy bit, free-list entry and count, and says what disagrees
    /// with what: a live slot without its bit, a free-list entry that is live, lent, retired,
    /// out of range, twice on the list or whose word does not hold its index, a slot neither live, free, lent nor retired, counts
    /// that do not add up. O(capacity), and it allocates.
    pub(crate) fn check(&self) -> Result<(), String> {
        let retired_at = self.slots.retired_at();
        if retired_at % 2 == 1 {
            return Err(format!(
                "odd retired version {retired_at}: the offset is odd"
            ));
        }
        let offset = retired_at.wrapping_sub(RETIRED_VERSION);
        self.slots.check_layout().map_err(String::from)?;
        let (mut built, mut live, mut lent, mut retired) = (0usize, 0usize, 0usize, 0usize);
        for part in self.slots.chunks() {
            for (local, &word) in part.words.iter().enumerate() {
                if state::version(word).wrapping_sub(offset) > RETIRED_VERSION {
                    return Err(format!(
                        "slot {}: a version past retirement",
                        part.base + local
                    ));
                }
                if state::is_live(word) && word::low(word) as usize != part.base + local {
                    return Err(format!(
                        "slot {}: a live word that is not its handle",
                        part.base + local
                    ));
                }
                live += usize::from(state::is_live(word));
                lent += usize::from(state::is_lent(word));
                retired += usize::from(state::version(word) == retired_at);
                built += 1;
            }
        }
        if built != self.slots.built() {
            return Err(format!(
                "{built} slots in the chunks, {} counted built",
                self.slots.built()
            ));
        }
        let mut on_list = BTreeSet::new();
        for &index in self.free.entries() {
            let word = (self.slots.word(index as usize))
                .ok_or_else(|| format!("free-list entry {index} past the pool's slots"))?;
            if state::is_live(word) || state::is_lent(word) || state::version(word) == retired_at {
                return Err(format!("free-list entry {index} live, lent or retired"));
            }
            if word::low(word) != index {
                return Err(format!(
                    "free-list entry {index}: a word that does not hold its index"
                ));
            }
            if !on_list.insert(index) {
                return Err(format!("free-list entry {index} twice"));
            }
        }
        if live + lent + retired + on_list.len() != built {
            return Err(format!(
                "{built} slots: {live} live, {lent} lent, {retired} retired and {} free",
                on_list.len()
            ));
        }
        self.counts
            .check(live, lent, retired)
            .map_err(String::from)?;
        let stats = self.stats();
        if stats.live + stats.leased + stats.retired + stats.free != stats.capacity {
            return Err(format!("stats that do not add up: {stats:?}"));
        }
        Ok(())
    }
}
