//! Saves of column pools (the `serde` feature): the books as a pool's save, and the live rows
//! in slot order, each a tuple of its fields.

use super::fields::ColumnFields;
use super::store::{ColumnStorage, ColumnStore};
use super::{ColumnPool, Columnar, Row};
use crate::Pool;
use crate::pool::books::save::FieldOf;
use core::fmt;
use core::marker::PhantomData;
use serde::de::{self, DeserializeSeed, MapAccess, SeqAccess, Visitor};
use serde::ser::{SerializeSeq, SerializeTuple};
use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// A slot of the books has no fields to save.
impl<P> Serialize for Row<P> {
    fn serialize<Z: Serializer>(&self, serializer: Z) -> Result<Z::Ok, Z::Error> {
        serializer.serialize_unit()
    }
}

impl<'de, P> Deserialize<'de> for Row<P> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        <()>::deserialize(deserializer)?;
        Ok(Row(PhantomData))
    }
}

/// Fields every one of which serde can save: a row is saved as a tuple of them.
pub trait SaveFields: ColumnFields {
    /// Saves each field of `row` as the tuple's next element.
    #[doc(hidden)]
    fn save<T: SerializeTuple>(row: Self::Ref<'_>, tuple: &mut T) -> Result<(), T::Error>;
}

/// Fields every one of which serde can load, owning what it loads.
pub trait LoadFields: ColumnFields {
    /// Loads each field from the tuple's next element; `read` is how many were read before.
    #[doc(hidden)]
    fn load<'de, A: SeqAccess<'de>>(seq: &mut A, read: usize) -> Result<Self, A::Error>;
}

impl SaveFields for () {
    fn save<T: SerializeTuple>((): (), _: &mut T) -> Result<(), T::Error> {
        Ok(())
    }
}

impl LoadFields for () {
    fn load<'de, A: SeqAccess<'de>>(_: &mut A, _: usize) -> Result<(), A::Error> {
        Ok(())
    }
}

impl<H: Serialize, T: SaveFields> SaveFields for (H, T) {
    fn save<Z: SerializeTuple>(
        (field, rest): Self::Ref<'_>,
        tuple: &mut Z,
    ) -> Result<(), Z::Error> {
        tuple.serialize_element(field)?;
        T::save(rest, tuple)
    }
}

impl<H: for<'de> Deserialize<'de>, T: LoadFields> LoadFields for (H, T) {
    fn load<'de, A: SeqAccess<'de>>(seq: &mut A, read: usize) -> Result<Self, A::Error> {
        let Some(field) = seq.next_element::<H>()? else {
            return Err(de::Error::invalid_length(read, &"a row with every field"));
        };
        Ok((field, T::load(seq, read + 1)?))
    }
}

/// A live row, saved as a tuple.
struct SavedRow<'a, F: ColumnFields, C: ColumnStore<F>> {
    columns: &'a C,
    index: usize,
    fields: PhantomData<fn() -> F>,
}

impl<F: SaveFields, C: ColumnStore<F>> Serialize for SavedRow<'_, F, C> {
    fn serialize<Z: Serializer>(&self, serializer: Z) -> Result<Z::Ok, Z::Error> {
        let mut tuple = serializer.serialize_tuple(F::LEN)?;
        let Some(row) = self.columns.row(self.index) else {
            return Err(serde::ser::Error::custom("a live slot past the columns"));
        };
        F::save(row, &mut tuple)?;
        tuple.end()
    }
}

/// The live rows of a pool, in slot order.
struct LiveRows<'a, P: Columnar, S, B: ColumnStorage>(&'a ColumnPool<P, S, B>);

impl<P: Columnar, S, B: ColumnStorage> Serialize for LiveRows<'_, P, S, B>
where
    P::Fields: SaveFields,
{
    fn serialize<Z: Serializer>(&self, serializer: Z) -> Result<Z::Ok, Z::Error> {
        let pool = self.0;
        let mut seq = serializer.serialize_seq(Some(pool.len()))?;
        for (handle, _) in &pool.keys {
            seq.serialize_element(&SavedRow {
                columns: &pool.columns,
                index: handle.index(),
                fields: PhantomData,
            })?;
        }
        seq.end()
    }
}

/// A column pool saves its books as a [`Pool`]'s save (every handle, version, free slot and
/// count) and its live rows in slot order, each a tuple of its fields.
///
/// ```
/// # use pooling::Pooled;
/// #[derive(Pooled)]
/// #[pool(size = 16, layout = columns)]
/// struct Enemy {
///     health: i32,
///     name: String,
/// }
///
/// let mut enemies = EnemyPool::new();
/// let orc = enemies.create(|e| (*e.health, *e.name) = (10, "orc".into()))?;
/// let dead = enemies.create(|_| {})?;
/// enemies.release(dead).unwrap();
///
/// let save = serde_json::to_string(&enemies).unwrap();
/// let loaded: EnemyPool = serde_json::from_str(&save).unwrap();
/// assert_eq!(*loaded.get(orc).unwrap().health, 10);
/// assert_eq!(loaded.get(orc).unwrap().name, "orc");
/// assert!(loaded.get(dead).is_none()); // stale before, stale after
/// assert_eq!(loaded.stats(), enemies.stats());
/// # Ok::<(), pooling::PoolFull>(())
/// ```
impl<P: Columnar, S, B: ColumnStorage> Serialize for ColumnPool<P, S, B>
where
    P::Fields: SaveFields,
    Pool<Row<P>, S, B>: Serialize,
{
    fn serialize<Z: Serializer>(&self, serializer: Z) -> Result<Z::Ok, Z::Error> {
        use serde::ser::SerializeStruct;
        let mut save = serializer.serialize_struct("ColumnPool", 2)?;
        save.serialize_field("books", &self.keys)?;
        save.serialize_field("rows", &LiveRows(self))?;
        save.end()
    }
}

/// A loaded row.
struct LoadedRow<F>(F);

impl<'de, F: LoadFields> Deserialize<'de> for LoadedRow<F> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct RowVisitor<F>(PhantomData<F>);

        impl<'de, F: LoadFields> Visitor<'de> for RowVisitor<F> {
            type Value = LoadedRow<F>;

            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                write!(f, "a row of {} fields", F::LEN)
            }

            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<LoadedRow<F>, A::Error> {
                let row = F::load(&mut seq, 0)?;
                if seq.next_element::<de::IgnoredAny>()?.is_some() {
                    return Err(de::Error::invalid_length(F::LEN + 1, &self));
                }
                Ok(LoadedRow(row))
            }
        }

        deserializer.deserialize_tuple(F::LEN, RowVisitor(PhantomData))
    }
}

/// The fields of a column pool's save, in the order they are written.
const FIELDS: &[&str] = &["books", "rows"];

/// A column pool loads from what [`Serialize`] wrote. A save is untrusted input: the books are
/// checked as a [`Pool`]'s are, then each row is loaded straight into the live slot it belongs
/// to, so that a load holds no more rows than the books have live slots. A save whose rows are
/// not one for each live slot, whose row has too few or too many fields, or whose rows come
/// before the books that say how many there are (a format that does not keep the order of a
/// struct's fields), is an error, never a pool with a slot and no row; it is refused as soon as
/// it is seen, having read no more than the rows the books allow.
impl<'de, P: Columnar, S, B: ColumnStorage> Deserialize<'de> for ColumnPool<P, S, B>
where
    P::Fields: LoadFields,
    Pool<Row<P>, S, B>: Deserialize<'de>,
{
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_struct("ColumnPool", FIELDS, SaveVisitor(PhantomData))
    }
}

/// Loads a column pool, its books first.
#[expect(
    clippy::type_complexity,
    reason = "no more than a marker of the pool it loads"
)]
struct SaveVisitor<P: Columnar, S, B: ColumnStorage>(PhantomData<fn() -> ColumnPool<P, S, B>>);

impl<'de, P: Columnar, S, B: ColumnStorage> Visitor<'de> for SaveVisitor<P, S, B>
where
    P::Fields: LoadFields,
    Pool<Row<P>, S, B>: Deserialize<'de>,
{
    type Value = ColumnPool<P, S, B>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a saved column pool")
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
        let keys = seq
            .next_element()?
            .ok_or_else(|| de::Error::invalid_length(0, &self))?;
        let mut pool = ColumnPool::with_keys(keys);
        seq.next_element_seed(LiveRowsSeed(&mut pool))?
            .ok_or_else(|| de::Error::invalid_length(1, &self))?;
        Ok(pool)
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
        let mut pool = None;
        let mut rows = false;
        let field = FieldOf {
            names: FIELDS,
            what: "a field of a saved column pool",
        };
        while let Some(k) = map.next_key_seed(field)? {
            if k == 0 {
                if pool.is_some() {
                    return Err(de::Error::duplicate_field(FIELDS[0]));
                }
                pool = Some(ColumnPool::with_keys(map.next_value()?));
            } else {
                let Some(pool) = pool.as_mut() else {
                    return Err(de::Error::custom(
                        "the rows come before the books that say how many there are",
                    ));
                };
                if rows {
                    return Err(de::Error::duplicate_field(FIELDS[1]));
                }
                map.next_value_seed(LiveRowsSeed(pool))?;
                rows = true;
            }
        }
        let pool = pool.ok_or_else(|| de::Error::missing_field(FIELDS[0]))?;
        if !rows {
            return Err(de::Error::missing_field(FIELDS[1]));
        }
        Ok(pool)
    }
}

/// The rows of a save, each loaded into the next live slot of a pool whose columns are blank:
/// exactly one row for each, and not one more read.
struct LiveRowsSeed<'a, P: Columnar, S, B: ColumnStorage>(&'a mut ColumnPool<P, S, B>);

impl<'de, P: Columnar, S, B: ColumnStorage> DeserializeSeed<'de> for LiveRowsSeed<'_, P, S, B>
where
    P::Fields: LoadFields,
{
    type Value = ();

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<(), D::Error> {
        deserializer.deserialize_seq(self)
    }
}

impl<'de, P: Columnar, S, B: ColumnStorage> Visitor<'de> for LiveRowsSeed<'_, P, S, B>
where
    P::Fields: LoadFields,
{
    type Value = ();

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "a row for each of {} live objects", self.0.len())
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<(), A::Error> {
        let ColumnPool { keys, columns } = self.0;
        let live = keys.len();
        for (read, (handle, _)) in keys.iter().enumerate() {
            let Some(LoadedRow(row)) = seq.next_element::<LoadedRow<P::Fields>>()? else {
                return Err(de::Error::custom(format_args!(
                    "the save has rows for {read} of its {live} live objects"
                )));
            };
            let Some(slot) = columns.row_mut(handle.index()) else {
                return Err(de::Error::custom("a live slot past the columns"));
            };
            P::Fields::write(slot, row);
        }
        if seq.next_element::<LoadedRow<P::Fields>>()?.is_some() {
            return Err(de::Error::custom(format_args!(
                "the save has rows for more than its {live} live objects"
            )));
        }
        Ok(())
    }
}
