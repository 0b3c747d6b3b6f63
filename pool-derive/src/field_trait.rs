//! Which of the runtime's field traits (`__private::Field` and its kin) a field is reset
//! through, from its type as written. They differ only in the compile error for a type with no
//! reset: a bare `Rc` gets the note about `Option`, `Instant` the attributes that say what it is
//! reset to, a `Vec` without the `alloc` feature the feature's name. A type behind an alias gets
//! the general note.

use syn::{GenericArgument, PathArguments, Type};

/// The trait's name under `__private`.
pub(crate) fn for_type(ty: &Type) -> &'static str {
    if let Some(name) = inner(ty) {
        return name;
    }
    let Some(last) = last_name(ty) else {
        return "Field";
    };
    match last.as_str() {
        "Vec" | "VecDeque" | "BinaryHeap" | "LinkedList" | "BTreeMap" | "BTreeSet" | "String"
        | "Box" | "Weak" => "AllocField",
        "HashMap" | "HashSet" | "Mutex" | "RwLock" | "OnceLock" | "OsString" | "PathBuf"
        | "Cursor" => "StdField",
        _ => "Field",
    }
}

fn last_name(ty: &Type) -> Option<String> {
    let Type::Path(path) = ty else { return None };
    Some(path.path.segments.last()?.ident.to_string())
}

/// The trait for what the type holds that has no blank state, wherever it is held, except
/// inside a type that resets whatever it holds (`Option`, the collections, `PhantomData`).
fn inner(ty: &Type) -> Option<&'static str> {
    match ty {
        Type::Reference(_) => Some("BorrowedField"),
        Type::Ptr(_) => Some("PointerField"),
        Type::Array(array) => inner(&array.elem),
        Type::Tuple(tuple) => tuple.elems.iter().find_map(inner),
        Type::Paren(paren) => inner(&paren.elem),
        Type::Group(group) => inner(&group.elem),
        Type::Path(path) if path.qself.is_none() => {
            let segment = path.path.segments.last()?;
            match segment.ident.to_string().as_str() {
                "Rc" | "Arc" => Some("SharedField"),
                "NonNull" | "AtomicPtr" => Some("PointerField"),
                "Instant" | "SystemTime" | "ManuallyDrop" => Some("UnblankField"),
                name if name.starts_with("NonZero") => Some("UnblankField"),
                "Option" | "Vec" | "VecDeque" | "BinaryHeap" | "LinkedList" | "BTreeMap"
                | "BTreeSet" | "HashMap" | "HashSet" | "PhantomData" | "OnceCell" | "OnceLock"
                | "Weak" => None,
                _ => match &segment.arguments {
                    PathArguments::AngleBracketed(arguments) => {
                        arguments.args.iter().find_map(|argument| match argument {
                            GenericArgument::Type(ty) => inner(ty),
                            _ => None,
                        })
                    }
                    PathArguments::None | PathArguments::Parenthesized(_) => None,
                },
            }
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::for_type;

    fn trait_for(ty: &str) -> &'static str {
        for_type(&syn::parse_str(ty).unwrap())
    }

    #[test]
    fn what_has_no_blank_state_is_found_wherever_it_is_held() {
        assert_eq!(trait_for("Rc<Emitter>"), "SharedField");
        assert_eq!(trait_for("[std::sync::Arc<u8>; 4]"), "SharedField");
        assert_eq!(trait_for("(u32, Box<Rc<u8>>)"), "SharedField");
        assert_eq!(trait_for("&'static str"), "BorrowedField");
        assert_eq!(trait_for("*const Node"), "PointerField");
        assert_eq!(trait_for("std::time::Instant"), "UnblankField");
        assert_eq!(trait_for("NonZeroU32"), "UnblankField");
    }

    #[test]
    fn a_type_that_resets_whatever_it_holds_gets_its_own_trait() {
        assert_eq!(trait_for("Option<Rc<Emitter>>"), "Field");
        assert_eq!(trait_for("Vec<&'static str>"), "AllocField");
        assert_eq!(trait_for("HashMap<u32, Rc<u8>>"), "StdField");
        assert_eq!(trait_for("Mutex<Vec<u8>>"), "StdField");
        assert_eq!(trait_for("Sprite"), "Field");
    }
}
