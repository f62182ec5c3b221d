//! The invariants the `parse` and `resolve` fuzz targets hold the strict
//! parser to; `cargo test` checks the saved corpus against the same code.

use grammar::rfc2396::{self as g2396, Rfc2396};

use crate::oracle::appendix_b_split;
use crate::rfc2396::{self, AuthorityKind, Component, HostKind, RefKind, ResolveError, UriRef};

/// Checks the strict parser's invariants on `input`; `Err` says which broke.
/// The last, on every input, is [`rfc2396_grammar_agrees`]: what the saved
/// corpus's replay holds every input to.
pub fn parse_invariants(input: &str) -> Result<(), String> {
    strict_parser_invariants(input)?;
    rfc2396_grammar_agrees(input)
}

/// [`parse_invariants`] but the grammar's: what the `parse` fuzz target
/// checks. The RFC 2396 grammar runs on an Earley engine that costs some
/// hundred times the strict parser, so its agreement is the
/// `rfc2396-grammar` target's, and `parse` runs at the strict parser's
/// speed.
pub fn strict_parser_invariants(input: &str) -> Result<(), String> {
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

/// The strict parser's reading in the grammar crate's terms: spans, and
/// which alternative of `URI-reference`, `authority` and `host` it took.
fn as_grammar_reading(r: &UriRef<'_>) -> g2396::Components {
    let span = |c: Component| r.span(c);
    g2396::Components {
        form: match r.kind() {
            RefKind::AbsoluteHierarchical => g2396::Form::AbsoluteHierarchical,
            RefKind::AbsoluteOpaque => g2396::Form::AbsoluteOpaque,
            RefKind::NetPath => g2396::Form::NetPath,
            RefKind::AbsPath => g2396::Form::AbsPath,
            RefKind::RelPath => g2396::Form::RelPath,
            RefKind::Empty => g2396::Form::Empty,
        },
        scheme: span(Component::Scheme),
        authority: span(Component::Authority),
        authority_kind: r.authority_kind().map(|k| match k {
            AuthorityKind::Server => g2396::AuthorityKind::Server,
            AuthorityKind::RegName => g2396::AuthorityKind::RegName,
        }),
        userinfo: span(Component::Userinfo),
        host: span(Component::Host),
        host_kind: r.host_kind().map(|k| match k {
            HostKind::Hostname => g2396::HostKind::Hostname,
            HostKind::Ipv4 => g2396::HostKind::Ipv4,
        }),
        port: span(Component::Port),
        // The strict parser's path is never absent (an empty span where
        // the reference has none), as the grammar crate's.
        path: span(Component::Path).unwrap_or(0..0),
        query: span(Component::Query),
        fragment: span(Component::Fragment),
    }
}

/// The strict parser and RFC 2396 Appendix A run as text (the
/// `uridiff-grammar` crate) accept exactly the same inputs, and the strict
/// parser's components (spans and alternatives) are one of the grammar's
/// readings after section 4.3: the only one where there is one, one of
/// the `server | reg_name` readings (section 3.2) where the text leaves
/// both.
///
/// An input on which the grammar engine reaches one of its limits
/// (`grammar::Limits`: over 16 KiB, or a chart or forest too large) has no
/// grammar answer to compare with, and is not checked (`Ok`).
pub fn rfc2396_grammar_agrees(input: &str) -> Result<(), String> {
    let rfc = Rfc2396::get().map_err(|e| format!("the RFC 2396 grammar does not load: {e}"))?;
    let grammar = match rfc.parse(input) {
        Ok(outcome) => Ok(outcome),
        Err(e) if e.is_rejection() => Err(e),
        Err(_) => return Ok(()),
    };
    match (rfc2396::parse(input), grammar) {
        (Err(_), Err(_)) => Ok(()),
        (Ok(r), Err(e)) => Err(format!(
            "the strict parser accepts ({:?}); the RFC 2396 grammar rejects: {e}",
            r.kind()
        )),
        (Err(e), Ok(g)) => Err(format!(
            "the strict parser rejects ({e}); the RFC 2396 grammar accepts: {:?}",
            g.components().collect::<Vec<_>>()
        )),
        (Ok(r), Ok(g)) => {
            let strict = as_grammar_reading(&r);
            let agrees = match g.unique() {
                Some(only) => *only == strict,
                None => g.components().any(|c| *c == strict),
            };
            if agrees {
                Ok(())
            } else {
                Err(format!(
                    "the strict parser's reading {strict:?} is not the RFC 2396 grammar's {:?}",
                    g.components().collect::<Vec<_>>()
                ))
            }
        }
    }
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
