//! A one-pass reading of RFC 3986's `URI-reference` (Appendix A) for the
//! inputs whose reading takes no choice: the Earley engine's answer
//! without the engine, in time linear in the input.
//!
//! Outside an `IP-literal` every delimiter of RFC 3986 is decided by the
//! first occurrence of a byte (Appendix B's regular expression says the
//! same): the fragment starts after the first `#`, the query after the
//! first `?` before it, the scheme ends at a `:` that comes before any
//! `/` (a `relative-ref` has none there: `path-noscheme`'s first segment is
//! `segment-nz-nc`), the authority runs from `//` to the next `/`, the
//! userinfo ends at its `@` (neither `userinfo` nor `host` holds one), and
//! a `reg-name` holds no `:`, so the port follows the first `:` of the
//! host and port. The one ambiguity of the grammar, `IPv4address` against
//! `reg-name` (section 3.2.2), gives the same span either way.
//!
//! [`read`] answers only where the input is in the language and it is
//! sure of every span; anything else (a `[`, a character outside a
//! component's set, an input near the engine's length limit) is `None`,
//! and the caller asks the Earley engine, whose refusal names the
//! offending byte. A test runs both over the saved corpus and the
//! benchmark's URLs and asks for the same outcome wherever this one
//! answers.

use crate::components::{Component, ComponentSet, Components};

/// Longer inputs go to the engine (its limit is 16 KiB; an input near
/// it is no common case).
const MAX_INPUT: usize = 4096;

/// `unreserved / sub-delims` (section 2.3, 2.2).
fn is_unreserved_or_sub_delim(b: u8) -> bool {
    b.is_ascii_alphanumeric()
        || matches!(
            b,
            b'-' | b'.'
                | b'_'
                | b'~'
                | b'!'
                | b'$'
                | b'&'
                | b'\''
                | b'('
                | b')'
                | b'*'
                | b'+'
                | b','
                | b';'
                | b'='
        )
}

/// Is every byte of `text` in `extra` or `unreserved / sub-delims`, and
/// every `%` the start of a `pct-encoded`?
fn all_of(text: &[u8], extra: &[u8]) -> bool {
    let mut i = 0;
    while let Some(&b) = text.get(i) {
        if b == b'%' {
            let hex = |j: usize| text.get(j).is_some_and(u8::is_ascii_hexdigit);
            if !(hex(i + 1) && hex(i + 2)) {
                return false;
            }
            i += 3;
        } else if is_unreserved_or_sub_delim(b) || extra.contains(&b) {
            i += 1;
        } else {
            return false;
        }
    }
    true
}

/// `pchar` (section 3.3) and `/`: a path.
const PATH: &[u8] = b":@/";
/// `pchar / "/" / "?"`: a query or fragment (sections 3.4, 3.5).
const QUERY: &[u8] = b":@/?";

/// `scheme = ALPHA *( ALPHA / DIGIT / "+" / "-" / "." )` (section 3.1).
fn is_scheme(text: &[u8]) -> bool {
    text.first().is_some_and(u8::is_ascii_alphabetic)
        && text
            .iter()
            .all(|&b| b.is_ascii_alphanumeric() || matches!(b, b'+' | b'-' | b'.'))
}

/// The ranges of `authority = [ userinfo "@" ] host [ ":" port ]` at
/// `start` (userinfo, host, port), or `None` where it is not one without
/// an `IP-literal`.
#[allow(clippy::type_complexity)]
fn authority(
    text: &[u8],
    start: usize,
) -> Option<(
    Option<(usize, usize)>,
    (usize, usize),
    Option<(usize, usize)>,
)> {
    let (userinfo, host_from) = match text.iter().position(|&b| b == b'@') {
        Some(at) => {
            let userinfo = text.get(..at)?;
            if !all_of(userinfo, b":") {
                return None;
            }
            (Some((start, start + at)), at + 1)
        }
        None => (None, 0),
    };
    let hostport = text.get(host_from..)?;
    let (host, port) = match hostport.iter().position(|&b| b == b':') {
        Some(colon) => (hostport.get(..colon)?, Some(hostport.get(colon + 1..)?)),
        None => (hostport, None),
    };
    // `reg-name = *( unreserved / pct-encoded / sub-delims )`; an
    // `IPv4address` is made of the same bytes.
    if !all_of(host, b"") || !port.is_none_or(|p| p.iter().all(u8::is_ascii_digit)) {
        return None;
    }
    let host_start = start + host_from;
    let host_end = host_start + host.len();
    Some((
        userinfo,
        (host_start, host_end),
        port.map(|p| (host_end + 1, host_end + 1 + p.len())),
    ))
}

/// The components of `input` as RFC 3986 Appendix A reads it, where the
/// reading is certain without the engine; `None` sends the input to it.
pub(super) fn read(input: &str) -> Option<Components<'_>> {
    let bytes = input.as_bytes();
    if bytes.len() > MAX_INPUT || bytes.iter().any(|&b| b == b'[' || b == b']') {
        return None;
    }
    let (before_fragment, fragment) = match bytes.iter().position(|&b| b == b'#') {
        Some(hash) => (hash, Some(hash + 1)),
        None => (bytes.len(), None),
    };
    let (before_query, query) = match bytes
        .get(..before_fragment)?
        .iter()
        .position(|&b| b == b'?')
    {
        Some(q) => (q, Some(q + 1)),
        None => (before_fragment, None),
    };
    if let Some(f) = fragment
        && !all_of(bytes.get(f..)?, QUERY)
    {
        return None;
    }
    if let Some(q) = query
        && !all_of(bytes.get(q..before_fragment)?, QUERY)
    {
        return None;
    }
    let head = bytes.get(..before_query)?;
    // A `:` before any `/` ends a scheme; in a `relative-ref` there is none.
    let first_colon = head.iter().position(|&b| b == b':');
    let first_slash = head.iter().position(|&b| b == b'/');
    let scheme_end = match (first_colon, first_slash) {
        (Some(c), Some(s)) if c < s => Some(c),
        (Some(c), None) => Some(c),
        _ => None,
    };
    let rest_from = match scheme_end {
        Some(c) if is_scheme(head.get(..c)?) => c + 1,
        Some(_) => return None,
        None => 0,
    };
    let rest = head.get(rest_from..)?;
    let mut out = Components::new(ComponentSet::ALL);
    let mut path_from = rest_from;
    if let Some(after) = rest.strip_prefix(b"//") {
        let auth_start = rest_from + 2;
        let auth_len = after.iter().position(|&b| b == b'/').unwrap_or(after.len());
        let (userinfo, host, port) = authority(after.get(..auth_len)?, auth_start)?;
        out.set(
            Component::Authority,
            input.get(auth_start..auth_start + auth_len),
        );
        out.set(
            Component::Userinfo,
            userinfo.and_then(|(a, b)| input.get(a..b)),
        );
        out.set(Component::Host, input.get(host.0..host.1));
        out.set(Component::Port, port.and_then(|(a, b)| input.get(a..b)));
        path_from = auth_start + auth_len;
    } else {
        // `path-absolute`, `path-rootless`, `path-noscheme` or
        // `path-empty`: `//` is excluded above, and a `path-noscheme`'s
        // first segment holds no `:` (the scheme test). The authority's
        // parts stay absent.
    }
    let path = head.get(path_from..)?;
    if !all_of(path, PATH) {
        return None;
    }
    out.set(Component::Scheme, scheme_end.and_then(|c| input.get(..c)));
    out.set(Component::Path, input.get(path_from..before_query));
    out.set(
        Component::Query,
        query.and_then(|q| input.get(q..before_fragment)),
    );
    out.set(Component::Fragment, fragment.and_then(|f| input.get(f..)));
    Some(out)
}
