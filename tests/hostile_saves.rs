//! Saves as untrusted input: each test edits a valid save (JSON) into one a pool could never
//! have written, and the load is a serde error saying what is wrong, never a panic nor a pool
//! whose books a safe call could not have reached.

use pooling::{Handle, Pooled};
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use std::sync::OnceLock;

#[derive(Pooled, Clone, Debug, PartialEq, Serialize, Deserialize)]
#[pool(size = 8)]
struct Enemy {
    health: i32,
}

#[derive(Pooled, Clone, Debug, PartialEq, Serialize, Deserialize)]
#[pool(size = 2, on_full = grow, max = 64)]
struct Spark {
    heat: u32,
}

#[derive(Pooled, Clone, Debug, PartialEq, Serialize, Deserialize)]
#[pool(size = 8, storage = inline)]
struct Packet {
    len: u16,
}

/// An enemy pool with live, released and never-used slots. Each save below is built once and
/// cloned for each edit: a pool built for each made a fifth of this file's time, more under Miri.
fn enemies() -> Value {
    static SAVE: OnceLock<Value> = OnceLock::new();
    SAVE.get_or_init(|| {
        let mut pool = EnemyPool::new();
        let handles: Vec<_> = (0..5)
            .map(|i| pool.create(|e| e.health = i).unwrap())
            .collect();
        pool.release(handles[1]).unwrap();
        pool.release(handles[3]).unwrap();
        serde_json::to_value(&pool).unwrap()
    })
    .clone()
}

/// A spark pool that grew twice, then gave its last chunk back: positions with chunks and
/// version floors.
fn sparks() -> Value {
    static SAVE: OnceLock<Value> = OnceLock::new();
    SAVE.get_or_init(|| {
        let mut pool = SparkPool::new();
        let handles: Vec<_> = (0..15)
            .map(|i| pool.create(|s| s.heat = i).unwrap())
            .collect();
        for &h in &handles[8..] {
            pool.release(h).unwrap();
        }
        pool.release(handles[5]).unwrap();
        assert_eq!(pool.shrink(), 8);
        pool.check_consistency().unwrap();
        serde_json::to_value(&pool).unwrap()
    })
    .clone()
}

/// An inline pool with two slots built, one live.
fn packets() -> Value {
    static SAVE: OnceLock<Value> = OnceLock::new();
    SAVE.get_or_init(|| {
        let mut pool = PacketPool::new();
        let a = pool.create(|p| p.len = 1).unwrap();
        pool.create(|p| p.len = 2).unwrap();
        pool.release(a).unwrap();
        serde_json::to_value(&pool).unwrap()
    })
    .clone()
}

/// Loads `save` edited by `edit` as a `P`, and asserts the error names `why`.
fn refused<P: for<'de> Deserialize<'de>>(save: &Value, edit: impl FnOnce(&mut Value), why: &str) {
    let mut bad = save.clone();
    edit(&mut bad);
    let text = bad.to_string();
    let Err(error) = serde_json::from_str::<P>(&text) else {
        panic!("loaded, though it should have been refused for {why:?}: {text}");
    };
    assert!(error.to_string().contains(why), "{why:?} not in {error}");
}

#[test]
fn the_saves_these_tests_edit_load_whole() {
    let pool: EnemyPool = serde_json::from_value(enemies()).unwrap();
    pool.check_consistency().unwrap();
    let mut pool: SparkPool = serde_json::from_value(sparks()).unwrap();
    pool.check_consistency().unwrap();
    for _ in 0..20 {
        pool.create(|_| {}).unwrap();
    }
    pool.check_consistency().unwrap();
    let pool: PacketPool = serde_json::from_value(packets()).unwrap();
    pool.check_consistency().unwrap();
}

/// The probe of issue 21: with an odd offset, slots built after the load start at odd versions,
/// which read as live while they are free: `get` returned `&T` of a free slot, and `acquire`
/// then `&mut T` to the same object.
#[test]
fn odd_offset_then_prefill_is_refused_at_load() {
    let mut pool = PacketPool::new();
    let h = pool.create(|p| p.len = 1).unwrap();
    pool.release(h).unwrap();
    let mut save = serde_json::to_value(&pool).unwrap();
    save["offset"] = json!(1);
    let text = save.to_string();
    if let Ok(mut pool) = serde_json::from_str::<PacketPool>(&text) {
        pool.prefill();
        let free = Handle::from_bits(1 << 32 | 1).unwrap();
        assert!(pool.get(free).is_none(), "a free slot read as live");
        panic!("an odd offset loaded");
    }
    refused::<PacketPool>(&save, |_| {}, "an odd offset");
}

/// The same through growth: a growing pool of no slots, saved with an odd offset, grows its
/// first chunk at odd versions.
#[test]
fn odd_offset_then_growth_is_refused_at_load() {
    let pool = SparkPool::with_capacity(0);
    let mut save = serde_json::to_value(&pool).unwrap();
    save["offset"] = json!(1);
    if let Ok(mut pool) = serde_json::from_value::<SparkPool>(save.clone()) {
        let made = pool.create(|s| s.heat = 1).unwrap();
        let free = Handle::from_bits(1 << 32 | 1).unwrap();
        assert_ne!(made.index(), 1);
        assert!(pool.get(free).is_none(), "a free slot read as live");
        panic!("an odd offset loaded");
    }
    refused::<SparkPool>(&save, |_| {}, "an odd offset");
}

#[test]
fn odd_offset_on_a_heap_pool() {
    refused::<EnemyPool>(&enemies(), |s| s["offset"] = json!(7), "an odd offset");
    refused::<SparkPool>(
        &sparks(),
        |s| s["offset"] = json!(u32::MAX),
        "an odd offset",
    );
}

#[test]
fn odd_version_floor() {
    refused::<SparkPool>(&sparks(), |s| s["floors"][2] = json!(3), "a version floor");
}

#[test]
fn version_floor_at_or_past_the_retired_version() {
    for floor in [u32::MAX - 1, u32::MAX] {
        refused::<SparkPool>(
            &sparks(),
            |s| s["floors"][5] = json!(floor),
            "a version floor",
        );
    }
}

#[test]
fn grown_slot_below_its_floor() {
    // Position 0 holds a chunk whose slots were used once: a floor above their versions.
    refused::<SparkPool>(
        &sparks(),
        |s| s["floors"][0] = json!(100),
        "below its position",
    );
}

#[test]
fn live_slot_past_retirement() {
    refused::<EnemyPool>(
        &enemies(),
        |s| {
            s["versions"][0] = json!(u32::MAX);
        },
        "past the version at which a slot retires",
    );
}

#[test]
fn grown_chunk_at_position_64_or_past() {
    for k in [32u32, 63, 64, 200, u32::MAX] {
        refused::<SparkPool>(
            &sparks(),
            |s| s["grown"][0][0] = json!(k),
            "past the last position",
        );
    }
}

#[test]
fn grown_chunks_out_of_order_or_at_one_position() {
    refused::<SparkPool>(&sparks(), |s| s["grown"][1][0] = json!(0), "position order");
    refused::<SparkPool>(
        &sparks(),
        |s| s["grown"] = json!([[1, 4], [0, 2]]),
        "position order",
    );
}

#[test]
fn grown_chunk_longer_than_its_position_or_empty() {
    refused::<SparkPool>(&sparks(), |s| s["grown"][0][1] = json!(3), "or longer");
    refused::<SparkPool>(&sparks(), |s| s["grown"][0][1] = json!(0), "or longer");
}

#[test]
fn positions_without_their_table() {
    refused::<SparkPool>(
        &sparks(),
        |s| s["floors"] = json!([]),
        "without the positions",
    );
    refused::<SparkPool>(
        &sparks(),
        |s| s["floors"] = json!([0, 0]),
        "table of positions",
    );
}

#[test]
fn created_that_would_overflow() {
    // Live objects still add up: created less released is the live count.
    refused::<EnemyPool>(
        &enemies(),
        |s| {
            s["created"] = json!(u64::MAX);
            s["released"] = json!(u64::MAX - 3);
        },
        "a count past what a pool reaches",
    );
    refused::<EnemyPool>(
        &enemies(),
        |s| s["failed"] = json!(u64::MAX),
        "a count past",
    );
    refused::<EnemyPool>(
        &enemies(),
        |s| s["evicted"] = json!(1u64 << 63),
        "a count past",
    );
}

#[test]
fn counts_that_disagree_with_the_slots() {
    refused::<EnemyPool>(
        &enemies(),
        |s| s["created"] = json!(4),
        "number of live objects",
    );
    refused::<EnemyPool>(
        &enemies(),
        |s| s["released"] = json!(9),
        "number of live objects",
    );
}

#[test]
fn high_water_above_the_capacity_of_a_pool_that_never_grew() {
    refused::<EnemyPool>(
        &enemies(),
        |s| {
            s["high_water"] = json!(9);
            s["created"] = json!(12);
            s["released"] = json!(9);
        },
        "above the most slots the pool has held",
    );
    refused::<PacketPool>(
        &packets(),
        |s| s["high_water"] = json!(3),
        "above the most slots",
    );
}

#[test]
fn high_water_above_the_objects_created() {
    refused::<EnemyPool>(
        &enemies(),
        |s| s["high_water"] = json!(6),
        "above the number of objects created",
    );
}

#[test]
fn high_water_below_the_live_objects() {
    refused::<EnemyPool>(
        &enemies(),
        |s| s["high_water"] = json!(2),
        "below the number of live",
    );
}

#[test]
fn free_list_with_a_repeat() {
    refused::<EnemyPool>(
        &enemies(),
        |s| {
            let free = s["free"].as_array_mut().unwrap();
            free[1] = free[0].clone();
        },
        "a slot twice on the free list",
    );
}

#[test]
fn free_list_with_an_index_out_of_range() {
    for index in [8u32, 1000, u32::MAX - 1, u32::MAX] {
        refused::<EnemyPool>(
            &enemies(),
            |s| s["free"][0] = json!(index),
            "past the pool's slots",
        );
    }
}

#[test]
fn free_list_missing_a_free_slot() {
    refused::<EnemyPool>(
        &enemies(),
        |s| {
            s["free"].as_array_mut().unwrap().pop();
        },
        "neither live, retired nor free",
    );
}

#[test]
fn free_list_with_a_live_or_retired_slot() {
    refused::<EnemyPool>(
        &enemies(),
        |s| s["free"].as_array_mut().unwrap().push(json!(0)),
        "a live or retired slot on the free list",
    );
    refused::<EnemyPool>(
        &enemies(),
        |s| s["versions"][7] = json!(u32::MAX - 1),
        "a live or retired slot on the free list",
    );
}

#[test]
fn huge_lengths_refused_before_anything_is_built() {
    refused::<EnemyPool>(
        &enemies(),
        |s| s["first"] = json!(u32::MAX),
        "larger than a pool holds",
    );
    refused::<EnemyPool>(
        &enemies(),
        |s| s["first"] = json!(u32::MAX - 2),
        "fewer versions than slots",
    );
    refused::<SparkPool>(
        &sparks(),
        |s| s["grown"][1][1] = json!(1u32 << 31),
        "or longer",
    );
}

#[test]
fn objects_that_are_not_the_live_slots() {
    refused::<EnemyPool>(
        &enemies(),
        |s| {
            s["objects"]
                .as_array_mut()
                .unwrap()
                .push(json!({"health": 1}));
        },
        "more objects than live slots",
    );
    refused::<EnemyPool>(
        &enemies(),
        |s| s["versions"][7] = json!(1),
        "fewer objects than live slots",
    );
}

#[test]
fn versions_that_are_not_the_slots() {
    refused::<EnemyPool>(
        &enemies(),
        |s| s["versions"].as_array_mut().unwrap().push(json!(0)),
        "more versions than slots",
    );
    refused::<SparkPool>(
        &sparks(),
        |s| {
            s["versions"].as_array_mut().unwrap().pop();
        },
        "fewer versions than slots",
    );
}

#[test]
fn grown_chunks_in_an_inline_pool() {
    refused::<PacketPool>(
        &packets(),
        |s| s["grown"] = json!([[0, 2]]),
        "an inline pool",
    );
    refused::<PacketPool>(&packets(), |s| s["floors"] = json!([0]), "an inline pool");
}

#[test]
fn more_slots_than_an_inline_pool_holds() {
    refused::<PacketPool>(
        &packets(),
        |s| s["first"] = json!(9),
        "more slots than the inline pool holds",
    );
}

/// A pooled type that takes no room, so that its objects take no input in a format that does not
/// describe itself.
#[derive(Pooled, Debug, Serialize, Deserialize)]
#[pool(size = 4)]
struct Marker {
    nothing: (),
}

/// Finding 7 of the thread-safety issue: a postcard save whose objects' count claims `u64::MAX`
/// zero-sized objects. Each takes no input, so the load went on for as long as the count (a
/// debug build never finished); it now stops at the save's live slots, one here.
#[test]
fn a_save_claiming_endless_zero_sized_objects_is_refused_at_once() {
    let mut pool = MarkerPool::new();
    pool.create(|_| {}).unwrap();
    let mut save = postcard::to_allocvec(&pool).unwrap();
    assert_eq!(save.pop(), Some(1), "the objects' count ends the save");
    save.extend([0xff; 9]);
    save.push(0x01);
    assert!(save.len() < 40, "{} bytes", save.len());
    assert!(postcard::from_bytes::<MarkerPool>(&save).is_err());
    // The same save with the count it had loads.
    let whole = postcard::to_allocvec(&pool).unwrap();
    let loaded: MarkerPool = postcard::from_bytes(&whole).unwrap();
    assert_eq!(loaded.len(), 1);
}

/// A save's lengths are claims: a load makes room ahead of its input for at most a few KiB of
/// each sequence, so that it allocates no more than a small multiple of the input it reads.
#[test]
fn a_load_allocates_a_small_multiple_of_its_input() {
    // Offset, first chunk, no grown chunks nor floors, then sequences claiming 2³² − 1 elements
    // (a varint of five bytes) and holding three.
    let huge = [0xff, 0xff, 0xff, 0xff, 0x0f];
    let prefix = [0u8, 8, 0, 0];
    let saves: [Vec<u8>; 3] = [
        // The versions.
        [&prefix[..], &huge, &[0, 0, 0]].concat(),
        // The free list, after eight versions.
        [&prefix[..], &[8, 0, 0, 0, 0, 0, 0, 0, 0], &huge, &[0, 1, 2]].concat(),
        // The grown chunks.
        [&[0u8, 8][..], &huge, &[0, 1, 2]].concat(),
    ];
    for save in saves {
        let info = allocation_counter::measure(|| {
            assert!(postcard::from_bytes::<EnemyPool>(&save).is_err());
        });
        assert!(
            info.bytes_max < 16 * 1024,
            "{} bytes at most for {} bytes of input",
            info.bytes_max,
            save.len()
        );
    }
}

// ---------------------------------------------------------------------------------------------
// Column pools' saves (issue 38, item 4): the books first, then each row loaded into its live
// slot, no more rows than the books declare live.

/// 8 KiB in memory, a number in a save: a field a load expands, as a tile map from its seed.
struct Page(Vec<u8>);

impl pooling::Reset for Page {
    fn reset(&mut self) {
        self.0.clear();
    }

    fn blank() -> Self {
        Page(Vec::new())
    }
}

impl Serialize for Page {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_u16(self.0.first().map_or(0, |&b| u16::from(b) + 256))
    }
}

impl<'de> Deserialize<'de> for Page {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let seed = u16::deserialize(deserializer)?;
        Ok(Page(vec![seed.to_le_bytes()[0]; 8192]))
    }
}

#[derive(Pooled)]
#[pool(size = 4, layout = columns)]
struct Chapter {
    page: Page,
}

/// Fields that take no room, so that rows take no input in a format that does not describe
/// itself.
#[derive(Pooled)]
#[pool(size = 4, layout = columns)]
struct Tick {
    nothing: (),
}

/// Bytes a load may hold at most for `input` bytes of save: a small multiple, and room for the
/// few rows of 8 KiB it reads before it refuses.
fn column_load_bound(input: usize) -> u64 {
    (4 * input + 64 * 1024) as u64
}

/// The probe of issue 38: 80 KB of postcard, one live slot and 40,000 rows of an 8 KiB field,
/// held 763 MiB before the load compared the rows with the live slots. Now the second row is
/// refused as it is read.
#[test]
fn a_column_save_with_more_rows_than_live_slots_is_refused_within_its_input() {
    let mut pool = ChapterPool::new();
    pool.create(|c| c.page.0.push(7)).unwrap();
    let whole = postcard::to_allocvec(&pool).unwrap();
    // The row count (one) and the row (263, two bytes) end the save.
    let books = &whole[..whole.len() - 3];
    assert_eq!(&whole[books.len()..], [1, 0x87, 0x02]);
    // Under Miri, 600 rows: still 5 MB of pages against a bound of 70 KB.
    let rows: u32 = if cfg!(miri) { 600 } else { 40_000 };
    // The count as postcard writes a length: a varint, seven bits a byte, the lowest first.
    let mut save = [books, &postcard::to_allocvec(&rows).unwrap()].concat();
    for _ in 0..rows {
        save.extend([0x87, 0x02]);
    }
    assert!(save.len() > 2 * rows as usize, "{} bytes", save.len());
    let info = allocation_counter::measure(|| {
        let error = postcard::from_bytes::<ChapterPool>(&save).err().unwrap();
        assert_eq!(error, postcard::Error::SerdeDeCustom);
    });
    assert!(
        info.bytes_max < column_load_bound(save.len()),
        "{} bytes at most for {} bytes of input",
        info.bytes_max,
        save.len()
    );
    let loaded: ChapterPool = postcard::from_bytes(&whole).unwrap();
    assert_eq!(loaded.values().map(|c| c.page.0.len()).sum::<usize>(), 8192);
}

/// The same in JSON with the rows first (360 KB held 769 MiB): rows are read only once the
/// books have said how many there are.
#[test]
fn a_column_save_with_its_rows_before_its_books_is_refused_within_its_input() {
    let mut pool = ChapterPool::new();
    pool.create(|c| c.page.0.push(7)).unwrap();
    let books = serde_json::to_value(&pool).unwrap()["books"].to_string();
    let count = if cfg!(miri) { 600 } else { 60_000 };
    let rows = vec!["[263]"; count].join(",");
    let save = format!(r#"{{"rows":[{rows}],"books":{books}}}"#);
    assert!(save.len() > 6 * count, "{} bytes", save.len());
    let info = allocation_counter::measure(|| {
        let error = serde_json::from_str::<ChapterPool>(&save).err().unwrap();
        assert!(error.to_string().contains("before the books"), "{error}");
    });
    assert!(
        info.bytes_max < column_load_bound(save.len()),
        "{} bytes at most for {} bytes of input",
        info.bytes_max,
        save.len()
    );
    // In the order the pool writes them, the same books and one row load.
    let save = format!(r#"{{"books":{books},"rows":[[263]]}}"#);
    let loaded: ChapterPool = serde_json::from_str(&save).unwrap();
    assert_eq!(loaded.len(), 1);
    loaded.check_consistency().unwrap();
}

/// A postcard save claiming `u64::MAX` rows of fields that take no input: a debug build never
/// returned; the load stops at the live slots' count, here none.
#[test]
fn a_column_save_claiming_endless_zero_sized_rows_is_refused_at_once() {
    let pool = TickPool::new();
    let mut save = postcard::to_allocvec(&pool).unwrap();
    assert_eq!(save.pop(), Some(0), "the rows' count ends the save");
    save.extend([0xff; 9]);
    save.push(0x01);
    let info = allocation_counter::measure(|| {
        assert!(postcard::from_bytes::<TickPool>(&save).is_err());
    });
    assert!(info.bytes_max < column_load_bound(save.len()));
    let loaded: TickPool = postcard::from_bytes(&postcard::to_allocvec(&pool).unwrap()).unwrap();
    assert_eq!(loaded.len(), 0);
}
