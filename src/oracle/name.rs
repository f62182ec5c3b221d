//! [`ExternalName`]: an external oracle's name, stored once per process.

use std::fmt;

use super::OracleId;

/// An external oracle's name: what the user called it
/// (`--oracle-cmd NAME=…`) or a shipped adapter's name. At most
/// [`ExternalName::MAX`] bytes of `[A-Za-z0-9._-]`, and no built-in oracle's
/// id. Compared, ordered and hashed as its text.
///
/// Each distinct name is stored once for the life of the process, and an
/// `ExternalName` points at it, so that [`OracleId`] is
/// `Copy`, needs no registry and is two machine words: it is copied many
/// times per input (every finding, every peer pair), which a fuzz build
/// with AddressSanitizer turns into a checked `__asan_memcpy` call for
/// anything larger (117 per real URL when it held the name inline, 32
/// bytes; BENCHMARKS.md, "eleventh round").
#[derive(Clone, Copy)]
pub struct ExternalName(&'static String);

/// The most distinct external oracle names one process holds. Names are
/// few (the shipped adapters and the user's own), but they can come from
/// files (a report's oracle ids), so the store is bounded.
const MAX_NAMES: usize = 4096;

/// The names interned so far, each leaked once (at most [`MAX_NAMES`] of
/// at most [`ExternalName::MAX`] bytes).
static NAMES: std::sync::Mutex<std::collections::BTreeMap<&'static str, &'static String>> =
    std::sync::Mutex::new(std::collections::BTreeMap::new());

impl ExternalName {
    /// The longest name, in bytes.
    pub const MAX: usize = 30;

    /// The name, checked.
    pub fn new(name: &str) -> Result<ExternalName, String> {
        if OracleId::is_builtin_id(name) {
            return Err(format!(
                "'{name}' is a built-in oracle's id; choose another name"
            ));
        }
        if name.is_empty()
            || !name
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || b"-_.".contains(&b))
        {
            return Err(format!(
                "{name:?}: an oracle name is letters, digits, '-', '_' and '.'"
            ));
        }
        if name.len() > ExternalName::MAX {
            return Err(format!(
                "'{name}': an oracle name is at most {} bytes",
                ExternalName::MAX
            ));
        }
        // A panic elsewhere while the lock was held leaves the map as it
        // was (an insert is the only write), so a poisoned lock is used.
        let mut names = NAMES
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        intern(&mut names, name, MAX_NAMES).map(ExternalName)
    }

    /// The name.
    pub fn as_str(&self) -> &'static str {
        self.0.as_str()
    }
}

/// `name`'s one stored copy in `names`, stored now if it is new and
/// `names` holds fewer than `limit`.
fn intern(
    names: &mut std::collections::BTreeMap<&'static str, &'static String>,
    name: &str,
    limit: usize,
) -> Result<&'static String, String> {
    if let Some(&text) = names.get(name) {
        return Ok(text);
    }
    if names.len() >= limit {
        return Err(format!(
            "'{name}': more than {limit} distinct external oracle names in one run"
        ));
    }
    let text: &'static String = Box::leak(Box::new(name.to_owned()));
    names.insert(text.as_str(), text);
    Ok(text)
}

impl PartialEq for ExternalName {
    fn eq(&self, other: &Self) -> bool {
        // Interned: one text, one address; the text decides all the same.
        std::ptr::eq(self.0, other.0) || self.as_str() == other.as_str()
    }
}

impl Eq for ExternalName {}

impl std::hash::Hash for ExternalName {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.as_str().hash(state);
    }
}

impl PartialOrd for ExternalName {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for ExternalName {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        self.as_str().cmp(other.as_str())
    }
}

// Two words, moved in registers (see `ExternalName`).
const _: () = assert!(std::mem::size_of::<OracleId>() <= 2 * std::mem::size_of::<usize>());
const _: () = assert!(std::mem::size_of::<Option<OracleId>>() <= 2 * std::mem::size_of::<usize>());

impl fmt::Debug for ExternalName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(self.as_str(), f)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// An external name is its text: equal texts are one stored copy, and
    /// names compare, order and hash as their texts, as when the text was
    /// held inline.
    #[test]
    fn an_external_name_is_its_text() {
        let name = |n: &str| match ExternalName::new(n) {
            Ok(name) => name,
            Err(e) => panic!("{n}: {e}"),
        };
        let (a, b) = (name("java-url"), name("java-url"));
        assert_eq!(a, b);
        assert!(std::ptr::eq(a.as_str(), b.as_str()), "stored once");
        assert_eq!(a.as_str(), "java-url");
        let mut sorted = [name("zz"), name("a-"), name("a"), name("B")];
        sorted.sort();
        let texts: Vec<&str> = sorted.iter().map(ExternalName::as_str).collect();
        assert_eq!(texts, ["B", "a", "a-", "zz"]);
        let set: std::collections::HashSet<ExternalName> = [a, b, name("zz")].into();
        assert_eq!(set.len(), 2);
        assert!(ExternalName::new(&"x".repeat(ExternalName::MAX + 1)).is_err());
        assert!(ExternalName::new("url").is_err(), "a built-in id");
    }

    /// The store of names is bounded: a name already stored is found
    /// again, a new one past the limit is refused with a message.
    #[test]
    fn the_store_of_names_is_bounded() {
        let mut names = std::collections::BTreeMap::new();
        let first = intern(&mut names, "one", 2);
        assert!(intern(&mut names, "two", 2).is_ok());
        let again = intern(&mut names, "one", 2);
        assert!(matches!((first, again), (Ok(x), Ok(y)) if std::ptr::eq(x, y)));
        let refused = intern(&mut names, "three", 2);
        assert!(
            matches!(&refused, Err(e) if e.contains("more than 2")),
            "{refused:?}"
        );
        assert_eq!(names.len(), 2);
    }
}
