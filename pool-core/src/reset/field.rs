//! What generated code resets a field through instead of [`Reset`] itself: the same methods,
//! under a trait whose compile error fits the field. The derive picks one from the field's type
//! as written (a bare `Rc<T>` gets [`SharedField`], `Instant` [`UnblankField`], ...), and each
//! is implemented for every type that implements [`Reset`], so a field that resets compiles
//! whichever it picked; one that does not gets the error that names its type, the pooled type
//! (`O`) and the attribute that fits, with no list of the types that do reset. A type hidden
//! behind an alias gets [`Field`]'s general note.

use super::Reset;

/// A field trait: its docs, the label and note of its compile error, and its implementation
/// for every `Reset` type. Without a note, the general one.
macro_rules! field_trait {
    ($(#[$doc:meta])* $name:ident, $label:literal) => {
        field_trait!(
            $(#[$doc])* $name,
            $label,
            "derive or implement `pooling::Reset` for the type, or mark the field with what the pool does instead: `#[pool(reset = <expr>)]` assigns a value at each release, `#[pool(reset_with = <fn>)]` calls a function, `#[pool(keep)]` never resets it"
        );
    };
    ($(#[$doc:meta])* $name:ident, $label:literal, $note:literal) => {
        $(#[$doc])*
        #[diagnostic::on_unimplemented(
            message = "`{Self}` has no reset strategy, so it cannot be a field of `{O}`",
            label = $label,
            note = $note
        )]
        pub trait $name<O> {
            /// [`Reset::blank`].
            fn blank() -> Self;
            /// [`Reset::reset`].
            fn reset(&mut self);
            /// [`Reset::reset_if_owned`].
            fn reset_if_owned(&mut self);
            /// [`Reset::reset_if_plain`].
            fn reset_if_plain(&mut self);
        }

        impl<T: Reset, O> $name<O> for T {
            #[inline]
            fn blank() -> Self {
                T::blank()
            }

            #[inline]
            fn reset(&mut self) {
                Reset::reset(self);
            }

            #[inline]
            fn reset_if_owned(&mut self) {
                Reset::reset_if_owned(self);
            }

            #[inline]
            fn reset_if_plain(&mut self) {
                Reset::reset_if_plain(self);
            }
        }
    };
}

field_trait!(
    /// A field of any other type.
    Field,
    "`{Self}` does not implement `pooling::Reset`"
);

field_trait!(
    /// A field holding a bare `Rc` or `Arc`.
    SharedField,
    "a bare `Rc` or `Arc` has no blank state",
    "hold it as an `Option<Rc<T>>` or `Option<Arc<T>>`, which the pool sets to `None` at release, letting the reference go; or mark the field `#[pool(keep)]` to keep one shared value in the slot for good"
);

field_trait!(
    /// A field holding a reference.
    BorrowedField,
    "a reference has no blank state",
    "own the data, or hold a `pooling::Handle` or an index; for a `&'static` value, mark the field `#[pool(reset = <expr>)]` with the value it goes back to"
);

field_trait!(
    /// A field holding a pointer: `*const T`, `*mut T`, `NonNull<T>`, `AtomicPtr<T>`.
    PointerField,
    "a pointer has no blank state",
    "hold a `pooling::Handle` or an index instead, or mark the field `#[pool(reset = <expr>)]` with the pointer it goes back to, such as `core::ptr::null()`"
);

field_trait!(
    /// A field of a type with no blank value that fits every use: `Instant`, `SystemTime`,
    /// `NonZero` numbers, `ManuallyDrop`.
    UnblankField,
    "`{Self}` has no blank value that fits every use",
    "say what a released object holds: `#[pool(reset = <expr>)]` at each release (such as `reset = Instant::now()`), `#[pool(build = <expr>, keep)]` once, when the slot is built, or hold an `Option<{Self}>`, which resets to `None`"
);

#[cfg(feature = "alloc")]
field_trait!(
    /// A field of an `alloc` type (`Vec`, `String`, `Box`, ...).
    AllocField,
    "`{Self}` does not implement `pooling::Reset`"
);

#[cfg(not(feature = "alloc"))]
field_trait!(
    /// A field of an `alloc` type (`Vec`, `String`, `Box`, ...), which `pooling` resets with
    /// its `alloc` feature.
    AllocField,
    "`pooling` resets the `alloc` collections, `String` and `Box` with its `alloc` feature",
    "turn the feature on: `features = [\"alloc\"]` in the `pooling` dependency; or mark the field with what the pool does instead: `#[pool(reset = <expr>)]`, `#[pool(reset_with = <fn>)]` or `#[pool(keep)]`"
);

#[cfg(feature = "std")]
field_trait!(
    /// A field of a type only `std` has (`HashMap`, `Mutex`, ...).
    StdField,
    "`{Self}` does not implement `pooling::Reset`"
);

#[cfg(not(feature = "std"))]
field_trait!(
    /// A field of a type only `std` has (`HashMap`, `Mutex`, ...), which `pooling` resets with
    /// its `std` feature.
    StdField,
    "`pooling` resets `std`'s hash collections, locks, `OnceLock`, `OsString`, `PathBuf` and `Cursor` with its `std` feature",
    "turn the feature on (it is on by default): `features = [\"std\"]` in the `pooling` dependency; or mark the field with what the pool does instead: `#[pool(reset = <expr>)]`, `#[pool(reset_with = <fn>)]` or `#[pool(keep)]`"
);

/// What `keep` and `reset_with` fields are first built with: `Default`, unless `build` says.
#[diagnostic::on_unimplemented(
    message = "`{Self}` has no `Default`, which first builds this field of `{O}`",
    label = "a `keep` or `reset_with` field is first built with `Default::default()`",
    note = "derive or implement `Default` for the type, or say how the field is built with `#[pool(build = <expr>)]`"
)]
pub trait DefaultField<O> {
    /// [`Default::default`].
    fn default() -> Self;
}

impl<T: Default, O> DefaultField<O> for T {
    #[inline]
    fn default() -> Self {
        T::default()
    }
}
