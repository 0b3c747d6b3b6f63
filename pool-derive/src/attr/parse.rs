//! What reading any `#[pool(...)]` shares: finding the attributes, naming a key, skipping the
//! value of a key reported wrong.

use proc_macro2::TokenTree;
use syn::meta::ParseNestedMeta;
use syn::{Attribute, Expr, ExprLit, Lit, Token};

pub(super) fn pool_attrs(attrs: &[Attribute]) -> impl Iterator<Item = &Attribute> {
    attrs.iter().filter(|attr| attr.path().is_ident("pool"))
}

pub(super) fn key(meta: &ParseNestedMeta<'_>) -> String {
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

/// Whether the key stands alone, as a flag (`keep`, `sync`, `blank`) should.
pub(super) fn is_flag(meta: &ParseNestedMeta<'_>) -> bool {
    meta.input.is_empty() || meta.input.peek(Token![,])
}

/// Consumes what follows a key reported as an error, so that the keys after it are still read.
pub(super) fn skip_value(meta: &ParseNestedMeta<'_>) -> syn::Result<()> {
    if meta.input.peek(Token![=]) {
        meta.value()?.parse::<Expr>()?;
    } else if !is_flag(meta) {
        meta.input.parse::<TokenTree>()?;
    }
    Ok(())
}

/// The message for a key's value that is not one of its words: a string of one says to drop
/// the quotes, anything else gets `unknown`.
pub(super) fn not_a_word(key: &str, value: &Expr, unknown: String) -> String {
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
