//! Where a host points: the place a request for it would go, as a
//! validator reads the host (literally) and as a fetcher's resolver reads
//! it (IPv4 number forms included).
//!
//! A parser's host is not yet where a client connects: libcurl, Python,
//! Node, PHP, Ruby and hyper hand the host to `getaddrinfo`, and glibc's
//! `getaddrinfo` reads a numeric host with `inet_aton` (glibc
//! `resolv/inet_addr.c`; getaddrinfo(3)), which takes `0x7f.1`,
//! `017700000001` and `127.1` for 127.0.0.1. Go's resolver takes only what
//! `net.ParseIP` does (dotted decimal, no leading zeros); Java's
//! `InetAddress` the decimal `d.d.d.d`, `d.d.d`, `d.d` and `d` forms its
//! `Inet4Address` documentation lists. A validator that compares text or
//! parses strictly (Python's `ipaddress`, Go's `net.ParseIP`) reads
//! `0x7f.1` as a name.

use std::fmt;
use std::net::{IpAddr, Ipv4Addr, Ipv6Addr};

use serde::Serialize;

/// Where a host points.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Place {
    /// 127.0.0.0/8, `::1`, and the name `localhost` (RFC 6761 section 6.3:
    /// resolvers answer it with a loopback address).
    Loopback,
    /// RFC 1918 (10/8, 172.16/12, 192.168/16) and IPv6 unique local
    /// addresses (fc00::/7, RFC 4193).
    Private,
    /// 169.254/16 (RFC 3927) and fe80::/10 (RFC 4291 section 2.5.6).
    LinkLocal,
    /// A cloud metadata service: 169.254.169.254 (AWS, GCP, Azure, ...),
    /// fd00:ec2::254 (AWS's IPv6 endpoint) and the name
    /// `metadata.google.internal`.
    Metadata,
    /// 0.0.0.0/8 ("this network", RFC 1122 3.2.1.3) and `::`: Linux connects
    /// a socket aimed at them to the local host.
    Unspecified,
    /// Any other address.
    Public,
    /// A name, for a resolver to look up.
    Name,
}

impl Place {
    /// Every place, in order.
    pub const ALL: [Place; 7] = [
        Place::Loopback,
        Place::Private,
        Place::LinkLocal,
        Place::Metadata,
        Place::Unspecified,
        Place::Public,
        Place::Name,
    ];

    /// The stable id (`loopback`, `private`, `link-local`, `metadata`,
    /// `unspecified`, `public`, `name`).
    pub const fn as_str(self) -> &'static str {
        match self {
            Place::Loopback => "loopback",
            Place::Private => "private",
            Place::LinkLocal => "link-local",
            Place::Metadata => "metadata",
            Place::Unspecified => "unspecified",
            Place::Public => "public",
            Place::Name => "name",
        }
    }

    /// Is it inside the machine or its network: what a denylist for
    /// internal addresses means to keep a fetcher from?
    pub const fn is_internal(self) -> bool {
        !matches!(self, Place::Public | Place::Name)
    }

    /// The places a `--deny` value names: one place, or `internal` for
    /// every internal one.
    pub fn parse_deny(text: &str) -> Option<Vec<Place>> {
        if text == "internal" {
            return Some(Place::ALL.into_iter().filter(|p| p.is_internal()).collect());
        }
        Place::ALL
            .into_iter()
            .find(|p| p.as_str() == text && p.is_internal())
            .map(|p| vec![p])
    }
}

impl fmt::Display for Place {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// How a reader turns a host's text into an address.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reading {
    /// Text as written: dotted-decimal IPv4 (four parts, no leading zeros),
    /// IPv6 (bracketed or bare); anything else is a name. How a validator
    /// that compares or parses strictly reads it.
    Literal,
    /// glibc's `getaddrinfo`: IPv4 through `inet_aton` (one to four parts,
    /// each decimal, octal with a leading `0`, or hex with `0x`; the last
    /// fills the remaining bytes), IPv6 as written.
    Glibc,
    /// Go's resolver: `net.ParseIP` (dotted decimal without leading zeros,
    /// IPv6); anything else is looked up as a name.
    Go,
    /// Java's `InetAddress`: the decimal forms `d.d.d.d`, `d.d.d`, `d.d`
    /// and `d` (`Inet4Address`'s documentation); a part with a leading zero
    /// is ambiguous and not read as a number (JDK-8277608). Read from the
    /// documentation, not from a running JVM.
    Java,
}

/// What a host reads as: an address, or a name (lower-cased, without a
/// final `.`).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Read {
    /// An IP address.
    Address(IpAddr),
    /// A name.
    Name(String),
}

impl Read {
    /// The place it points to.
    pub fn place(&self) -> Place {
        match self {
            Read::Address(address) => place_of(*address),
            Read::Name(name) => match name.as_str() {
                "localhost" => Place::Loopback,
                "metadata.google.internal" => Place::Metadata,
                _ => Place::Name,
            },
        }
    }

    /// The address, if it is one.
    pub fn address(&self) -> Option<IpAddr> {
        match self {
            Read::Address(a) => Some(*a),
            Read::Name(_) => None,
        }
    }
}

/// Reads `host` (as a parser reports it: an IPv6 literal bracketed or not)
/// the way `reading` does.
pub fn read(host: &str, reading: Reading) -> Read {
    let bare = host
        .strip_prefix('[')
        .and_then(|h| h.strip_suffix(']'))
        .unwrap_or(host);
    if let Ok(v6) = bare.parse::<Ipv6Addr>() {
        return Read::Address(IpAddr::V6(v6));
    }
    let v4 = match reading {
        Reading::Literal | Reading::Go => bare.parse::<Ipv4Addr>().ok(),
        Reading::Glibc => inet_aton(bare),
        Reading::Java => java_ipv4(bare),
    };
    match v4 {
        Some(a) => Read::Address(IpAddr::V4(a)),
        None => {
            let lower = host.to_ascii_lowercase();
            let name = lower.strip_suffix('.').unwrap_or(&lower);
            Read::Name(name.to_owned())
        }
    }
}

/// Where an address points.
pub fn place_of(address: IpAddr) -> Place {
    match address {
        IpAddr::V4(v4) => place_of_v4(v4),
        IpAddr::V6(v6) => {
            // An IPv4-mapped address (::ffff:a.b.c.d, RFC 4291 2.5.5.2)
            // reaches the IPv4 address it carries.
            if let Some(v4) = v6.to_ipv4_mapped() {
                return place_of_v4(v4);
            }
            let first = v6.segments()[0];
            if v6.is_loopback() {
                Place::Loopback
            } else if v6.is_unspecified() {
                Place::Unspecified
            } else if v6 == Ipv6Addr::new(0xfd00, 0xec2, 0, 0, 0, 0, 0, 0x254) {
                Place::Metadata
            } else if first & 0xfe00 == 0xfc00 {
                Place::Private
            } else if first & 0xffc0 == 0xfe80 {
                Place::LinkLocal
            } else {
                Place::Public
            }
        }
    }
}

fn place_of_v4(v4: Ipv4Addr) -> Place {
    let [a, b, _, _] = v4.octets();
    if v4 == Ipv4Addr::new(169, 254, 169, 254) {
        Place::Metadata
    } else if a == 127 {
        Place::Loopback
    } else if a == 0 {
        Place::Unspecified
    } else if a == 10 || (a == 172 && (16..32).contains(&b)) || (a == 192 && b == 168) {
        Place::Private
    } else if a == 169 && b == 254 {
        Place::LinkLocal
    } else {
        Place::Public
    }
}

/// glibc's `inet_aton` as `getaddrinfo` calls it (the whole text must be
/// read: `__inet_aton_exact`): one to four parts split at `.`, each a C
/// number (`0x` hex, a leading `0` octal, else decimal); every part but
/// the last at most 255, the last filling the bytes left. The URL
/// Standard's IPv4 parser reads the same forms (uridiff's host model,
/// `triage::host`), but for a final `.` and for a part that is `0x` with
/// no digit after it (the URL Standard's IPv4 number parser reads that
/// as 0), both of which glibc refuses: `getaddrinfo("0x")` and
/// `getaddrinfo("1.0x")` ask DNS (glibc 2.36, run in a network namespace;
/// the follower's clients found it, `node-http-url-parse` on `http://0X;3//`).
pub fn inet_aton(text: &str) -> Option<Ipv4Addr> {
    if text.ends_with('.') || text.split('.').any(|part| part.eq_ignore_ascii_case("0x")) {
        return None;
    }
    crate::triage::host::whatwg_ipv4(text).map(Ipv4Addr::from)
}

/// Java's decimal forms (no leading zeros: JDK-8277608 refuses them as
/// ambiguous).
fn java_ipv4(text: &str) -> Option<Ipv4Addr> {
    let mut parts = Vec::with_capacity(4);
    for part in text.split('.') {
        if parts.len() == 4
            || part.is_empty()
            || !part.bytes().all(|b| b.is_ascii_digit())
            || (part.len() > 1 && part.starts_with('0'))
        {
            return None;
        }
        parts.push(part.parse::<u32>().ok()?);
    }
    ipv4_from_parts(&parts)
}

/// The address of one to four numbers, the last filling what is left.
fn ipv4_from_parts(parts: &[u32]) -> Option<Ipv4Addr> {
    let (last, init) = parts.split_last()?;
    if init.iter().any(|&n| n > 255) {
        return None;
    }
    let room = 8 * (4 - init.len() as u32);
    if room < 32 && u64::from(*last) >= 1u64 << room {
        return None;
    }
    let mut value = *last;
    for (i, n) in init.iter().enumerate() {
        value |= n << (8 * (3 - i as u32));
    }
    Some(Ipv4Addr::from(value))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn v4(a: u8, b: u8, c: u8, d: u8) -> Option<Ipv4Addr> {
        Some(Ipv4Addr::new(a, b, c, d))
    }

    #[test]
    fn inet_aton_reads_the_number_forms_glibc_accepts() {
        assert_eq!(inet_aton("0x7f.1"), v4(127, 0, 0, 1));
        assert_eq!(inet_aton("017700000001"), v4(127, 0, 0, 1));
        assert_eq!(inet_aton("127.1"), v4(127, 0, 0, 1));
        assert_eq!(inet_aton("2130706433"), v4(127, 0, 0, 1));
        assert_eq!(inet_aton("0177.0.0.1"), v4(127, 0, 0, 1));
        assert_eq!(inet_aton("0xa9.0xfe.0xa9.0xfe"), v4(169, 254, 169, 254));
        assert_eq!(inet_aton("10.0.65535"), v4(10, 0, 255, 255));
        assert_eq!(inet_aton("0"), v4(0, 0, 0, 0));
        assert_eq!(inet_aton("1.2.3.4.5"), None);
        assert_eq!(inet_aton("256.1"), None);
        assert_eq!(inet_aton("1.2.65536"), None);
        assert_eq!(inet_aton("08"), None, "8 is no octal digit");
        assert_eq!(inet_aton("1..2"), None);
        assert_eq!(inet_aton("127.0.0.1."), None);
        assert_eq!(inet_aton("4294967296"), None);
        assert_eq!(inet_aton("example.com"), None);
        assert_eq!(inet_aton("+127.1"), None, "no sign: digits only");
        // `0x` needs a digit after it (the URL Standard reads it as 0).
        assert_eq!(inet_aton("0x0"), v4(0, 0, 0, 0));
        for text in ["0x", "0X", "1.0x", "0x.1"] {
            assert_eq!(inet_aton(text), None, "{text}");
        }
    }

    #[test]
    fn readings_differ_on_number_forms_only() {
        assert_eq!(
            read("0x7f.1", Reading::Literal),
            Read::Name("0x7f.1".into())
        );
        assert_eq!(read("0x7f.1", Reading::Go), Read::Name("0x7f.1".into()));
        assert_eq!(
            read("0x7f.1", Reading::Glibc).place(),
            Place::Loopback,
            "glibc reads hex"
        );
        assert_eq!(read("127.1", Reading::Java).place(), Place::Loopback);
        assert_eq!(read("0177.1", Reading::Java).place(), Place::Name);
        for reading in [Reading::Literal, Reading::Glibc, Reading::Go, Reading::Java] {
            assert_eq!(read("127.0.0.1", reading).place(), Place::Loopback);
            assert_eq!(read("[::1]", reading).place(), Place::Loopback);
            assert_eq!(
                read("Evil.Example.", reading),
                Read::Name("evil.example".into())
            );
        }
    }

    #[test]
    fn places_follow_the_address_registries() {
        let place = |h: &str| read(h, Reading::Literal).place();
        assert_eq!(place("127.0.0.3"), Place::Loopback);
        assert_eq!(place("localhost"), Place::Loopback);
        assert_eq!(place("LOCALHOST."), Place::Loopback);
        assert_eq!(place("10.1.2.3"), Place::Private);
        assert_eq!(place("172.31.0.1"), Place::Private);
        assert_eq!(place("172.32.0.1"), Place::Public);
        assert_eq!(place("192.168.1.1"), Place::Private);
        assert_eq!(place("[fd12::1]"), Place::Private);
        assert_eq!(place("169.254.169.254"), Place::Metadata);
        assert_eq!(place("[fd00:ec2::254]"), Place::Metadata);
        assert_eq!(place("metadata.google.internal"), Place::Metadata);
        assert_eq!(place("169.254.1.1"), Place::LinkLocal);
        assert_eq!(place("[fe80::1]"), Place::LinkLocal);
        assert_eq!(place("0.0.0.0"), Place::Unspecified);
        assert_eq!(place("[::]"), Place::Unspecified);
        assert_eq!(place("[::ffff:127.0.0.1]"), Place::Loopback);
        assert_eq!(place("93.184.216.34"), Place::Public);
        assert_eq!(place("[2001:db8::1]"), Place::Public);
        assert_eq!(place("example.com"), Place::Name);
    }

    #[test]
    fn deny_names_internal_places_only() {
        assert_eq!(Place::parse_deny("internal").map(|p| p.len()), Some(5));
        assert_eq!(Place::parse_deny("metadata"), Some(vec![Place::Metadata]));
        assert_eq!(Place::parse_deny("public"), None);
        assert_eq!(Place::parse_deny("nowhere"), None);
    }
}
