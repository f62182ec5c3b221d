//! The RFC 2396 Appendix B regular expression as an oracle:
//!
//! ```text
//! ^(([^:/?#]+):)?(//([^/?#]*))?([^?#]*)(\?([^#]*))?(#(.*))?
//!  12            3  4          5       6  7        8 9
//! ```
//!
//! It splits any string and never rejects. It is implemented as the
//! equivalent hand-written split (the expression has no real backtracking:
//! each group stops at the first delimiter it excludes), which the tests check
//! against the `regex` crate running the expression itself. `.` is read as
//! "any character" (the RFC's intent: the rest of the string), where many
//! regex engines would stop at a newline.

use super::Outcome;
use crate::components::{Component, ComponentSet, Components};

/// The five groups of Appendix B: `$2` scheme, `$4` authority, `$5` path,
/// `$7` query, `$9` fragment.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Split<'a> {
    /// `$2`
    pub scheme: Option<&'a str>,
    /// `$4`
    pub authority: Option<&'a str>,
    /// `$5`
    pub path: &'a str,
    /// `$7`
    pub query: Option<&'a str>,
    /// `$9`
    pub fragment: Option<&'a str>,
}

/// The first index at or after `from` whose byte is a `stop`, else the end.
#[inline(always)]
fn find_from(bytes: &[u8], from: usize, stop: impl Fn(u8) -> bool) -> usize {
    bytes
        .get(from..)
        .and_then(|rest| rest.iter().position(|&b| stop(b)))
        .map_or(bytes.len(), |i| from + i)
}

/// Splits `input` as the Appendix B expression does, in one left-to-right
/// pass: each group runs to the first byte it excludes.
pub fn split(input: &str) -> Split<'_> {
    let bytes = input.as_bytes();
    // `(([^:/?#]+):)?`
    let first = find_from(bytes, 0, |b| matches!(b, b':' | b'/' | b'?' | b'#'));
    let (scheme, mut at) = if first > 0 && bytes.get(first) == Some(&b':') {
        (input.get(..first), first + 1)
    } else {
        (None, 0)
    };
    // `(//([^/?#]*))?`
    let mut authority = None;
    if bytes.get(at..at + 2) == Some(b"//") {
        let stop = find_from(bytes, at + 2, |b| matches!(b, b'/' | b'?' | b'#'));
        authority = input.get(at + 2..stop);
        at = stop;
    }
    // `([^?#]*)`
    let path_end = find_from(bytes, at, |b| matches!(b, b'?' | b'#'));
    let path = input.get(at..path_end).unwrap_or_default();
    // `(\?([^#]*))?`
    let mut query = None;
    let mut at = path_end;
    if bytes.get(at) == Some(&b'?') {
        let stop = find_from(bytes, at + 1, |b| b == b'#');
        query = input.get(at + 1..stop);
        at = stop;
    }
    // `(#(.*))?`
    let fragment = if bytes.get(at) == Some(&b'#') {
        input.get(at + 1..)
    } else {
        None
    };
    Split {
        scheme,
        authority,
        path,
        query,
        fragment,
    }
}

/// What Appendix B speaks about: it does not split the authority.
const REPORTED: ComponentSet = ComponentSet::of(&[
    Component::Scheme,
    Component::Authority,
    Component::Path,
    Component::Query,
    Component::Fragment,
]);

/// Runs this oracle on `input` (its registry row is in `oracle/mod.rs`).
pub(super) fn run(input: &str) -> Outcome<'_> {
    let s = split(input);
    let mut c = Components::new(REPORTED);
    c.set(Component::Scheme, s.scheme);
    c.set(Component::Authority, s.authority);
    c.set(Component::Path, Some(s.path));
    c.set(Component::Query, s.query);
    c.set(Component::Fragment, s.fragment);
    Outcome::accept(c)
}

/// The Appendix B expression splits; it does not resolve.
pub(super) fn resolve(_base: &str, _reference: &str) -> Result<String, super::Refusal> {
    Err(super::Refusal::out_of_domain(
        "the Appendix B expression splits a reference; it does not resolve one",
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rfc_example_splits_into_the_five_groups() {
        // Appendix B's own example.
        let s = split("http://www.ics.uci.edu/pub/ietf/uri/#Related");
        assert_eq!(s.scheme, Some("http"));
        assert_eq!(s.authority, Some("www.ics.uci.edu"));
        assert_eq!(s.path, "/pub/ietf/uri/");
        assert_eq!(s.query, None);
        assert_eq!(s.fragment, Some("Related"));
    }

    #[test]
    fn opaque_query_is_split_off_and_empty_scheme_is_no_scheme() {
        let s = split("mailto:a@b?x");
        assert_eq!(
            (s.scheme, s.path, s.query),
            (Some("mailto"), "a@b", Some("x"))
        );
        let s = split(":x");
        assert_eq!((s.scheme, s.path), (None, ":x"));
        let s = split("a/b:c");
        assert_eq!((s.scheme, s.path), (None, "a/b:c"));
    }
}
