//! A scheme's own syntax, narrower than the generic one (RFC 3986 section
//! 3.1 and RFC 2396 section 3 leave the scheme-specific part to the
//! scheme's specification): where a parser documents validating a URI of
//! that scheme by it (its descriptor's `scheme_syntax`), refusing what the
//! scheme's syntax refuses is no departure from the generic syntax.

use crate::components::Component;
use crate::oracle::external::SchemeSyntax;
use crate::oracle::{OracleId, Outcome};

use super::text::decoded;

/// Does `id` document validating URIs of `accepted`'s scheme by that
/// scheme's syntax, and is `accepted` (another parser's reading of the
/// same input) no URI of that syntax? Where `accepted` does not report
/// what the syntax needs (its path), nothing is said.
pub(crate) fn refused_by_scheme(id: OracleId, accepted: &Outcome<'_>) -> bool {
    let Some((syntaxes, _)) = id.descriptor().scheme_syntax else {
        return false;
    };
    let c = &accepted.components;
    let Some(scheme) = c.get(Component::Scheme) else {
        return false;
    };
    syntaxes.iter().any(|syntax| match syntax {
        SchemeSyntax::Mailto => {
            scheme.eq_ignore_ascii_case("mailto")
                && c.get(Component::Path).is_some_and(|path| {
                    c.get(Component::Authority).is_some()
                        || c.get(Component::Host).is_some()
                        || !is_mailto(path, c.get(Component::Query))
                })
        }
    })
}

/// Is `path` (and `query`, where the parser split one off) the text of an
/// RFC 6068 mailto URI after `mailto:`? RFC 6068 section 2: `[ to ] [
/// hfields ]`. Read leniently where the RFC leaves room (non-ASCII octets
/// as RFC 6532's UTF-8 `atext`; `&`, `;`, `=` unencoded in an address),
/// so that only what the syntax plainly refuses is refused.
fn is_mailto(path: &str, query: Option<&str>) -> bool {
    // A parser that reads the whole text as an opaque part (RFC 2396's
    // `opaque_part`) keeps the `?` and the headers in its path.
    let (to, headers) = match (path.split_once('?'), query) {
        (Some((to, headers)), None) => (to, Some(headers)),
        (Some(_), Some(_)) => return false,
        (None, query) => (path, query),
    };
    (to.is_empty() || to.split(',').all(is_address)) && headers.is_none_or(is_hfields)
}

/// `addr-spec` as RFC 6068 section 2 writes it in a URI: no character that
/// section requires percent-encoded (those no URI has, `%` of no escape,
/// `/`, `?`, `#`, `[`, `]`), and once decoded RFC 5322 section 3.4.1's
/// `local-part "@" domain` (`dot-atom-text` or `quoted-string`, then
/// `dot-atom-text` or a bracketed `dtext-no-obs`).
fn is_address(text: &str) -> bool {
    if !uri_chars(text, b"!$&'()*+,;=:@") {
        return false;
    }
    let octets = decoded(text);
    let Some(at) = local_part_end(&octets) else {
        return false;
    };
    let (Some(b'@'), Some(domain)) = (octets.get(at), octets.get(at + 1..)) else {
        return false;
    };
    is_dot_atom(domain)
        || domain
            .strip_prefix(b"[")
            .and_then(|d| d.strip_suffix(b"]"))
            .is_some_and(|d| d.iter().all(|&b| matches!(b, 33..=90 | 94..=126)))
}

/// Where the `local-part` that starts `octets` ends, if it is one.
fn local_part_end(octets: &[u8]) -> Option<usize> {
    if octets.first() == Some(&b'"') {
        // quoted-string: qtext, quoted-pairs and white space in `"`s.
        let mut i = 1;
        loop {
            match octets.get(i)? {
                b'"' => return Some(i + 1),
                b'\\' => {
                    octets
                        .get(i + 1)
                        .filter(|&&b| (b' '..=b'~').contains(&b) || b == b'\t')?;
                    i += 2;
                }
                &b if b == b' '
                    || b == b'\t'
                    || b == 33
                    || (35..=126).contains(&b)
                    || b >= 0x80 =>
                {
                    i += 1;
                }
                _ => return None,
            }
        }
    }
    let end = octets.iter().rposition(|&b| b == b'@')?;
    octets.get(..end).filter(|l| is_dot_atom(l)).map(|_| end)
}

/// RFC 5322 section 3.2.3's `dot-atom-text`: `1*atext *("." 1*atext)`,
/// with RFC 6532's UTF-8 octets as `atext`.
fn is_dot_atom(octets: &[u8]) -> bool {
    let atext =
        |b: u8| b.is_ascii_alphanumeric() || b"!#$%&'*+-/=?^_`{|}~".contains(&b) || b >= 0x80;
    octets
        .split(|&b| b == b'.')
        .all(|label| !label.is_empty() && label.iter().all(|&b| atext(b)))
}

/// `hfield *( "&" hfield )`, `hfield = hfname "=" hfvalue`, each of
/// `qchar`s (RFC 6068 section 2: unreserved, pct-encoded and
/// `some-delims`).
fn is_hfields(text: &str) -> bool {
    text.split('&').all(|hfield| {
        hfield.split_once('=').is_some_and(|(name, value)| {
            uri_chars(name, b"!$'()*+,;:@") && uri_chars(value, b"!$'()*+,;:@")
        })
    })
}

/// Is `text` of RFC 3986's unreserved characters, `%` escapes and `extra`
/// only?
fn uri_chars(text: &str, extra: &[u8]) -> bool {
    let b = text.as_bytes();
    let mut i = 0;
    while let Some(&c) = b.get(i) {
        if c == b'%' {
            if !b
                .get(i + 1..i + 3)
                .is_some_and(|h| h.iter().all(u8::is_ascii_hexdigit))
            {
                return false;
            }
            i += 3;
        } else if c.is_ascii_alphanumeric() || b"-._~".contains(&c) || extra.contains(&c) {
            i += 1;
        } else {
            return false;
        }
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mailto_addresses_and_headers_follow_rfc_6068() {
        // RFC 6068 section 6.1's examples.
        for (path, query) in [
            ("chris@example.com", None),
            ("infobot@example.com", Some("subject=current-issue")),
            ("joe@example.com", Some("cc=bob@example.com&body=hello")),
            ("", Some("to=joe@example.com&cc=bob@example.com&body=hello")),
            ("gorby%25kremvax@example.com", None),
            ("%22not%40me%22@example.org", None),
            ("user@%5B192.0.2.1%5D", None),
            ("a@b,c@d", None),
            ("a@b?x=y", None),
        ] {
            assert!(is_mailto(path, query), "{path} {query:?}");
        }
        for (path, query) in [
            ("x", None),
            ("66Nvah/", Some("")),
            ("66Nvah/?", None),
            ("a@b", Some("")),
            ("a@b", Some("subject")),
            ("a@b/c", None),
            ("a@b", Some("x=a/b")),
            ("a..b@c", None),
            ("a@", None),
            ("@b", None),
            ("a@b,", None),
            // Section 2: `[` and `]` are percent-encoded in an addr-spec.
            ("user@[192.0.2.1]", None),
        ] {
            assert!(!is_mailto(path, query), "{path} {query:?}");
        }
    }
}
