use std::fmt::Display;

use proc_macro2::Span;
use quote::ToTokens;

/// Every error found while reading one input, so that all of them are reported in one compile.
#[derive(Default)]
pub(crate) struct Errors {
    combined: Option<syn::Error>,
}

impl Errors {
    pub(crate) fn push(&mut self, error: syn::Error) {
        match &mut self.combined {
            Some(combined) => combined.combine(error),
            None => self.combined = Some(error),
        }
    }

    pub(crate) fn at(&mut self, span: Span, message: impl Display) {
        self.push(syn::Error::new(span, message));
    }

    pub(crate) fn spanning(&mut self, tokens: impl ToTokens, message: impl Display) {
        self.push(syn::Error::new_spanned(tokens, message));
    }

    /// `value`, if neither it nor this holds an error; otherwise all of them, this's first.
    pub(crate) fn before<T>(self, value: syn::Result<T>) -> syn::Result<T> {
        match (self.combined, value) {
            (None, value) => value,
            (Some(mut errors), Err(error)) => {
                errors.combine(error);
                Err(errors)
            }
            (Some(errors), Ok(_)) => Err(errors),
        }
    }

    /// `value`, if neither it nor this holds an error; otherwise all of them, `value`'s first.
    pub(crate) fn after<T>(self, value: syn::Result<T>) -> syn::Result<T> {
        match (value, self.combined) {
            (value, None) => value,
            (Err(mut error), Some(errors)) => {
                error.combine(errors);
                Err(error)
            }
            (Ok(_), Some(errors)) => Err(errors),
        }
    }

    pub(crate) fn finish(self) -> syn::Result<()> {
        self.before(Ok(()))
    }
}
