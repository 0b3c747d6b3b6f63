//! A full walk of a pool's books, for tests and fuzzers: every slot, occupancy bit, free-list
//! entry and count against the invariants the pool relies on.

use crate::limits::RETIRED_VERSION;
use crate::slot::NIL;
use crate::slot::occupancy::BITS;
use crate::storage::{Slots, Storage};
use crate::{Pool, Pooled};
use alloc::collections::BTreeSet;
use alloc::format;
use alloc::string::String;

impl<T: Pooled, S, B: Storage> Pool<T, S, B> {
    /// Walks every slot, occupancy bit, free-list entry and count, and says what disagrees
    /// with what: a live slot without its bit, a free-list entry that is live, retired, out of
    /// range or twice on the list, a slot neither live, free, lent nor retired, counts that do
    /// not add up. For tests and fuzzers; O(capacity), and it allocates.
    ///
    /// # Errors
    /// The first inconsistency found, described.
    #[doc(hidden)]
    pub fn check_consistency(&self) -> Result<(), String> {
        let retired_at = self.storage.retired_at();
        if retired_at % 2 == 1 {
            return Err(format!(
                "odd retired version {retired_at}: the offset is odd"
            ));
        }
        let offset = retired_at.wrapping_sub(RETIRED_VERSION);
        self.storage.check_layout().map_err(String::from)?;
        let (mut built, mut live, mut retired) = (0usize, 0usize, 0usize);
        for part in self.storage.chunks() {
            if part.words.len() < part.slots.len().div_ceil(BITS) {
                return Err(format!(
                    "chunk at {}: fewer bit words than slots",
                    part.base
                ));
            }
            for (local, slot) in part.slots.iter().enumerate() {
                let index = part.base + local;
                let bit = part.words[local / BITS].get() >> (local % BITS) & 1 == 1;
                if slot.is_live() != bit {
                    return Err(format!(
                        "slot {index}: version {} (live {}) but occupancy bit {bit}",
                        slot.version(),
                        slot.is_live()
                    ));
                }
                if slot.version().wrapping_sub(offset) > RETIRED_VERSION {
                    return Err(format!("slot {index}: a live version past retirement"));
                }
                live += usize::from(slot.is_live());
                retired += usize::from(slot.version() == retired_at);
                built += 1;
            }
            for local in part.slots.len()..part.words.len() * BITS {
                if part.words[local / BITS].get() >> (local % BITS) & 1 == 1 {
                    return Err(format!(
                        "chunk at {}: bit {local} set past its slots",
                        part.base
                    ));
                }
            }
        }
        let mut on_list = BTreeSet::new();
        let mut index = self.free.head();
        while index != NIL {
            let slot = (self.storage.slot(index as usize))
                .ok_or_else(|| format!("free-list entry {index} past the pool's slots"))?;
            if slot.is_live() || slot.version() == retired_at {
                return Err(format!("free-list entry {index} live or retired"));
            }
            if !on_list.insert(index) {
                return Err(format!("free-list entry {index} twice (a cycle)"));
            }
            index = slot.next_free();
        }
        let lent = built - live - retired - on_list.len();
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
