//! The invariants the `parse` and `resolve` fuzz targets hold the strict
//! parser to; `cargo test` checks the saved corpus against the same code.

use crate::oracle::appendix_b_split;
use crate::rfc2396::{self, Component, RefKind, ResolveError};

/// Checks the strict parser's invariants on `input`; `Err` says which broke.
pub fn parse_invariants(input: &str) -> Result<(), String> {
    let r = match rfc2396::parse(input) {
        Ok(r) => r,
        Err(e) => {
            if e.index() > input.len() || !input.is_char_boundary(e.index()) {
                return Err(format!(
                    "error index {} outside the input or off a char boundary",
                    e.index()
                ));
            }
            return Ok(());
        }
    };
    let recomposed = r.to_string();
    if recomposed != input {
        return Err(format!("recomposes to {recomposed:?}"));
    }
    let mut last_end = 0;
    for c in [
        Component::Scheme,
        Component::Authority,
        Component::Path,
        Component::Query,
        Component::Fragment,
    ] {
        if let Some(span) = r.span(c) {
            if span.start < last_end || span.end > input.len() || span.start > span.end {
                return Err(format!("{c:?} span {span:?} out of order or bounds"));
            }
            if !input.is_char_boundary(span.start) || !input.is_char_boundary(span.end) {
                return Err(format!("{c:?} span {span:?} off a char boundary"));
            }
            last_end = span.end;
        }
    }
    if let Some(authority) = r.span(Component::Authority) {
        let mut at = authority.start;
        for c in [Component::Userinfo, Component::Host, Component::Port] {
            if let Some(span) = r.span(c) {
                if span.start < at || span.end > authority.end {
                    return Err(format!(
                        "{c:?} span {span:?} outside the authority {authority:?}"
                    ));
                }
                at = span.end;
            }
        }
    }
    // Appendix B splits every valid reference the same way, except that a
    // `?` in an opaque_part belongs to the path for RFC 2396.
    let b = appendix_b_split(input);
    let mut expected_path = b.path.to_owned();
    let mut expected_query = b.query;
    if r.kind() == RefKind::AbsoluteOpaque
        && let Some(q) = b.query
    {
        expected_path = format!("{}?{q}", b.path);
        expected_query = None;
    }
    let agree = r.scheme() == b.scheme
        && r.authority() == b.authority
        && r.path() == expected_path
        && r.query() == expected_query
        && r.fragment() == b.fragment;
    if !agree {
        return Err(format!("disagrees with the Appendix B split {b:?}"));
    }
    Ok(())
}

/// Checks resolution invariants on (base, reference); `Err` says which broke.
pub fn resolve_invariants(base: &str, reference: &str) -> Result<(), String> {
    let result = rfc2396::resolve(base, reference);
    let base_ok = rfc2396::parse(base).is_ok_and(|b| b.kind().is_absolute());
    match result {
        Ok(resolved) => {
            if !base_ok {
                return Err(format!(
                    "resolved {resolved:?} against a base that is not absolute"
                ));
            }
            match rfc2396::parse(&resolved) {
                Ok(r) if r.kind().is_absolute() => Ok(()),
                Ok(r) => Err(format!(
                    "result {resolved:?} is {:?}, not absolute",
                    r.kind()
                )),
                Err(e) => Err(format!("result {resolved:?} does not parse: {e}")),
            }
        }
        // Documented refusals; listed one by one so that a new error
        // variant must be classified here before it compiles.
        Err(
            ResolveError::InvalidBase(_)
            | ResolveError::InvalidReference(_)
            | ResolveError::RelativeBase
            | ResolveError::OpaqueBase
            | ResolveError::AmbiguousPath(_),
        ) => Ok(()),
    }
}
