//! The host model shared by the spec rules, the defect checks, severity and
//! the host confusions: when two hosts are the same, when two spellings are
//! the same address, and which port a connection would use.

use super::text::decoded_lower;
use crate::components::Component;
use crate::oracle::Outcome;

/// The URL Standard's special schemes and their default ports.
pub(crate) fn scheme_default_port(scheme: &str) -> Option<u16> {
    const DEFAULTS: [(&str, u16); 5] = [
        ("http", 80),
        ("ws", 80),
        ("https", 443),
        ("wss", 443),
        ("ftp", 21),
    ];
    DEFAULTS
        .iter()
        .find(|(name, _)| name.eq_ignore_ascii_case(scheme))
        .map(|&(_, port)| port)
}

/// Is `scheme` special in the URL Standard: one with a default port, or
/// `file`?
pub(crate) fn is_special(scheme: &str) -> bool {
    scheme_default_port(scheme).is_some() || is_file(scheme)
}

/// Is `scheme` `file` (schemes are case-insensitive, RFC 2396 section 3.1)?
pub(crate) fn is_file(scheme: &str) -> bool {
    scheme.eq_ignore_ascii_case("file")
}

/// The scheme of a pair of outcomes, from whichever side has one (`a`
/// first): default ports and `file`'s `localhost` depend on it.
pub(crate) fn scheme_of<'o>(a: &'o Outcome<'_>, b: &'o Outcome<'_>) -> Option<&'o str> {
    a.components
        .get(Component::Scheme)
        .or_else(|| b.components.get(Component::Scheme))
}

/// The port a connection would use: the written one, else the scheme's default.
pub(crate) fn effective_port(port: Option<&str>, scheme: Option<&str>) -> Option<u32> {
    match port.filter(|p| !p.is_empty()) {
        Some(p) => p.parse::<u32>().ok(),
        None => scheme.and_then(scheme_default_port).map(u32::from),
    }
}

/// Are two hosts the same text after ASCII case folding? Nothing else is
/// folded: `ex%41mple.com` and `example.com`, or `0x7f.1` and `127.0.0.1`,
/// are the same address spelled so that an allowlist misses it, which is
/// what a host confusion is about. The one exception: for `file`, the
/// empty host and `localhost` are the same machine (RFC 8089 section 2;
/// URL Standard, file host state).
pub(crate) fn same_host(a: &str, b: &str, scheme: Option<&str>) -> bool {
    // The common case first: every parser reads the same bytes (a memcmp,
    // where the case-folding comparison goes byte by byte). This runs for
    // every pair of accepting parsers on every input.
    if a == b {
        return true;
    }
    if scheme.is_some_and(is_file)
        && [a, b]
            .iter()
            .all(|h| h.is_empty() || h.eq_ignore_ascii_case("localhost"))
    {
        return true;
    }
    a.eq_ignore_ascii_case(b)
}

/// Do two parsers see different hosts: both have one and they are not the
/// same host ([`same_host`]), or only one has a host, and it is not the
/// empty host (`file`'s `localhost` counting as empty)?
pub(crate) fn hosts_differ(ours: Option<&str>, theirs: Option<&str>, scheme: Option<&str>) -> bool {
    match (ours, theirs) {
        (Some(a), Some(b)) => !same_host(a, b, scheme),
        (None, Some(h)) | (Some(h), None) => !same_host(h, "", scheme),
        (None, None) => false,
    }
}

/// Are two different host spellings the same address? IPv6 literals are
/// compared as addresses (RFC 4291 section 2.2's text forms, `[0000::1]` and
/// `[::1]`, with or without brackets), their zone IDs as written: after `%`
/// inside an IP literal comes a zone ID (RFC 6874 section 2), never a
/// percent-encoded octet, so `[fe80::%31]` is not `[fe80::1]`. The one
/// exception is the separator itself: RFC 6874 writes the `%` before a zone
/// ID as `%25` in a URI (`IPv6addrz = IPv6address "%25" ZoneID`), so
/// `[fe80::1%25en0]` is `[fe80::1%en0]`, the form Go's `Hostname` and the
/// address APIs give. Other hosts
/// are equal once percent-decoded, lower-cased, without a final `.`, and
/// with WHATWG's IPv4 number forms (`0x7f.1`, `2130706433`) read as the
/// dotted quad they stand for (URL Standard, IPv4 parser), and a name
/// beyond ASCII as its Punycode labels (RFC 3986 section 3.2.2: a non-ASCII
/// reg-name is looked up in its IDNA encoding).
pub(crate) fn same_address(a: &str, b: &str) -> bool {
    // One text is one address (`canonical_address` is a function of the
    // text): the rules that ask mostly compare a host with itself, and
    // each canonical form is a new string.
    a == b || canonical_address(a) == canonical_address(b)
}

/// An IPv6 literal (bracketed or bare) as its address in the RFC 5952
/// text form plus its zone ID as written; `None` for any other host.
fn ipv6_literal(host: &str) -> Option<String> {
    let inner = host
        .strip_prefix('[')
        .and_then(|h| h.strip_suffix(']'))
        .unwrap_or(host);
    if !inner.contains(':') {
        return None;
    }
    // RFC 6874's `%25` is the separator `%`: the zone ID is what follows.
    let (address, zone) = match inner.split_once('%') {
        Some((address, zone)) => (address, Some(zone.strip_prefix("25").unwrap_or(zone))),
        None => (inner, None),
    };
    // std's Display of an Ipv6Addr is RFC 5952's canonical text.
    let address: std::net::Ipv6Addr = address.parse().ok()?;
    Some(match zone {
        Some(zone) => format!("[{address}%{zone}]"),
        None => format!("[{address}]"),
    })
}

/// A domain name's labels beyond ASCII written as `xn--` and their
/// Punycode (RFC 3492; IDNA's ToASCII without its mapping), the labels
/// split at the separators punycode.js and UTS #46 read as `.` (U+002E,
/// U+3002, U+FF0E, U+FF61); `name` is taken as already lower-cased. None
/// when Punycode cannot write a label.
pub(crate) fn punycode_labels(name: &str) -> Option<String> {
    let labels: Option<Vec<String>> = name
        .split(['.', '\u{3002}', '\u{ff0e}', '\u{ff61}'])
        .map(|label| {
            if label.is_ascii() {
                Some(label.to_owned())
            } else {
                idna::punycode::encode_str(label).map(|p| format!("xn--{p}"))
            }
        })
        .collect();
    Some(labels?.join("."))
}

fn canonical_address(host: &str) -> String {
    if let Some(literal) = ipv6_literal(host) {
        return literal;
    }
    if host.starts_with('[') {
        // An IP literal that is no IPv6 address (IPvFuture, or malformed):
        // its text, case folded, `%` left as written.
        return host.to_ascii_lowercase();
    }
    let lower = decoded_lower(host);
    let bare = lower.strip_suffix('.').unwrap_or(&lower);
    if ends_in_a_number(bare)
        && let Some(n) = whatwg_ipv4(bare)
    {
        let [a, b, c, d] = n.to_be_bytes();
        return format!("{a}.{b}.{c}.{d}");
    }
    // A name beyond ASCII is looked up in its IDNA form (RFC 3986 section
    // 3.2.2): `π.example.com` is `xn--1xa.example.com`. Only Punycode, no
    // UTS #46 mapping: `ｇｏ.com` stays another name than `go.com`.
    if !bare.is_ascii()
        && let Some(ascii) = punycode_labels(&bare.to_lowercase())
    {
        return ascii;
    }
    bare.to_owned()
}

/// Does the host end in a number, so WHATWG's IPv4 parser takes it (URL
/// Standard, "ends in a number checker")?
pub(crate) fn ends_in_a_number(host: &str) -> bool {
    let host = host.strip_suffix('.').unwrap_or(host);
    let last = host.rsplit('.').next().unwrap_or("");
    !last.is_empty()
        && (last.bytes().all(|b| b.is_ascii_digit())
            || last
                .strip_prefix("0x")
                .or_else(|| last.strip_prefix("0X"))
                .is_some_and(|h| h.bytes().all(|b| b.is_ascii_hexdigit())))
}

/// Is `host` four dotted decimal numbers of at most 255, as WHATWG serialises IPv4?
pub(crate) fn is_dotted_quad(host: &str) -> bool {
    // Counted as they come, not collected: a fifth part fails as a bad one.
    let mut parts = 0;
    host.split('.').all(|p| {
        parts += 1;
        parts <= 4 && !p.is_empty() && p.len() <= 3 && p.parse::<u8>().is_ok()
    }) && parts == 4
}

/// The URL Standard's IPv4 parser: up to four parts, each decimal, octal
/// (leading `0`) or hex (`0x`); the last fills the remaining bytes. For
/// text without a final `.` and without a part `0x` alone (which this
/// reads as 0), this is also glibc's `inet_aton` as `getaddrinfo` calls it
/// (`__inet_aton_exact`: C number parts; `bypass::inet_aton`), which is
/// how most clients' resolvers read a numeric host.
pub(crate) fn whatwg_ipv4(host: &str) -> Option<u32> {
    let parts: Vec<&str> = host.split('.').collect();
    if parts.is_empty() || parts.len() > 4 {
        return None;
    }
    let mut numbers = Vec::with_capacity(parts.len());
    for part in &parts {
        let (digits, radix) =
            if let Some(h) = part.strip_prefix("0x").or_else(|| part.strip_prefix("0X")) {
                (h, 16)
            } else if part.len() > 1 && part.starts_with('0') {
                (part.get(1..).unwrap_or_default(), 8)
            } else {
                (*part, 10)
            };
        let n = if digits.is_empty() {
            if part.is_empty() {
                return None;
            }
            0
        } else if digits.chars().all(|c| c.is_digit(radix)) {
            // Digits only: `from_str_radix` would also take a sign.
            u64::from_str_radix(digits, radix).ok()?
        } else {
            return None;
        };
        numbers.push(n);
    }
    let (last, init) = numbers.split_last()?;
    if init.iter().any(|&n| n > 255) {
        return None;
    }
    let room = 8 * (5 - numbers.len() as u32);
    if *last >= 1u64 << room {
        return None;
    }
    let mut value = *last;
    for (i, n) in init.iter().enumerate() {
        value += n << (8 * (3 - i as u32));
    }
    u32::try_from(value).ok()
}

/// The host part of an authority: after the last `@`, before a final
/// `:digits`. Used where rfc2396 has no host (a `reg_name`).
pub(crate) fn host_text(authority: &str) -> &str {
    let host = authority.rsplit_once('@').map_or(authority, |(_, h)| h);
    match host.rsplit_once(':') {
        Some((h, port)) if port.bytes().all(|b| b.is_ascii_digit()) => h,
        _ => host,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn same_address_reads_ipv4_number_forms_and_escapes() {
        assert!(same_address("0x7f.1", "127.0.0.1"));
        assert!(same_address("2130706433", "127.0.0.1"));
        assert!(same_address("ex%41mple.com", "example.com"));
        assert!(same_address("Example.COM.", "example.com"));
        assert!(!same_address("0x7f.2", "127.0.0.1"));
        assert!(
            !same_address("+127.1", "127.0.0.1"),
            "a sign is no digit (from_str_radix would take it)"
        );
        assert!(!same_address("evil.com", "example.com"));
        // A name beyond ASCII is its Punycode form, percent-encoded or not;
        // without UTS #46's mapping, fullwidth letters are another name.
        assert!(same_address("%CF%80.example.com", "xn--1xa.example.com"));
        assert!(same_address("\u{3c0}.example.com", "XN--1XA.example.com"));
        assert!(!same_address("\u{3c0}.example.com", "xn--1xb.example.com"));
        assert!(!same_address("\u{ff27}\u{ff4f}.com", "go.com"));
    }

    #[test]
    fn same_address_compares_ipv6_as_addresses_and_never_decodes_a_zone_id_but_reads_its_separator()
    {
        assert!(same_address("[0000::1]", "[::1]"));
        assert!(same_address("[::FFFF:127.0.0.1]", "[::ffff:7f00:1]"));
        assert!(
            same_address("::1", "[0:0:0:0:0:0:0:1]"),
            "a bare literal (Go's Hostname)"
        );
        assert!(same_address("[fe80::1%25eth0]", "[FE80::1%25eth0]"));
        assert!(
            !same_address("[fe80::%31]", "[fe80::1]"),
            "%31 starts a zone ID"
        );
        assert!(!same_address("[fe80::1%25eth0]", "[fe80::1%25eth1]"));
        assert!(
            same_address("[fe80::1%25en0]", "[fe80::1%en0]"),
            "RFC 6874's %25 is the separator %"
        );
        assert!(same_address("fe80::1%en0", "[FE80::1%25en0]"));
        assert!(!same_address("[fe80::1%25en0]", "[fe80::1%en1]"));
        assert!(
            !same_address("[fe80::1%2531]", "[fe80::1%251]"),
            "zone IDs 31 and 1"
        );
        assert!(!same_address("[::1]", "[::2]"));
        assert!(!same_address("[v1.x]", "[v1.y]"));
    }
}
