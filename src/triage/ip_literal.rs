//! RFC 3986's `IP-literal` (section 3.2.2, with RFC 6874's zone ID): what a
//! bracketed host must be. Used by the self-check that flags a parser
//! accepting anything else in brackets, and by the `ip-literal` rule, which
//! explains a difference only when the other parser's host is one.

/// `IP-literal = "[" ( IPv6address / IPv6addrz / IPvFuture ) "]"` (RFC 3986
/// section 3.2.2, with RFC 6874's `IPv6addrz = IPv6address "%25" ZoneID`).
pub(crate) fn is_ip_literal(host: &str) -> bool {
    let Some(inner) = host.strip_prefix('[').and_then(|h| h.strip_suffix(']')) else {
        return false;
    };
    if inner.starts_with(['v', 'V']) {
        return is_ipvfuture(inner);
    }
    match split_at_first(inner, b"%25") {
        Some((address, zone)) => is_ipv6address(address) && is_zone_id(zone),
        None => is_ipv6address(inner),
    }
}

/// `text.split_once(delimiter)` for a short ASCII delimiter, found by
/// comparing bytes rather than with the substring searcher `split_once`
/// builds per call: the IP-literal checks run on every bracketed host of
/// every parser, and hosts are short.
fn split_at_first<'t>(text: &'t str, delimiter: &[u8]) -> Option<(&'t str, &'t str)> {
    let at = text
        .as_bytes()
        .windows(delimiter.len())
        .position(|w| w == delimiter)?;
    // The delimiter is ASCII: both ends of it are character boundaries.
    Some((text.get(..at)?, text.get(at + delimiter.len()..)?))
}

/// Is `host` an IP literal of the standard `standard` (the one the parser
/// claims)? RFC 3986's `IP-literal` ([`is_ip_literal`]) for every parser
/// but one that claims RFC 2396, which takes IPv6 literals from RFC 2732:
/// `IPv6reference = "[" IPv6address "]"` (RFC 2732 section 3), its
/// `IPv6address` RFC 2373's, whose embedded `IPv4address = 1*3DIGIT "."
/// 1*3DIGIT "." 1*3DIGIT "." 1*3DIGIT` has no rule against leading zeros
/// (RFC 2732 section 3; RFC 2373 section 2.2 writes `::13.1.68.3`).
/// java.net.URI, which claims "RFC 2396 ... as amended by RFC 2732", says
/// as much ("IPv4 address ... no more than three decimal digits"), so
/// `[::2.0.090.10]` is an IP literal of its standard. The rest (a zone ID
/// after `%25`, IPvFuture) is read as for RFC 3986.
pub(crate) fn is_ip_literal_of(standard: Option<crate::oracle::Standard>, host: &str) -> bool {
    if is_ip_literal(host) {
        return true;
    }
    if standard != Some(crate::oracle::Standard::Rfc2396) {
        return false;
    }
    let Some(inner) = host.strip_prefix('[').and_then(|h| h.strip_suffix(']')) else {
        return false;
    };
    let address = inner.split_once("%25").map_or(inner, |(a, _)| a);
    // Only the IPv4 part differs: the same text with each of its octets
    // written without leading zeros must be an RFC 3986 literal.
    let Some((head, ipv4)) = address.rsplit_once(':') else {
        return false;
    };
    if !is_rfc2373_ipv4address(ipv4) {
        return false;
    }
    let trimmed: Vec<&str> = ipv4
        .split('.')
        .map(|o| {
            let t = o.trim_start_matches('0');
            if t.is_empty() { "0" } else { t }
        })
        .collect();
    let rest = host
        .strip_prefix('[')
        .and_then(|h| h.strip_suffix(']'))
        .and_then(|h| h.get(address.len()..))
        .unwrap_or_default();
    is_ip_literal(&format!("[{head}:{}{rest}]", trimmed.join(".")))
}

/// Is `host` an IP literal of the standard `id` claims, as `id` documents
/// its literals: [`is_ip_literal_of`], or for a parser whose documentation
/// says it reads a zone ID after a bare `%` (its descriptor's `zone_ids`:
/// java.net.URI's scope_ids), that literal with such a zone ID
/// (`[fe80::1%eth0]`).
pub(crate) fn is_documented_literal(id: crate::oracle::OracleId, host: &str) -> bool {
    if is_ip_literal_of(id.standard(), host) {
        return true;
    }
    let Some(inner) = host.strip_prefix('[').and_then(|h| h.strip_suffix(']')) else {
        return false;
    };
    if id.standard() == Some(crate::oracle::Standard::Rfc3986) && is_bare_percent_zone(inner) {
        return true;
    }
    if id.descriptor().zone_ids.is_none() {
        return false;
    }
    match inner.split_once('%') {
        Some((address, zone)) if !zone.is_empty() && !zone.starts_with("25") => {
            is_ip_literal_of(id.standard(), &format!("[{address}]"))
        }
        _ => false,
    }
}

/// An IPv6 address and a zone ID after a bare `%` that no two hexadecimal
/// digits follow (`fe80::a%en1`): RFC 6874, which updates RFC 3986, writes
/// the delimiter `%25` (section 2), and its section 3 adds: "it is also
/// suggested that URI parsers accept bare "%" signs when possible (i.e., a
/// "%" not followed by two valid and meaningful hexadecimal characters)",
/// so that an address copied from `ping` works. Accepting it is that
/// suggestion, for a parser that claims RFC 3986; `%ee1` is not (`%ee` reads
/// as an escape).
pub(crate) fn is_bare_percent_zone(inner: &str) -> bool {
    let Some((address, zone)) = inner.split_once('%') else {
        return false;
    };
    let hex_led = zone.len() >= 2 && zone.as_bytes().iter().take(2).all(u8::is_ascii_hexdigit);
    !zone.is_empty() && !hex_led && is_ipv6address(address) && is_zone_id(zone)
}

/// RFC 2373's `IPv4address = 1*3DIGIT "." 1*3DIGIT "." 1*3DIGIT "."
/// 1*3DIGIT` (as RFC 2732 section 3 writes it), with the value of each
/// at most 255 as java.net.URI requires.
fn is_rfc2373_ipv4address(s: &str) -> bool {
    let mut parts = 0;
    for octet in s.split('.') {
        parts += 1;
        let ok = (1..=3).contains(&octet.len())
            && octet.bytes().all(|b| b.is_ascii_digit())
            && octet.parse::<u8>().is_ok();
        if !ok {
            return false;
        }
    }
    parts == 4
}

/// `unreserved = ALPHA / DIGIT / "-" / "." / "_" / "~"` (RFC 3986 section 2.3).
fn is_unreserved(b: u8) -> bool {
    b.is_ascii_alphanumeric() || matches!(b, b'-' | b'.' | b'_' | b'~')
}

/// `sub-delims` (RFC 3986 section 2.2).
fn is_sub_delim(b: u8) -> bool {
    matches!(
        b,
        b'!' | b'$' | b'&' | b'\'' | b'(' | b')' | b'*' | b'+' | b',' | b';' | b'='
    )
}

/// `ZoneID = 1*( unreserved / pct-encoded )` (RFC 6874 section 2).
fn is_zone_id(zone: &str) -> bool {
    let b = zone.as_bytes();
    let mut i = 0;
    while let Some(&c) = b.get(i) {
        if c == b'%' {
            let hex = |j: usize| b.get(j).is_some_and(u8::is_ascii_hexdigit);
            if !(hex(i + 1) && hex(i + 2)) {
                return false;
            }
            i += 3;
        } else if is_unreserved(c) {
            i += 1;
        } else {
            return false;
        }
    }
    !b.is_empty()
}

/// `IPvFuture = "v" 1*HEXDIG "." 1*( unreserved / sub-delims / ":" )`.
fn is_ipvfuture(s: &str) -> bool {
    let Some((version, rest)) = s.get(1..).and_then(|v| v.split_once('.')) else {
        return false;
    };
    !version.is_empty()
        && version.bytes().all(|b| b.is_ascii_hexdigit())
        && !rest.is_empty()
        && rest
            .bytes()
            .all(|b| is_unreserved(b) || is_sub_delim(b) || b == b':')
}

/// `h16 = 1*4HEXDIG`.
fn is_h16(s: &str) -> bool {
    (1..=4).contains(&s.len()) && s.bytes().all(|b| b.is_ascii_hexdigit())
}

/// `IPv4address = dec-octet "." dec-octet "." dec-octet "." dec-octet`,
/// `dec-octet` without leading zeros (RFC 3986 section 3.2.2).
fn is_ipv4address(s: &str) -> bool {
    let mut parts = 0;
    for octet in s.split('.') {
        parts += 1;
        let ok = !octet.is_empty()
            && octet.len() <= 3
            && octet.bytes().all(|b| b.is_ascii_digit())
            && !(octet.len() > 1 && octet.starts_with('0'))
            && octet.parse::<u8>().is_ok();
        if !ok {
            return false;
        }
    }
    parts == 4
}

/// `IPv6address` (RFC 3986 section 3.2.2): eight 16-bit pieces, the last
/// two of which may be an IPv4address (`ls32`), with at most one `::`
/// standing for one or more pieces of zeros.
fn is_ipv6address(s: &str) -> bool {
    /// The pieces of one side of `::`; the last may be an IPv4 address
    /// (worth two) when `ls32_allowed`.
    fn pieces(side: &str, ls32_allowed: bool) -> Option<usize> {
        if side.is_empty() {
            return Some(0);
        }
        let mut n = 0;
        let mut groups = side.split(':').peekable();
        while let Some(g) = groups.next() {
            let last = groups.peek().is_none();
            if last && ls32_allowed && g.contains('.') {
                if !is_ipv4address(g) {
                    return None;
                }
                n += 2;
            } else if is_h16(g) {
                n += 1;
            } else {
                return None;
            }
        }
        Some(n)
    }
    match split_at_first(s, b"::") {
        Some((left, right)) => {
            if split_at_first(right, b"::").is_some() {
                return false;
            }
            match (pieces(left, false), pieces(right, true)) {
                (Some(l), Some(r)) => l + r <= 7,
                _ => false,
            }
        }
        None => pieces(s, true) == Some(8),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// An RFC 2396 parser's IP literal is RFC 2732's: its IPv4 part may
    /// have leading zeros; an RFC 3986 parser's may not.
    #[test]
    fn an_rfc_2396_parsers_ip_literal_is_rfc_2732s() {
        use crate::oracle::Standard;
        for ok in ["[::2.0.090.10]", "[::001.2.3.4]", "[1:2:3:4:5:6:01.2.3.4]"] {
            assert!(is_ip_literal_of(Some(Standard::Rfc2396), ok), "{ok}");
            assert!(!is_ip_literal_of(Some(Standard::Rfc3986), ok), "{ok}");
            assert!(!is_ip_literal_of(None, ok), "{ok}");
        }
        for bad in [
            "[::2.0.0900.10]",
            "[::2.0.256.1]",
            "[0.0.4.125]",
            "[::1.2.3]",
            "[x::01.2.3.4]",
        ] {
            assert!(!is_ip_literal_of(Some(Standard::Rfc2396), bad), "{bad}");
        }
        assert!(is_ip_literal_of(Some(Standard::Rfc2396), "[::1]"));
    }

    #[test]
    fn ip_literals_follow_rfc_3986_and_rfc_6874() {
        for ok in [
            "[::1]",
            "[::]",
            "[1:2:3:4:5:6:7:8]",
            "[1::8]",
            "[::ffff:1.2.3.4]",
            "[fe80::1%25en0]",
            "[v7.x:y]",
            "[1:2:3:4:5:6:1.2.3.4]",
        ] {
            assert!(is_ip_literal(ok), "{ok}");
        }
        for bad in [
            "[www.google.com]",
            "[fe80::1%en0]",
            "[::1]evil.com",
            "[1:2:3:4:5:6:7:8:9]",
            "[1::2::3]",
            "[12345::]",
            "[::1.2.3.04]",
            "[1:2:3:4:5:6:7::8]",
            "[v.x]",
            "[]",
            "::1",
        ] {
            assert!(!is_ip_literal(bad), "{bad}");
        }
    }
}
