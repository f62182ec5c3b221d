//! Section 5.2: resolving a relative reference against a base URI.
//!
//! The Appendix C table is the law; the choices the RFC leaves open are
//! listed on [`resolve`](fn@resolve).

use std::fmt;

use crate::error::ParseError;
use crate::parse::{UriRef, parse, parse_allowing_query_only};

/// Why a reference could not be resolved.
///
/// Not `#[non_exhaustive]`: Section 5.2 is fixed, and a caller that sorts
/// refusals (the uridiff harness does) should fail to compile when a new one
/// appears rather than file it under a wildcard.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ResolveError {
    /// The base is not an RFC 2396 URI-reference.
    InvalidBase(ParseError),
    /// The reference is not an RFC 2396 URI-reference (query-only references
    /// such as `?y` are accepted, as Appendix C resolves them).
    InvalidReference(ParseError),
    /// The base has no scheme; Section 5.2 needs an absolute base URI.
    RelativeBase,
    /// The base has an `opaque_part`, so a relative path has nothing to merge with.
    OpaqueBase,
    /// The result would have no authority and a path starting with `//`,
    /// which would re-parse as an authority.
    AmbiguousPath(String),
}

impl fmt::Display for ResolveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ResolveError::InvalidBase(e) => write!(f, "invalid base URI: {e}"),
            ResolveError::InvalidReference(e) => write!(f, "invalid reference: {e}"),
            ResolveError::RelativeBase => f.write_str(
                "the base URI must be absolute (have a scheme) to resolve against (RFC 2396 section 5.2)",
            ),
            ResolveError::OpaqueBase => f.write_str(
                "the base URI has an opaque_part: only hierarchical URIs can resolve a relative path (RFC 2396 section 5.2)",
            ),
            ResolveError::AmbiguousPath(path) => write!(
                f,
                "the resolved path {path:?} starts with '//' but has no authority, so it would re-parse as an authority"
            ),
        }
    }
}

impl std::error::Error for ResolveError {}

/// Resolves `reference` against `base` following RFC 2396 Section 5.2.
///
/// The Appendix C table is the law. Choices the RFC leaves open, and what we
/// chose:
///
/// - `http:g` is returned as `http:g` (the "validating parser" reading of
///   step 3), not resolved for backwards compatibility.
/// - `?y` resolves as Appendix C says (`http://a/b/c/?y`) although
///   [`parse`](fn@crate::parse) rejects it: a query-only reference is read with an empty
///   path and goes through the merge of step 6.
/// - Leading `..` segments that cannot be removed are kept (step 6g), as the
///   RFC's own examples do (`../../../g` gives `http://a/../g`).
/// - A base with an authority and an empty path (`http://a`) merges as if its
///   path were `/` (the fix RFC 3986 section 5.2.3 made); RFC 2396 would glue
///   the segment onto the authority (`http://ag`).
/// - A result with no authority whose path starts with `//` would re-parse
///   with a different authority; that is an error rather than a silent change
///   of meaning.
/// - Only a hierarchical base can resolve a relative path; an opaque base
///   (`mailto:x`) resolves only the empty and fragment-only references.
///
/// ```
/// use rfc2396::resolve;
/// assert_eq!(resolve("http://a/b/c/d;p?q", "../g").unwrap(), "http://a/b/g");
/// assert_eq!(resolve("http://a/b/c/d;p?q", "?y").unwrap(), "http://a/b/c/?y");
/// ```
pub fn resolve(base: &str, reference: &str) -> Result<String, ResolveError> {
    let base = parse(base).map_err(ResolveError::InvalidBase)?;
    let reference = parse_allowing_query_only(reference).map_err(ResolveError::InvalidReference)?;
    resolve_parsed(&base, &reference)
}

/// [`resolve`](fn@resolve) on references that are already parsed.
pub fn resolve_parsed(base: &UriRef<'_>, reference: &UriRef<'_>) -> Result<String, ResolveError> {
    let Some(base_scheme) = base.scheme() else {
        return Err(ResolveError::RelativeBase);
    };

    // Step 2: a reference to the current document.
    if reference.path().is_empty()
        && reference.scheme().is_none()
        && reference.authority().is_none()
        && reference.query().is_none()
    {
        let mut out = without_fragment(base);
        push_fragment(&mut out, reference.fragment());
        return Ok(out);
    }

    // Step 3: an absolute reference stands as it is.
    if reference.scheme().is_some() {
        return Ok(reference.to_string());
    }
    if base.is_opaque() {
        return Err(ResolveError::OpaqueBase);
    }

    // Step 4: a net_path keeps its own authority and path.
    let (authority, path) = if let Some(authority) = reference.authority() {
        (Some(authority), reference.path().to_owned())
    } else if reference.path().starts_with('/') {
        // Step 5: an abs_path is used as it is (no dot-segment removal).
        (base.authority(), reference.path().to_owned())
    } else {
        // Step 6: merge a rel_path with the base path.
        (base.authority(), merge(base, reference.path()))
    };

    if authority.is_none() && path.starts_with("//") {
        return Err(ResolveError::AmbiguousPath(path));
    }

    // Step 7: recombine.
    let mut out = String::with_capacity(
        base_scheme.len() + 3 + authority.map_or(0, str::len) + path.len() + 2,
    );
    out.push_str(base_scheme);
    out.push(':');
    if let Some(authority) = authority {
        out.push_str("//");
        out.push_str(authority);
    }
    out.push_str(&path);
    if let Some(query) = reference.query() {
        out.push('?');
        out.push_str(query);
    }
    push_fragment(&mut out, reference.fragment());
    Ok(out)
}

fn without_fragment(base: &UriRef<'_>) -> String {
    let text = base.as_str();
    match base.fragment() {
        // The fragment and its '#' are the tail of the input.
        Some(f) => text
            .get(..text.len() - f.len() - 1)
            .unwrap_or(text)
            .to_owned(),
        None => text.to_owned(),
    }
}

fn push_fragment(out: &mut String, fragment: Option<&str>) {
    if let Some(fragment) = fragment {
        out.push('#');
        out.push_str(fragment);
    }
}

/// Step 6 (a)-(h): merge `rel_path` with the base path and remove dot segments.
fn merge(base: &UriRef<'_>, rel_path: &str) -> String {
    // (a) all but the last segment of the base path. An empty base path with
    // an authority counts as "/" (see the module comment).
    let base_path = base.path();
    let prefix = match base_path.rfind('/') {
        Some(slash) => base_path.get(..=slash).unwrap_or("/"),
        None => "/",
    };
    // (b) append the reference's path.
    let mut buffer = String::with_capacity(prefix.len() + rel_path.len());
    buffer.push_str(prefix);
    buffer.push_str(rel_path);
    remove_dot_segments(&buffer)
}

/// Step 6 (c)-(g) on a buffer that starts with `/`.
///
/// The RFC states the steps as repeated string rewrites; a stack of segments
/// does the same work in one pass. (c)/(d) drop every complete `.` segment; a
/// `.` in last place leaves the trailing `/`. (e)/(f) remove `<segment>/..`
/// where `<segment>` is a complete segment other than `..`, left to right;
/// (g) `..` segments with nothing left to remove are kept.
///
/// The stack is the output itself, its segments joined by `/` (no segment
/// holds one), with their count kept beside it: an empty stack and one
/// empty segment write the same text. Popping a segment finds where it
/// starts by looking back over it alone, so the pass stays linear; and the
/// result needs no `Vec` of segments and no `join` (triage removes dot
/// segments from both sides of a path disagreement, on every such input).
pub fn remove_dot_segments(buffer: &str) -> String {
    let rooted = buffer.starts_with('/');
    let body = if rooted {
        buffer.get(1..).unwrap_or("")
    } else {
        buffer
    };
    let mut out = String::with_capacity(buffer.len());
    if rooted {
        out.push('/');
    }
    let base = out.len();
    let mut kept = 0usize;
    let push = |out: &mut String, kept: &mut usize, segment: &str| {
        if *kept > 0 {
            out.push('/');
        }
        out.push_str(segment);
        *kept += 1;
    };
    let mut segments = body.split('/').peekable();
    while let Some(segment) = segments.next() {
        let last = segments.peek().is_none();
        match segment {
            "." => {}
            ".." if kept > 0 => {
                // The top segment starts after the last `/` of the stack.
                let stack = out.get(base..).unwrap_or_default();
                let top = stack.rfind('/').map_or(0, |at| at + 1);
                if stack.get(top..) == Some("..") {
                    push(&mut out, &mut kept, segment);
                    continue;
                }
                // Its separator goes with it (the first segment has none).
                out.truncate(base + top.saturating_sub(1));
                kept -= 1;
            }
            _ => {
                push(&mut out, &mut kept, segment);
                continue;
            }
        }
        if last {
            // The path ended in a removed segment: it keeps its trailing '/'.
            push(&mut out, &mut kept, "");
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The stack of segments the removal once built, and joined.
    fn with_a_stack(buffer: &str) -> String {
        let rooted = buffer.starts_with('/');
        let body = if rooted { &buffer[1..] } else { buffer };
        let mut stack: Vec<&str> = Vec::new();
        let mut segments = body.split('/').peekable();
        while let Some(segment) = segments.next() {
            let last = segments.peek().is_none();
            match segment {
                "." => {}
                ".." if stack.last().is_some_and(|top| *top != "..") => {
                    stack.pop();
                }
                _ => {
                    stack.push(segment);
                    continue;
                }
            }
            if last {
                stack.push("");
            }
        }
        format!("{}{}", if rooted { "/" } else { "" }, stack.join("/"))
    }

    /// Every path of up to five segments drawn from a few that matter
    /// (empty, `.`, `..`, a name, `..x`), rooted or not: the removal gives
    /// what the stack of segments gave.
    #[test]
    fn dot_segment_removal_is_the_stack_of_segments() {
        let parts = ["", ".", "..", "a", "..x", "bc"];
        let mut paths = vec![String::new()];
        for _ in 0..5 {
            let longer: Vec<String> = paths
                .iter()
                .flat_map(|p| parts.iter().map(move |s| format!("{p}/{s}")))
                .collect();
            paths.extend(longer);
        }
        for path in &paths {
            for text in [path.as_str(), path.get(1..).unwrap_or_default()] {
                assert_eq!(remove_dot_segments(text), with_a_stack(text), "{text:?}");
            }
        }
    }

    #[test]
    fn dot_segment_removal_matches_rfc_steps() {
        for (input, expected) in [
            ("/b/c/g", "/b/c/g"),
            ("/b/c/.", "/b/c/"),
            ("/b/c/..", "/b/"),
            ("/b/c/../..", "/"),
            ("/b/c/../../../g", "/../g"),
            ("/b/c/../../../../g", "/../../g"),
            ("/b/c/./../g", "/b/g"),
            ("/b/c/g;x=1/../y", "/b/c/y"),
            ("/a//../b", "/a/b"),
            ("/", "/"),
            ("/..", "/.."),
            ("/../a/../b", "/../b"),
        ] {
            assert_eq!(remove_dot_segments(input), expected, "{input}");
        }
    }

    #[test]
    fn empty_base_path_with_authority_merges_under_root() {
        assert_eq!(resolve("http://a", "g").as_deref(), Ok("http://a/g"));
    }

    #[test]
    fn opaque_and_relative_bases_are_errors() {
        assert_eq!(resolve("mailto:x", "g"), Err(ResolveError::OpaqueBase));
        assert_eq!(resolve("mailto:x#a", "#b").as_deref(), Ok("mailto:x#b"));
        assert_eq!(resolve("/a/b", "g"), Err(ResolveError::RelativeBase));
    }

    #[test]
    fn authorityless_double_slash_result_is_rejected() {
        assert!(matches!(
            resolve("foo:/a/b", "..//g"),
            Err(ResolveError::AmbiguousPath(_))
        ));
    }
}
