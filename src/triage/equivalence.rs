//! When two parsers' answers are one URI written two ways: the
//! equivalences RFC 3986 section 6.2 and RFC 2396 section 6 state, which
//! the arbiter leaves out of what peers, or a parser and its reference,
//! dispute.

use crate::components::{Component, ComponentSet};
use crate::oracle::{Outcome, Standard};

use super::host::scheme_of;
use super::text::{pct_normalized, pct_normalized_with};

/// The fields among `fields` where `a` and `b` write one URI two ways that
/// RFC 3986 section 6.2.2 calls equivalent (RFC 2396 section 6 says the
/// same of case): a scheme or host in another case, percent-encodings in
/// another hex case or of unreserved characters decoded (sections 6.2.2.1
/// and 6.2.2.2), a port with leading zeros (the same number, section
/// 6.2.3), two valid IP literals of one address; and the authority, where
/// every part of it is so equivalent.
/// Peers may normalise; only a different URI is a disagreement.
///
/// Between peers (`peers`: the texts the case parsed, its input and base),
/// also a port equal to the scheme's default against none
/// ([`default_port_elided`]) and two valid IP literals of one address of
/// which one is the literal as written and the other RFC 5952's
/// recommended text form ([`rewritten_as_rfc5952`]); against a reference,
/// those stay its variations (`default-port`, `ipv6-text-form`).
pub(crate) fn equivalent_fields(
    a: &Outcome<'_>,
    b: &Outcome<'_>,
    fields: ComponentSet,
    standard: Standard,
    peers: Option<&[&str]>,
) -> ComponentSet {
    // RFC 2396 section 2.3: its unreserved characters are RFC 3986's and
    // the marks `!*'()`, which "can be escaped without changing the
    // semantics of the URI"; in RFC 3986 those are sub-delims, reserved
    // (section 2.2: their escapes are other URIs).
    let normalized = |t: &str| match standard {
        Standard::Rfc2396 => pct_normalized_with(t, b"!*'()"),
        _ => pct_normalized(t),
    };
    let mut same = ComponentSet::EMPTY;
    for c in fields.iter() {
        if peers.is_some() && c == Component::Port && default_port_elided(a, b) {
            same = same.with(c);
            continue;
        }
        let (Some(x), Some(y)) = (a.components.get(c), b.components.get(c)) else {
            continue;
        };
        let equivalent = match c {
            // The literal as written and RFC 5952's form of it (uri-js
            // documents "IPv6 normalization"; RFC 4291 section 2.2's text
            // forms) name one host. (A parser that writes another form,
            // uriparser's eight groups of four digits, still departs from
            // RFC 3986 section 5.3's recomposition.)
            Component::Host if peers.is_some_and(|texts| rewritten_as_rfc5952(texts, x, y)) => true,
            Component::Scheme | Component::Host => {
                normalized(x).eq_ignore_ascii_case(&normalized(y))
            }
            Component::Port => same_port_number(x, y),
            Component::Userinfo | Component::Path | Component::Query | Component::Fragment => {
                normalized(x) == normalized(y)
            }
            Component::Authority => false,
        };
        if equivalent {
            same = same.with(c);
        }
    }
    let parts = ComponentSet::of(&[Component::Userinfo, Component::Host, Component::Port]);
    let parts_differ = !fields.difference(same).intersection(parts).is_empty();
    let both_split = [a, b]
        .iter()
        .all(|o| o.components.get(Component::Host).is_some());
    if fields.contains(Component::Authority) && both_split && !parts_differ {
        same = same.with(Component::Authority);
    }
    same
}

/// Are `x` and `y` one port number, written in decimal (RFC 3986 section
/// 3.2.3: "The port subcomponent ... in decimal"), leading zeros aside
/// (section 6.2.3), whatever its size? A parser whose port is an integer
/// by design (Addressable's `#port`, uri-js's and fast-uri's `port`,
/// java.net.URI's `getPort`) reports `0000095182149384` as `95182149384`,
/// which is more than 32 bits hold: the digits are compared, not a
/// machine integer.
fn same_port_number(x: &str, y: &str) -> bool {
    let digits = |p: &str| !p.is_empty() && p.bytes().all(|b| b.is_ascii_digit());
    digits(x) && digits(y) && x.trim_start_matches('0') == y.trim_start_matches('0')
}

/// Is one of `x` and `y` an IP literal of `texts` as written and the other
/// that literal's address in RFC 5952's recommended text form (section 4),
/// both valid literals?
fn rewritten_as_rfc5952(texts: &[&str], x: &str, y: &str) -> bool {
    let rfc5952 = |h: &str| {
        h.strip_prefix('[')
            .and_then(|h| h.strip_suffix(']'))
            .and_then(|inner| inner.parse::<std::net::Ipv6Addr>().ok())
            .is_some_and(|address| format!("[{address}]") == h)
    };
    let written = |h: &str| {
        texts
            .iter()
            .any(|t| super::reading::input_literal(t) == Some(h))
    };
    [x, y].iter().all(|h| super::ip_literal::is_ip_literal(h))
        && super::host::same_address(x, y)
        && ((written(x) && rfc5952(y)) || (written(y) && rfc5952(x)))
}

/// Does one of `a` and `b` write its scheme's default port where the other
/// writes none? Equivalent: RFC 2396 section 6 ("a URL with an explicit
/// ":port", where the port is the default for the scheme, is equivalent to
/// one where the port is elided"), RFC 3986 section 6.2.3. The port is
/// compared as a number (`000080` is 80).
fn default_port_elided(a: &Outcome<'_>, b: &Outcome<'_>) -> bool {
    let Some(default) = scheme_of(a, b).and_then(super::host::scheme_default_port) else {
        return false;
    };
    match (
        a.components.get(Component::Port),
        b.components.get(Component::Port),
    ) {
        (Some(p), None) | (None, Some(p)) => same_port_number(p, &default.to_string()),
        _ => false,
    }
}

#[cfg(test)]
pub(super) mod tests {
    use super::*;

    /// A port is one number however many leading zeros and digits it has;
    /// a port that is no decimal number (uri-js's float `6.3e+145`) is
    /// no number at all.
    #[test]
    fn ports_compare_as_decimal_numbers_of_any_size() {
        assert!(same_port_number("0000095182149384", "95182149384"));
        assert!(same_port_number("080", "80"));
        assert!(same_port_number("0", "000"));
        assert!(!same_port_number("95182149384", "95182149385"));
        assert!(!same_port_number("6333", "6.333e+3"));
        assert!(!same_port_number("", "0"));
    }

    /// Between peers: a ws port 80 (however written) against none (RFC 2396
    /// section 6), two text forms of one IPv6 address, and RFC 2396's
    /// escaped marks (section 2.3) are the same URI; RFC 3986 keeps `%27`
    /// apart from `'` (a sub-delim, section 2.2), and a reference comparison
    /// leaves the port and the literal to their variations.
    #[test]
    fn peers_compare_equivalent_uris_as_their_standard_says() {
        let with = |pairs: &[(Component, &'static str)]| {
            let mut c = crate::components::Components::new(ComponentSet::ALL);
            for &(k, v) in pairs {
                c.set(k, Some(v));
            }
            Outcome::accept(c)
        };
        let port = ComponentSet::of(&[Component::Port]);
        let ws80 = with(&[(Component::Scheme, "ws"), (Component::Port, "000080")]);
        let ws = with(&[(Component::Scheme, "ws")]);
        assert_eq!(
            equivalent_fields(&ws80, &ws, port, Standard::Rfc2396, Some(&[])),
            port
        );
        assert!(equivalent_fields(&ws80, &ws, port, Standard::Rfc2396, None).is_empty());
        let ws81 = with(&[(Component::Scheme, "ws"), (Component::Port, "81")]);
        assert!(equivalent_fields(&ws81, &ws, port, Standard::Rfc2396, Some(&[])).is_empty());
        let host = ComponentSet::of(&[Component::Host]);
        let (a, b) = (
            outcome("[::1:802:80:2:80:0]"),
            outcome("[::1:802:80:002:80:0]"),
        );
        let texts: &[&str] = &["", "siwl://[::1:802:80:002:80:0]/.//"];
        assert_eq!(
            equivalent_fields(&a, &b, host, Standard::Rfc3986, Some(texts)),
            host
        );
        assert!(equivalent_fields(&a, &b, host, Standard::Rfc3986, None).is_empty());
        // uriparser writes an address from its bytes, not RFC 5952's form.
        let (u, r) = (
            outcome("[0000:0000:0000:0000:0000:0000:0000:0000]"),
            outcome("[::]"),
        );
        let texts: &[&str] = &["", "l://[::]"];
        assert!(equivalent_fields(&u, &r, host, Standard::Rfc3986, Some(texts)).is_empty());
        let query = ComponentSet::of(&[Component::Query]);
        let (q, qe) = (
            with(&[(Component::Query, "777707'")]),
            with(&[(Component::Query, "777707%27")]),
        );
        assert_eq!(
            equivalent_fields(&q, &qe, query, Standard::Rfc2396, Some(&[])),
            query
        );
        assert!(equivalent_fields(&q, &qe, query, Standard::Rfc3986, Some(&[])).is_empty());
    }

    /// An accepted outcome with this host (and scheme `s`).
    pub(in crate::triage) fn outcome(host: &'static str) -> Outcome<'static> {
        let mut c = crate::components::Components::new(ComponentSet::ALL);
        c.set(Component::Scheme, Some("s"));
        c.set(Component::Authority, Some(host));
        c.set(Component::Host, Some(host));
        Outcome::accept(c)
    }
}
