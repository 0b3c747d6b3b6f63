//! Reading `#[pool(...)]` attributes.

use crate::Derive;
use crate::errors::Errors;
use proc_macro2::{Ident, Span, TokenTree};
use syn::meta::ParseNestedMeta;
use syn::spanned::Spanned;
use syn::{
    Attribute, Expr, ExprLit, ExprPath, ExprUnary, Lit, LitInt, Path, Token, UnOp, Visibility,
};

/// The largest `size`: slot indices are 32-bit, and the runtime keeps two values for itself.
const MAX_SIZE: u64 = u32::MAX as u64 - 1;

const FIELD_KEYS: &str = "`reset = <expr>`, `reset_with = <function>` or `keep`";

const VARIANT_KEYS: &str = "`blank`, which marks the variant every object is reset to";

const STRUCT_KEYS: &str = "`size = N`, `sync`, `on_full = fail | panic | evict | grow`, `evict_by = <fn>`, `max = N`, `storage = heap | inline`, `name = <type name>`, `vis = <visibility>` and `crate = <path>`";

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

/// What `#[pool(size = ...)]` or `#[pool(max = ...)]` said, if anything.
// `allow`, not `expect`: `Expr` is large only where another crate in the build turns on syn's
// `full` feature (bevy_ecs's macros do, in the workspace); one is parsed per attribute.
#[allow(
    clippy::large_enum_variant,
    reason = "parsed once per attribute; its size depends on syn's features"
)]
pub(crate) enum Count {
    Missing,
    /// Given but wrong; the error is already reported.
    Invalid,
    /// A literal, checked here, re-emitted without its suffix.
    Literal(LitInt),
    /// A constant expression, checked when the compiler evaluates it.
    Const(Expr),
}

/// What a full pool does, from `#[pool(on_full = ...)]`.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum OnFull {
    Fail,
    Panic,
    Evict,
    Grow,
}

impl OnFull {
    const CHOICES: &str = "`fail` (the default), `panic`, `evict` or `grow`";

    fn from_ident(ident: &Ident) -> Option<Self> {
        Some(match ident.to_string().as_str() {
            "fail" => OnFull::Fail,
            "panic" => OnFull::Panic,
            "evict" => OnFull::Evict,
            "grow" => OnFull::Grow,
            _ => return None,
        })
    }
}

/// Where the pool keeps its objects, from `#[pool(storage = ...)]`.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Storage {
    Heap,
    Inline,
}

impl Storage {
    const CHOICES: &str =
        "`heap` (the default: one allocation) or `inline` (inside the pool, no allocator)";
}

/// The struct's `#[pool(...)]` attributes, each with the span of its key (or value, for
/// `on_full`) for errors about how they combine.
pub(crate) struct Container {
    pub(crate) size: Count,
    pub(crate) on_full: Option<(Span, OnFull)>,
    /// The key's span, and the measure unless it was invalid (and reported).
    pub(crate) evict_by: Option<(Span, Option<Expr>)>,
    pub(crate) max: Option<(Span, Count)>,
    pub(crate) storage: Option<(Span, Storage)>,
    /// `name = Sparks`: the pool type's name instead of `FooPool`.
    pub(crate) name: Option<Ident>,
    /// `vis = pub(crate)`: the pool type's visibility instead of the struct's.
    pub(crate) vis: Option<Visibility>,
    /// `crate = my_engine::pooling`: where generated code finds the `pooling` crate.
    pub(crate) krate: Option<Path>,
    /// `blank` was given here, where it does not belong (and reported).
    pub(crate) misplaced_blank: bool,
    /// `sync`: the pool is a `SyncPool`, shared across threads. The key's span.
    pub(crate) sync: Option<Span>,
}

impl Container {
    pub(crate) fn on_full(&self) -> OnFull {
        self.on_full.map_or(OnFull::Fail, |(_, on_full)| on_full)
    }

    pub(crate) fn storage(&self) -> Storage {
        self.storage.map_or(Storage::Heap, |(_, storage)| storage)
    }
}

/// How one field is reset.
pub(crate) enum FieldReset {
    /// Through the field type's `Reset` implementation.
    Reset,
    /// `#[pool(reset = <expr>)]`: assigned the expression.
    Value(Expr),
    /// `#[pool(reset_with = <path>)]`: the function is called on the field.
    With(ExprPath),
    /// `#[pool(keep)]`: never reset.
    Keep,
}

impl FieldReset {
    pub(crate) fn key(&self) -> &'static str {
        match self {
            FieldReset::Reset => "",
            FieldReset::Value(_) => "reset",
            FieldReset::With(_) => "reset_with",
            FieldReset::Keep => "keep",
        }
    }
}

/// Reads the struct's or enum's `#[pool(...)]` attributes.
pub(crate) fn container(
    attrs: &[Attribute],
    derive: Derive,
    item: Item,
    errors: &mut Errors,
) -> Container {
    let mut container = Container {
        size: Count::Missing,
        on_full: None,
        evict_by: None,
        max: None,
        storage: None,
        name: None,
        vis: None,
        krate: None,
        misplaced_blank: false,
        sync: None,
    };
    let mut seen: Vec<String> = Vec::new();
    for attr in pool_attrs(attrs) {
        let parsed = attr.parse_nested_meta(|meta| {
            let key = key(&meta);
            let span = meta.path.span();
            let known = matches!(
                key.as_str(),
                "size" | "sync" | "on_full" | "evict_by" | "max" | "storage" | "name" | "vis" | "crate"
            );
            if known && seen.contains(&key) {
                errors.at(span, format_args!("duplicate `{key}`: give it once"));
                return skip_value(&meta);
            }
            if key == "crate" {
                container.krate = crate_value(&meta, errors)?;
                seen.push(key);
                return Ok(());
            }
            if known && derive == Derive::Reset {
                errors.at(span, format_args!("`#[derive(Reset)]` takes no `{key}`: that belongs to `#[derive(Pooled)]`, and a pooled struct should not also derive `Reset`, whose public `Reset::blank` would build it outside its pool"));
                return skip_value(&meta);
            }
            match key.as_str() {
                "size" => container.size = count_value(&meta, "size", errors)?,
                "sync" => container.sync = sync_flag(&meta, errors)?,
                "max" => container.max = Some((span, count_value(&meta, "max", errors)?)),
                "on_full" => container.on_full = on_full_value(&meta, errors)?,
                "storage" => container.storage = storage_value(&meta, errors)?,
                "evict_by" => {
                    if !meta.input.peek(Token![=]) {
                        errors.at(span, "`evict_by` needs the measure of an object's importance, such as `evict_by = Voice::loudness`, a `fn(&Voice) -> K` where `K: Ord`");
                        return skip_value(&meta);
                    }
                    container.evict_by = Some((span, evict_by_value(&meta, errors)?));
                }
                "name" => container.name = name_value(&meta, errors)?,
                "vis" => container.vis = vis_value(&meta, errors)?,
                "reset" | "reset_with" | "keep" if item == Item::Struct => {
                    errors.at(span, format_args!("`{key}` goes on a field, not on the struct"));
                    return skip_value(&meta);
                }
                "reset" | "reset_with" | "keep" => {
                    errors.at(span, format_args!("`{key}` goes on a field of the blank variant, not on the enum"));
                    return skip_value(&meta);
                }
                "blank" if item == Item::Struct => {
                    errors.at(span, "`blank` marks the variant of an enum that every object is reset to; a struct has no variants: remove it");
                    return skip_value(&meta);
                }
                "blank" => {
                    errors.at(span, "`blank` goes on a variant, not on the enum: `#[pool(blank)]` above the variant that every object is reset to");
                    container.misplaced_blank = true;
                    return skip_value(&meta);
                }
                _ if derive == Derive::Pooled && item == Item::Enum => {
                    errors.at(span, format_args!("unknown pool attribute `{key}`: on an enum, `#[pool(...)]` takes {STRUCT_KEYS}; on a variant, {VARIANT_KEYS}; on a field of the blank variant, {FIELD_KEYS}"));
                    return skip_value(&meta);
                }
                _ if derive == Derive::Pooled => {
                    errors.at(span, format_args!("unknown pool attribute `{key}`: on a struct, `#[pool(...)]` takes {STRUCT_KEYS}; on a field, {FIELD_KEYS}"));
                    return skip_value(&meta);
                }
                _ if item == Item::Enum => {
                    errors.at(span, format_args!("unknown pool attribute `{key}`: `#[derive(Reset)]` takes {VARIANT_KEYS} on a variant, {FIELD_KEYS} on the blank variant's fields, and only `crate = <path>` on the enum"));
                    return skip_value(&meta);
                }
                _ => {
                    errors.at(span, format_args!("unknown pool attribute `{key}`: `#[derive(Reset)]` takes {FIELD_KEYS} on fields, and only `crate = <path>` on the struct"));
                    return skip_value(&meta);
                }
            }
            seen.push(key);
            Ok(())
        });
        if let Err(error) = parsed {
            errors.push(error);
            // The attribute may have held the size: do not also report it missing.
            if let Count::Missing = container.size {
                container.size = Count::Invalid;
            }
        }
    }
    container
}

/// The measure of `evict_by = <measure>`, or `None` if it is neither a path nor a closure
/// (reported).
fn evict_by_value(meta: &ParseNestedMeta<'_>, errors: &mut Errors) -> syn::Result<Option<Expr>> {
    match meta.value()?.parse()? {
        measure @ (Expr::Path(_) | Expr::Closure(_)) => Ok(Some(measure)),
        other => {
            errors.spanning(other, "`evict_by` takes a function or closure that measures an object's importance, such as `evict_by = Voice::loudness` or `evict_by = |v| v.priority`");
            Ok(None)
        }
    }
}

/// `sync`, a flag: its span, or `None` if it was given a value (reported).
fn sync_flag(meta: &ParseNestedMeta<'_>, errors: &mut Errors) -> syn::Result<Option<Span>> {
    let span = meta.path.span();
    if meta.input.is_empty() || meta.input.peek(Token![,]) {
        return Ok(Some(span));
    }
    errors.at(span, "`sync` is a flag and takes no value: write `#[pool(size = N, sync)]` for a pool shared across threads");
    skip_value(meta)?;
    Ok(None)
}

fn name_value(meta: &ParseNestedMeta<'_>, errors: &mut Errors) -> syn::Result<Option<Ident>> {
    const NAME: &str = "`name` takes the pool type's name, such as `name = Sparks`";
    if !meta.input.peek(Token![=]) {
        errors.at(meta.path.span(), NAME);
        skip_value(meta)?;
        return Ok(None);
    }
    let value: Expr = meta.value()?.parse()?;
    if let Expr::Path(path) = &value
        && let Some(ident) = path.path.get_ident()
    {
        return Ok(Some(ident.clone()));
    }
    if let Expr::Lit(ExprLit {
        lit: Lit::Str(text),
        ..
    }) = &value
    {
        errors.spanning(
            text,
            format_args!(
                "`name` takes a name, not a string: write `name = {}`",
                text.value()
            ),
        );
    } else {
        errors.spanning(value, NAME);
    }
    Ok(None)
}

fn vis_value(meta: &ParseNestedMeta<'_>, errors: &mut Errors) -> syn::Result<Option<Visibility>> {
    const VIS: &str = "`vis` takes a visibility: `vis = pub`, `vis = pub(crate)`, `vis = pub(super)`, or `vis = \"\"` for private";
    if !meta.input.peek(Token![=]) {
        errors.at(meta.path.span(), VIS);
        skip_value(meta)?;
        return Ok(None);
    }
    let input = meta.value()?;
    if input.peek(Token![pub]) {
        return input.parse().map(Some);
    }
    if input.peek(syn::LitStr) {
        let text: syn::LitStr = input.parse()?;
        if let Ok(vis) = syn::parse_str::<Visibility>(&text.value()) {
            return Ok(Some(vis));
        }
        errors.spanning(text, VIS);
        return Ok(None);
    }
    let other: Expr = input.parse()?;
    errors.spanning(other, VIS);
    Ok(None)
}

fn crate_value(meta: &ParseNestedMeta<'_>, errors: &mut Errors) -> syn::Result<Option<Path>> {
    const CRATE: &str = "`crate` takes the path at which generated code finds the `pooling` crate, such as `crate = my_engine::pooling` or `crate = \"my_engine::pooling\"`";
    if !meta.input.peek(Token![=]) {
        errors.at(meta.path.span(), CRATE);
        skip_value(meta)?;
        return Ok(None);
    }
    match meta.value()?.parse()? {
        Expr::Path(ExprPath {
            qself: None, path, ..
        }) => Ok(Some(path)),
        Expr::Lit(ExprLit {
            lit: Lit::Str(text),
            ..
        }) => {
            if let Ok(path) = text.parse::<Path>() {
                return Ok(Some(path));
            }
            errors.spanning(text, CRATE);
            Ok(None)
        }
        other => {
            errors.spanning(other, CRATE);
            Ok(None)
        }
    }
}

fn on_full_value(
    meta: &ParseNestedMeta<'_>,
    errors: &mut Errors,
) -> syn::Result<Option<(Span, OnFull)>> {
    if !meta.input.peek(Token![=]) {
        errors.at(
            meta.path.span(),
            format_args!("`on_full` needs a strategy: {}", OnFull::CHOICES),
        );
        skip_value(meta)?;
        return Ok(None);
    }
    let value: Expr = meta.value()?.parse()?;
    let ident = match &value {
        Expr::Path(path) => path.path.get_ident(),
        _ => None,
    };
    if let Some(ident) = ident
        && let Some(on_full) = OnFull::from_ident(ident)
    {
        return Ok(Some((ident.span(), on_full)));
    }
    let unknown = format!("unknown `on_full` strategy: write {}", OnFull::CHOICES);
    errors.spanning(&value, not_a_word("on_full", &value, unknown));
    Ok(None)
}

/// The message for a key's value that is not one of its words: a string of one says to drop
/// the quotes, anything else gets `unknown`.
fn not_a_word(key: &str, value: &Expr, unknown: String) -> String {
    match value {
        Expr::Lit(ExprLit {
            lit: Lit::Str(text),
            ..
        }) => format!(
            "`{key}` takes a bare word, not a string: write `{key} = {}`",
            text.value()
        ),
        _ => unknown,
    }
}

fn storage_value(
    meta: &ParseNestedMeta<'_>,
    errors: &mut Errors,
) -> syn::Result<Option<(Span, Storage)>> {
    let span = meta.path.span();
    if !meta.input.peek(Token![=]) {
        errors.at(
            span,
            format_args!("`storage` needs a kind: {}", Storage::CHOICES),
        );
        skip_value(meta)?;
        return Ok(None);
    }
    let value: Expr = meta.value()?.parse()?;
    let ident = match &value {
        Expr::Path(path) => path.path.get_ident(),
        _ => None,
    };
    match ident.map(ToString::to_string).as_deref() {
        Some("heap") => return Ok(Some((span, Storage::Heap))),
        Some("inline") => return Ok(Some((span, Storage::Inline))),
        _ => {}
    }
    let unknown = format!("unknown `storage` kind: write {}", Storage::CHOICES);
    errors.spanning(&value, not_a_word("storage", &value, unknown));
    Ok(None)
}

/// Reads a variant's `#[pool(...)]` attributes: the span of `blank`, if it is there.
pub(crate) fn variant(attrs: &[Attribute], errors: &mut Errors) -> Option<Span> {
    let mut blank = None;
    for attr in pool_attrs(attrs) {
        let parsed = attr.parse_nested_meta(|meta| {
            let key = key(&meta);
            let span = meta.path.span();
            match key.as_str() {
                "blank" if blank.is_some() => {
                    errors.at(span, "duplicate `blank` on one variant");
                }
                "blank" => {
                    if !meta.input.is_empty() && !meta.input.peek(Token![,]) {
                        errors.at(span, "`blank` takes no value: write `#[pool(blank)]`");
                        skip_value(&meta)?;
                    }
                    blank = Some(span);
                }
                "reset" | "reset_with" | "keep" => {
                    errors.at(span, format_args!("`{key}` goes on a field of the blank variant, not on a variant"));
                    return skip_value(&meta);
                }
                "size" | "sync" | "on_full" | "evict_by" | "max" | "storage" | "name" | "vis" | "crate" => {
                    errors.at(span, format_args!("`{key}` goes on the enum, not on a variant: `#[pool({key} = ...)]` above `enum`"));
                    return skip_value(&meta);
                }
                _ => {
                    errors.at(span, format_args!("unknown pool attribute `{key}`: a variant takes only {VARIANT_KEYS}"));
                    return skip_value(&meta);
                }
            }
            Ok(())
        });
        if let Err(error) = parsed {
            errors.push(error);
        }
    }
    blank
}

/// A field's `#[pool(...)]` attributes.
pub(crate) struct FieldAttrs {
    pub(crate) reset: FieldReset,
    /// The span of the key that chose `reset`; none for the default, through `Reset`.
    pub(crate) key: Option<Span>,
    /// `blank` was given here, where it does not belong (and reported).
    pub(crate) misplaced_blank: bool,
}

/// Reads a field's `#[pool(...)]` attributes.
pub(crate) fn field(attrs: &[Attribute], item: Item, errors: &mut Errors) -> FieldAttrs {
    let mut reset = FieldReset::Reset;
    let mut reset_span = None;
    let mut misplaced_blank = false;
    for attr in pool_attrs(attrs) {
        let parsed = attr.parse_nested_meta(|meta| {
            let key = key(&meta);
            let span = meta.path.span();
            let found = match key.as_str() {
                "reset" => {
                    if !meta.input.peek(Token![=]) {
                        errors.at(span, "`reset` needs a value, such as `reset = 1.0`; without the attribute, the field is reset through its type's `pooling::Reset`");
                        return skip_value(&meta);
                    }
                    FieldReset::Value(meta.value()?.parse()?)
                }
                "reset_with" => {
                    if !meta.input.peek(Token![=]) {
                        errors.at(span, "`reset_with` needs a function, such as `reset_with = clear_tint`, called as `clear_tint(&mut field)`");
                        return skip_value(&meta);
                    }
                    match meta.value()?.parse()? {
                        Expr::Path(path) => FieldReset::With(path),
                        other => {
                            errors.spanning(other, "`reset_with` takes the path of a function called as `f(&mut field)`, such as `reset_with = clear_tint`; to assign a value, use `reset = <expr>`");
                            return Ok(());
                        }
                    }
                }
                "keep" => {
                    if !meta.input.is_empty() && !meta.input.peek(Token![,]) {
                        errors.at(span, "`keep` takes no value: write `#[pool(keep)]`");
                        skip_value(&meta)?;
                    }
                    FieldReset::Keep
                }
                "size" => {
                    let item = item.word();
                    errors.at(span, format_args!("`size` goes on the {item}, not on a field: `#[pool(size = N)]` above `{item}`"));
                    return skip_value(&meta);
                }
                "on_full" | "evict_by" | "max" | "storage" | "name" | "vis" | "crate" => {
                    let item = item.word();
                    errors.at(span, format_args!("`{key}` goes on the {item}, not on a field"));
                    return skip_value(&meta);
                }
                "blank" if item == Item::Enum => {
                    errors.at(span, "`blank` goes on a variant, not on a field: `#[pool(blank)]` above the variant that every object is reset to");
                    misplaced_blank = true;
                    return skip_value(&meta);
                }
                "blank" => {
                    errors.at(span, "`blank` marks the variant of an enum that every object is reset to; a struct's fields are reset one by one: remove it");
                    return skip_value(&meta);
                }
                _ => {
                    errors.at(span, format_args!("unknown pool attribute `{key}`: a field takes {FIELD_KEYS}"));
                    return skip_value(&meta);
                }
            };
            match reset.key() {
                "" => {
                    reset = found;
                    reset_span = Some(span);
                }
                previous if previous == found.key() => {
                    errors.at(span, format_args!("duplicate `{previous}` on one field"));
                }
                previous => errors.at(
                    span,
                    format_args!(
                        "`{}` conflicts with `{previous}`: a field is reset one way, or kept with `keep`; remove one",
                        found.key()
                    ),
                ),
            }
            Ok(())
        });
        if let Err(error) = parsed {
            errors.push(error);
        }
    }
    FieldAttrs {
        reset,
        key: reset_span,
        misplaced_blank,
    }
}

fn pool_attrs(attrs: &[Attribute]) -> impl Iterator<Item = &Attribute> {
    attrs.iter().filter(|attr| attr.path().is_ident("pool"))
}

fn key(meta: &ParseNestedMeta<'_>) -> String {
    meta.path.get_ident().map_or_else(
        || {
            let segments = meta.path.segments.iter();
            segments
                .map(|s| s.ident.to_string())
                .collect::<Vec<_>>()
                .join("::")
        },
        ToString::to_string,
    )
}

/// Consumes what follows a key reported as an error, so that the keys after it are still read.
fn skip_value(meta: &ParseNestedMeta<'_>) -> syn::Result<()> {
    if meta.input.peek(Token![=]) {
        meta.value()?.parse::<Expr>()?;
    } else if !meta.input.is_empty() && !meta.input.peek(Token![,]) {
        meta.input.parse::<TokenTree>()?;
    }
    Ok(())
}

fn count_value(meta: &ParseNestedMeta<'_>, key: &str, errors: &mut Errors) -> syn::Result<Count> {
    if !meta.input.peek(Token![=]) {
        errors.at(
            meta.path.span(),
            format_args!("`{key}` needs a value: a number of slots, such as `{key} = 256`"),
        );
        skip_value(meta)?;
        return Ok(Count::Invalid);
    }
    let expr: Expr = meta.value()?.parse()?;
    let lit = match &expr {
        Expr::Lit(ExprLit { lit, .. }) => lit,
        Expr::Unary(ExprUnary {
            op: UnOp::Neg(_),
            expr: inner,
            ..
        }) if matches!(**inner, Expr::Lit(_)) => {
            errors.spanning(
                &expr,
                format_args!("`{key}` is a number of slots, at least 1"),
            );
            return Ok(Count::Invalid);
        }
        _ => return Ok(Count::Const(expr)),
    };
    let message = match lit {
        Lit::Int(int) => match int.base10_parse::<u64>() {
            Ok(0) => format!("a pool needs at least one slot: `{key}` must be 1 or more"),
            Ok(n) if n > MAX_SIZE => {
                format!("`{key}` can be at most {MAX_SIZE}: slot indices are 32-bit")
            }
            Ok(n) => return Ok(Count::Literal(LitInt::new(&n.to_string(), int.span()))),
            Err(error) => error.to_string(),
        },
        Lit::Str(text) => format!(
            "`{key}` takes a number, not a string: write `{key} = {}`",
            text.value().trim()
        ),
        _ => format!("`{key}` takes a whole number of slots, such as `{key} = 256`"),
    };
    errors.spanning(lit, message);
    Ok(Count::Invalid)
}
