//! Reading `#[pool(...)]` attributes where they may stand: on the struct or enum (`container`,
//! whose values `values` reads), on a variant (`variant`), on a field (`field`); `parse` holds
//! what they share. Each reports what is wrong and reads on, so that every mistake is reported in
//! one compile; `valid` then checks how the settings combine.

mod container;
mod field;
mod parse;
mod values;
mod variant;

pub(crate) use container::{Container, container};
pub(crate) use field::{Build, FieldReset, field};
pub(crate) use values::{Layout, OnFull, Storage};
pub(crate) use variant::variant;

const FIELD_KEYS: &str = "`reset = <expr>`, `reset_with = <function>`, `keep` or `build = <expr>`";

const VARIANT_KEYS: &str = "`blank`, which marks the variant every object is reset to";

const STRUCT_KEYS: &str = "`size = N`, `sync`, `on_full = fail | panic | evict | grow`, `evict_by = <fn>`, `max = N`, `storage = heap | inline`, `layout = objects | columns`, `name = <type name>`, `vis = <visibility>` and `crate = <path>`";

/// What the derive is on, for messages that name it: `struct` or `enum`. (Unions are rejected
/// whole, and worded as structs until then.)
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Item {
    Struct,
    Enum,
}

impl Item {
    pub(crate) fn word(self) -> &'static str {
        match self {
            Item::Struct => "struct",
            Item::Enum => "enum",
        }
    }
}
