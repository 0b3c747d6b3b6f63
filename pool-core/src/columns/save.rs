//! Saves of column pools (the `serde` feature): the books as a pool's save, and the live rows
//! in slot order, each a tuple of its fields.

use super::fields::ColumnFields;
use super::store::{ColumnStorage, ColumnStore};
use super::{ColumnPool, Columnar, Row};
use crate::Pool;
use alloc::vec::Vec;
use core::fmt;
use core::marker::PhantomData;
use serde::de::{self, SeqAccess, Visitor};
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

#[derive(Deserialize)]
#[serde(bound(deserialize = "K: Deserialize<'de>, F: LoadFields"))]
#[serde(rename = "ColumnPool", deny_unknown_fields)]
struct Saved<K, F> {
    books: K,
    rows: Vec<LoadedRow<F>>,
}

/// A column pool loads from what [`Serialize`] wrote. A save is untrusted input: the books are
/// checked as a [`Pool`]'s are, and a save whose rows are not one for each live slot, or whose
/// row has too few or too many fields, is an error, never a pool with a slot and no row.
impl<'de, P: Columnar, S, B: ColumnStorage> Deserialize<'de> for ColumnPool<P, S, B>
where
    P::Fields: LoadFields,
    Pool<Row<P>, S, B>: Deserialize<'de>,
{
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let saved = Saved::<Pool<Row<P>, S, B>, P::Fields>::deserialize(deserializer)?;
        let keys = saved.books;
        if saved.rows.len() != keys.len() {
            return Err(de::Error::custom(format_args!(
                "the save has {} rows for {} live objects",
                saved.rows.len(),
                keys.len()
            )));
        }
        let mut columns = Self::blank_columns(&keys);
        for ((handle, _), LoadedRow(row)) in keys.iter().zip(saved.rows) {
            let Some(slot) = columns.row_mut(handle.index()) else {
                return Err(de::Error::custom("a live slot past the columns"));
            };
            P::Fields::write(slot, row);
        }
        Ok(Self { keys, columns })
    }
}
