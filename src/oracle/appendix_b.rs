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

use super::{Oracle, OracleId, Outcome};
use crate::components::{Component, ComponentSet, Components};

/// The Appendix B regular expression.
#[derive(Clone, Copy, Debug, Default)]
pub struct AppendixB;

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

/// Splits `input` as the Appendix B expression does.
pub fn split(input: &str) -> Split<'_> {
    let (body, fragment) = match input.split_once('#') {
        Some((body, fragment)) => (body, Some(fragment)),
        None => (input, None),
    };
    let (body, query) = match body.split_once('?') {
        Some((body, query)) => (body, Some(query)),
        None => (body, None),
    };
    // `(([^:/?#]+):)?`: a non-empty run free of ":/?#", then ':'.
    let (scheme, rest) = match body.find([':', '/']) {
        Some(i) if i > 0 && body.as_bytes().get(i) == Some(&b':') => {
            (body.get(..i), body.get(i + 1..).unwrap_or(""))
        }
        _ => (None, body),
    };
    // `(//([^/?#]*))?`
    let (authority, path) = match rest.strip_prefix("//") {
        Some(after) => {
            let end = after.find('/').unwrap_or(after.len());
            (after.get(..end), after.get(end..).unwrap_or(""))
        }
        None => (None, rest),
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

impl Oracle for AppendixB {
    fn id(&self) -> OracleId {
        OracleId::AppendixB
    }

    fn run<'a>(&self, input: &'a str) -> Outcome<'a> {
        let s = split(input);
        let mut c = Components::new(REPORTED);
        c.set(Component::Scheme, s.scheme);
        c.set(Component::Authority, s.authority);
        c.set(Component::Path, Some(s.path));
        c.set(Component::Query, s.query);
        c.set(Component::Fragment, s.fragment);
        Outcome::accept(c)
    }
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
