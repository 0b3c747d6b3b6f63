//! What a pool saves and loads (the `serde` feature): enough to rebuild it slot for slot, and
//! a load that refuses, never panics on, never hangs on and never over-allocates for a save
//! that does not describe a pool.

use super::counts::Counts;
use super::{Books, Free};
use crate::Pooled;
use crate::limits::{INDEX_END, RETIRED_VERSION};
use crate::pooled::blank;
use crate::slot::free_list::FreeStack;
use crate::slot::state;
use crate::storage::heap::chunk::Chunk;
use crate::storage::heap::geometry::Geometry;
use crate::storage::heap::grown::Grown;
use crate::storage::{Heap, HeapSlots, Inline, InlineSlots, Slots, Storage};
use alloc::vec::Vec;
use core::fmt;
use core::marker::PhantomData;
use serde::de::{self, DeserializeSeed, MapAccess, SeqAccess, Visitor};
use serde::ser::{SerializeSeq, SerializeStruct};
use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// The fields of a save, in the order they are written: the books first, the objects last, so
/// that a load knows how many objects to take before it meets them.
const FIELDS: &[&str] = &[
    "offset",
    "first",
    "grown",
    "floors",
    "versions",
    "free",
    "created",
    "released",
    "failed",
    "evicted",
    "high_water",
    "objects",
];

/// The books of a save: everything but the objects.
#[derive(Default)]
pub(crate) struct Saved {
    /// Where the versions count from.
    offset: u32,
    /// Slots in the first chunk (an inline pool's built slots).
    first: u32,
    /// The grown chunks: position and length.
    grown: Vec<(u32, u32)>,
    /// The version floors of the positions; empty when the pool never grew.
    floors: Vec<u32>,
    /// Every slot's version, counted from `offset`, in index order.
    versions: Vec<u32>,
    /// The free slots, in the order `create` takes them; retired slots are left out.
    free: Vec<u32>,
    /// Created, released (not counting evictions), failed, evicted.
    counts: [u64; 4],
    high_water: u64,
}

/// How a pool's storage is laid out, as a save records it.
pub(crate) struct Layout {
    pub(crate) first: usize,
    pub(crate) grown: Vec<(u32, u32)>,
    pub(crate) floors: Vec<u32>,
}

#[expect(
    clippy::cast_possible_truncation,
    reason = "indices and lengths end below NIL"
)]
fn to_u32(n: usize) -> u32 {
    n as u32
}

impl<T: Pooled> Books<T, Heap> {
    /// The layout of a heap pool.
    pub(crate) fn layout(&self) -> Layout {
        let (grown, floors) = self.slots.grown().parts();
        Layout {
            first: self.slots.first().len(),
            grown: grown
                .map(|(k, chunk)| (to_u32(k), to_u32(chunk.len())))
                .collect(),
            floors: floors.collect(),
        }
    }
}

impl<T: Pooled, const N: usize, const W: usize> Books<T, Inline<N, W>> {
    /// The layout of an inline pool: its built slots, as a first chunk.
    pub(crate) fn layout(&self) -> Layout {
        Layout {
            first: self.slots.built(),
            grown: Vec::new(),
            floors: Vec::new(),
        }
    }
}

/// The live objects of a pool, in index order, serialized as a sequence of known length
/// without collecting them.
struct Objects<'a, T, B: Storage>(&'a Books<T, B>);

impl<T: Pooled + Serialize, B: Storage> Serialize for Objects<'_, T, B> {
    fn serialize<Z: Serializer>(&self, serializer: Z) -> Result<Z::Ok, Z::Error> {
        let mut seq = serializer.serialize_seq(Some(self.0.len()))?;
        for part in self.0.chunks() {
            for (object, &word) in part.objects.iter().zip(part.words) {
                if state::is_live(word) {
                    seq.serialize_element(object)?;
                }
            }
        }
        seq.end()
    }
}

impl<T: Pooled + Serialize, B: Storage> Books<T, B> {
    /// Saves the pool laid out as `layout` says. Lent slots (of forgotten leases) are free in
    /// the save, after the others, and counted as given back.
    pub(crate) fn save<Z: Serializer>(
        &self,
        layout: &Layout,
        serializer: Z,
    ) -> Result<Z::Ok, Z::Error> {
        let offset = self.slots.offset();
        let versions: Vec<u32> = (self.chunks())
            .flat_map(|part| part.words.iter())
            .map(|&word| state::version(word).wrapping_sub(offset))
            .collect();
        let mut free: Vec<u32> = self.free.entries().iter().rev().copied().collect();
        // By slot index, not by position among the words: after a `shrink`, indices have holes.
        free.extend(self.chunks().flat_map(|part| {
            (part.words.iter().enumerate())
                .filter(|&(_, &word)| state::is_lent(word))
                .map(move |(local, _)| to_u32(part.base + local))
        }));
        let counts = &self.counts;
        let given_back = counts.created() - counts.live() as u64 - counts.evicted();
        let mut save = serializer.serialize_struct("Pool", FIELDS.len())?;
        save.serialize_field("offset", &offset)?;
        save.serialize_field("first", &to_u32(layout.first))?;
        save.serialize_field("grown", &layout.grown)?;
        save.serialize_field("floors", &layout.floors)?;
        save.serialize_field("versions", &versions)?;
        save.serialize_field("free", &free)?;
        save.serialize_field("created", &counts.created())?;
        save.serialize_field("released", &given_back)?;
        save.serialize_field("failed", &counts.failed())?;
        save.serialize_field("evicted", &counts.evicted())?;
        save.serialize_field("high_water", &(counts.high_water() as u64))?;
        save.serialize_field("objects", &Objects(self))?;
        save.end()
    }
}

/// Reads a save: its books, then as many objects as its versions have live slots, refusing more
/// as soon as it sees one (in a format that does not describe itself, a save of zero-sized
/// objects may claim any number of them: each takes no input).
pub(crate) fn load<'de, T: Deserialize<'de>, D: Deserializer<'de>>(
    deserializer: D,
) -> Result<(Saved, Vec<T>), D::Error> {
    deserializer.deserialize_struct("Pool", FIELDS, SaveVisitor(PhantomData))
}

struct SaveVisitor<T>(PhantomData<fn() -> T>);

impl<'de, T: Deserialize<'de>> Visitor<'de> for SaveVisitor<T> {
    type Value = (Saved, Vec<T>);

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a saved pool")
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
        let mut saved = Saved::default();
        let missing = |k: usize| de::Error::invalid_length(k, &self);
        saved.offset = seq.next_element()?.ok_or_else(|| missing(0))?;
        saved.first = seq.next_element()?.ok_or_else(|| missing(1))?;
        saved.grown = seq
            .next_element_seed(Sequence::unbounded())?
            .ok_or_else(|| missing(2))?;
        saved.floors = seq
            .next_element_seed(Sequence::unbounded())?
            .ok_or_else(|| missing(3))?;
        saved.versions = seq
            .next_element_seed(Sequence::unbounded())?
            .ok_or_else(|| missing(4))?;
        saved.free = seq
            .next_element_seed(Sequence::unbounded())?
            .ok_or_else(|| missing(5))?;
        for (k, count) in saved.counts.iter_mut().enumerate() {
            *count = seq.next_element()?.ok_or_else(|| missing(6 + k))?;
        }
        saved.high_water = seq.next_element()?.ok_or_else(|| missing(10))?;
        let seed = Sequence::objects(&saved.versions);
        let objects = seq.next_element_seed(seed)?.ok_or_else(|| missing(11))?;
        Ok((saved, objects))
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
        let mut saved = Saved::default();
        let mut seen = [false; 12];
        let mut objects = None;
        let field = FieldOf {
            names: FIELDS,
            what: "a field of a saved pool",
        };
        while let Some(k) = map.next_key_seed(field)? {
            if core::mem::replace(&mut seen[k], true) {
                return Err(de::Error::duplicate_field(FIELDS[k]));
            }
            match k {
                0 => saved.offset = map.next_value()?,
                1 => saved.first = map.next_value()?,
                2 => saved.grown = map.next_value_seed(Sequence::unbounded())?,
                3 => saved.floors = map.next_value_seed(Sequence::unbounded())?,
                4 => saved.versions = map.next_value_seed(Sequence::unbounded())?,
                5 => saved.free = map.next_value_seed(Sequence::unbounded())?,
                6..=9 => saved.counts[k - 6] = map.next_value()?,
                10 => saved.high_water = map.next_value()?,
                _ => {
                    // Before its versions (a format that sorts its keys), the objects are
                    // bounded by the input only: a format that names its fields takes input
                    // for each value.
                    let bound = if seen[4] {
                        Sequence::objects(&saved.versions)
                    } else {
                        Sequence::unbounded()
                    };
                    objects = Some(map.next_value_seed(bound)?);
                }
            }
        }
        if let Some(k) = seen.iter().position(|&seen| !seen) {
            return Err(de::Error::missing_field(FIELDS[k]));
        }
        Ok((saved, objects.unwrap_or_default()))
    }
}

/// Reads a key of a saved struct: the field's index in `names`, by name or by index. `what`
/// says, in errors, whose field was expected. Column saves read theirs with it too.
#[derive(Clone, Copy)]
pub(crate) struct FieldOf {
    pub(crate) names: &'static [&'static str],
    pub(crate) what: &'static str,
}

impl<'de> DeserializeSeed<'de> for FieldOf {
    type Value = usize;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<usize, D::Error> {
        deserializer.deserialize_identifier(self)
    }
}

impl Visitor<'_> for FieldOf {
    type Value = usize;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.what)
    }

    fn visit_u64<E: de::Error>(self, k: u64) -> Result<usize, E> {
        usize::try_from(k)
            .ok()
            .filter(|&k| k < self.names.len())
            .ok_or_else(|| E::invalid_value(de::Unexpected::Unsigned(k), &self))
    }

    fn visit_str<E: de::Error>(self, name: &str) -> Result<usize, E> {
        (self.names.iter().position(|field| *field == name))
            .ok_or_else(|| E::unknown_field(name, self.names))
    }

    fn visit_bytes<E: de::Error>(self, name: &[u8]) -> Result<usize, E> {
        match core::str::from_utf8(name) {
            Ok(name) => self.visit_str(name),
            Err(_) => Err(E::invalid_value(de::Unexpected::Bytes(name), &self)),
        }
    }
}

/// Room for at most this many bytes of a sequence is made before its elements arrive: a save
/// claims lengths it may not have, and a load allocates no more than a small multiple of the
/// input it reads.
const AHEAD: usize = 4096;

/// The room to make for a sequence of `T`s whose format says it holds `claimed`.
fn room<T>(claimed: Option<usize>) -> usize {
    claimed.unwrap_or(0).min(AHEAD / size_of::<T>().max(1))
}

/// A sequence of a save, read into a `Vec` that grows as its elements arrive: a sequence of
/// the books (`unbounded`), or the objects, at most as many as its versions have live slots.
struct Sequence<T> {
    most: usize,
    elements: PhantomData<fn() -> T>,
}

impl<T> Sequence<T> {
    fn objects(versions: &[u32]) -> Self {
        Self {
            most: versions.iter().filter(|&&v| v % 2 == 1).count(),
            elements: PhantomData,
        }
    }

    fn unbounded() -> Self {
        Self {
            most: usize::MAX,
            elements: PhantomData,
        }
    }
}

impl<'de, T: Deserialize<'de>> DeserializeSeed<'de> for Sequence<T> {
    type Value = Vec<T>;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Vec<T>, D::Error> {
        deserializer.deserialize_seq(self)
    }
}

impl<'de, T: Deserialize<'de>> Visitor<'de> for Sequence<T> {
    type Value = Vec<T>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.most {
            usize::MAX => f.write_str("a sequence"),
            most => write!(f, "at most {most} objects, one per live slot"),
        }
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Vec<T>, A::Error> {
        let claimed = seq.size_hint().map(|claimed| claimed.min(self.most));
        let mut elements = Vec::with_capacity(room::<T>(claimed));
        while let Some(element) = seq.next_element()? {
            if elements.len() == self.most {
                return Err(de::Error::custom("more objects than live slots"));
            }
            elements.push(element);
        }
        Ok(elements)
    }
}

/// The slot at `index` saved at `version`, counted from `offset`: its saved object if it was
/// live, or a blank one; with its word, which holds its index, live or free. The caller has
/// checked the versions (see [`check_versions`]).
fn saved_slot<T: Pooled>(
    index: usize,
    offset: u32,
    version: u32,
    objects: &mut impl Iterator<Item = T>,
) -> Result<(T, u64), &'static str> {
    let version = version.wrapping_add(offset);
    if version % 2 == 1 {
        let object = objects.next().ok_or("fewer objects than live slots")?;
        Ok((object, state::live_word(version, index)))
    } else {
        Ok((blank::<T>(), state::free_word(version, index)))
    }
}

/// Checks what the slots of a save need before any is built: an even offset (a version's
/// parity says whether its slot is live), as many versions as slots, as many objects as live
/// slots, and no live slot past retirement (its next version would come round to its first).
fn check_versions(
    offset: u32,
    slots: usize,
    versions: &[u32],
    objects: usize,
) -> Result<(), &'static str> {
    if offset % 2 == 1 {
        return Err("an odd offset: versions count from an even one");
    }
    if versions.len() < slots {
        return Err("fewer versions than slots");
    }
    if versions.len() > slots {
        return Err("more versions than slots");
    }
    if versions.iter().any(|&v| v > RETIRED_VERSION) {
        return Err("a live slot past the version at which a slot retires");
    }
    let live = versions.iter().filter(|&&v| v % 2 == 1).count();
    if objects < live {
        return Err("fewer objects than live slots");
    }
    if objects > live {
        return Err("more objects than live slots");
    }
    Ok(())
}

impl Saved {
    /// A heap pool's books.
    pub(crate) fn restore_heap<T: Pooled>(
        self,
        objects: Vec<T>,
    ) -> Result<Books<T, Heap>, &'static str> {
        let first = self.first as usize;
        if first > crate::limits::MAX_CAPACITY {
            return Err("a first chunk larger than a pool holds");
        }
        if self.floors.is_empty() && !self.grown.is_empty() {
            return Err("grown chunks without the positions they were grown in");
        }
        let geometry = Geometry::new(first);
        if !self.floors.is_empty() && self.floors.len() != geometry.position_count() {
            return Err("a table of positions not of the length a pool of this size has");
        }
        if (self.floors.iter()).any(|&floor| floor % 2 == 1 || floor >= RETIRED_VERSION) {
            return Err("a version floor that is odd, or not below the retired version");
        }
        // Where each chunk's versions start in `versions`, checked before anything is built
        // from the lengths the save claims.
        let mut slots = first;
        let mut starts = Vec::with_capacity(self.grown.len());
        let mut last: Option<u32> = None;
        for &(k, len) in &self.grown {
            if last.is_some_and(|last| k <= last) {
                return Err("grown chunks out of position order, or two at one position");
            }
            last = Some(k);
            let floor =
                *(self.floors.get(k as usize)).ok_or("a grown chunk past the last position")?;
            let base = (geometry.position_base(k as usize))
                .ok_or("a grown chunk past the last position")?;
            if !geometry.fits(k as usize, base, len as usize) {
                return Err("a grown chunk not where its position puts it, or longer");
            }
            starts.push((slots, floor));
            slots = slots
                .checked_add(len as usize)
                .ok_or("more slots than a pool holds")?;
            if slots > self.versions.len() {
                return Err("fewer versions than slots");
            }
        }
        check_versions(self.offset, slots, &self.versions, objects.len())?;
        for (&(_, len), &(start, floor)) in self.grown.iter().zip(&starts) {
            let chunk = &self.versions[start..start + len as usize];
            if chunk.iter().any(|&v| v < floor) {
                return Err("a grown slot at a version below its position's floor");
            }
        }
        let high_water_cap = if self.floors.is_empty() {
            first
        } else {
            (0..self.floors.len())
                .map(|k| geometry.position_len(k))
                .fold(first, usize::saturating_add)
                .min(INDEX_END)
        };
        let offset = self.offset;
        let mut versions = self.versions.iter().copied();
        let mut objects = objects.into_iter();
        let mut chunk = |base: usize, len: usize| -> Result<Chunk<T>, &'static str> {
            let (objects, words): (Vec<T>, Vec<u64>) = (base..base + len)
                .zip(versions.by_ref())
                .map(|(index, version)| saved_slot(index, offset, version, &mut objects))
                .collect::<Result<Vec<(T, u64)>, &'static str>>()?
                .into_iter()
                .unzip();
            Ok(Chunk::from_parts(base, objects.into(), words.into()))
        };
        let first_chunk = chunk(0, first)?;
        let grown_chunks = (self.grown.iter())
            .map(|&(k, len)| {
                let base = (geometry.position_base(k as usize))
                    .ok_or("a grown chunk past the last position")?;
                Ok((k as usize, chunk(base, len as usize)?))
            })
            .collect::<Result<Vec<_>, &'static str>>()?;
        let grown = Grown::restore(first, grown_chunks, &self.floors)?;
        let storage = HeapSlots::from_parts(self.offset, first_chunk, grown);
        self.books(storage, high_water_cap)
    }

    /// An inline pool's books, if the save never grew and its slots fit in `N`.
    pub(crate) fn restore_inline<T: Pooled, const N: usize, const W: usize>(
        self,
        objects: Vec<T>,
    ) -> Result<Books<T, Inline<N, W>>, &'static str> {
        let first = self.first as usize;
        if first > N {
            return Err("more slots than the inline pool holds");
        }
        if !self.grown.is_empty() || !self.floors.is_empty() {
            return Err("grown chunks, which an inline pool does not have");
        }
        check_versions(self.offset, first, &self.versions, objects.len())?;
        let offset = self.offset;
        let mut objects = objects.into_iter();
        let slots = (self.versions.iter().enumerate())
            .map(|(index, &v)| saved_slot(index, offset, v, &mut objects));
        let storage = InlineSlots::from_slots(self.offset, slots)?;
        self.books(storage, first)
    }

    /// The free list and counts of the save, checked against `slots`, rebuilt from it.
    /// `high_water_cap` is the most slots the pool can have held at once.
    fn books<T: Pooled, B: Storage>(
        self,
        mut slots: B::Slots<T>,
        high_water_cap: usize,
    ) -> Result<Books<T, B>, &'static str> {
        let retired_at = slots.retired_at();
        let mut listed = self.free.clone();
        listed.sort_unstable();
        if listed.windows(2).any(|pair| pair[0] == pair[1]) {
            return Err("a slot twice on the free list");
        }
        let mut free = <Free<T, B>>::with_room(slots.capacity());
        for &index in self.free.iter().rev() {
            let place = (slots.slot_mut(index as usize))
                .ok_or("a free slot past the pool's slots")?
                .place;
            if place.is_live() || place.version() == retired_at {
                return Err("a live or retired slot on the free list");
            }
            free.push(index as usize);
        }
        let (mut live, mut retired, mut built) = (0, 0, 0);
        for part in slots.chunks() {
            for &word in part.words {
                live += usize::from(state::is_live(word));
                retired += usize::from(state::version(word) == retired_at);
                built += 1;
            }
        }
        if live + retired + self.free.len() != built {
            return Err("a slot neither live, retired nor free");
        }
        let high_water =
            usize::try_from(self.high_water).map_err(|_| "a high water mark past usize")?;
        if high_water > high_water_cap {
            return Err("a high water mark above the most slots the pool has held");
        }
        let counts = Counts::restore(self.counts, high_water, live, retired)?;
        Ok(Books::from_parts(slots, free, counts))
    }
}
