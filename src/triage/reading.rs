//! A parser's host compared with another's as the parser writes it: the
//! other spellings of one IPv6 address every standard allows, and the host
//! readings a parser's own documentation gives (its descriptor's
//! `host_readings`: a zone ID after a single `%`, a reg-name read as a
//! domain name). A host these explain is the host the input names, written
//! the way the parser says it writes it: a `spec` finding, not a departure.

use crate::components::Component;
use crate::diff::diff;
use crate::oracle::external::HostReading;
use crate::oracle::{OracleId, Outcome};

use super::Class;
use super::host::{punycode_labels, same_address};
use super::ip_literal::is_ip_literal;
use super::text::{decoded, pct_normalized};

/// The class that explains `theirs` (the host `id` reports) as the host
/// `written` (a parser's, or the reference's, reading of the same input)
/// in `id`'s own writing, if any:
///
/// - `ipv6-text-form`: `written` is a valid IP literal (RFC 3986 section
///   3.2.2) and `theirs` is the same address (RFC 4291 section 2.2 gives
///   several text forms of one address; RFC 5952 section 4 the one to
///   write), either a valid IP literal itself (for any parser) or, for a
///   parser whose documentation says it writes a zone ID after a single
///   `%` ([`HostReading::ZoneDecoded`]), that form with the zone ID as
///   written, or for one that documents reporting its host
///   percent-decoded ([`HostReading::PercentDecoded`]: Go), the literal
///   so decoded;
/// - `domain-host`: for a scheme whose handler the parser documents as
///   reading the host as a domain name, `theirs` is `written` read that way
///   ([`HostReading::DomainPunycode`], [`HostReading::DomainWhatwg`]),
///   compared after ASCII case folding (RFC 3986 section 3.2.2).
pub(crate) fn host_reading(
    id: OracleId,
    scheme: Option<&str>,
    written: &str,
    theirs: &str,
) -> Option<Class> {
    if written.starts_with('[') && is_ip_literal(written) {
        let same = theirs.starts_with('[') && same_address(written, theirs);
        let valid = is_ip_literal(theirs) || documents(id, |r| r == HostReading::ZoneDecoded);
        let decoded = documents(id, |r| r == HostReading::PercentDecoded)
            && String::from_utf8_lossy(&decoded(written)).eq_ignore_ascii_case(theirs);
        return ((same && valid) || decoded).then_some(Class::Ipv6TextForm);
    }
    // uri-js's documented "IPv4 normalization", whatever the scheme.
    if documents(id, |r| r == HostReading::Ipv4LeadingZerosDropped)
        && ipv4_zeros_dropped(written).is_some_and(|read| read == theirs && read != written)
    {
        return Some(Class::Ipv4LeadingZeros);
    }
    // An input without a scheme is `""` to a reading's scheme list.
    let scheme = scheme.map_or_else(String::new, str::to_ascii_lowercase);
    let read = id.host_readings().iter().find_map(|&(r, _)| match r {
        HostReading::Rfc3986Normalized(schemes) if schemes.contains(&scheme.as_str()) => {
            Some(rfc3986_normalized(written))
        }
        HostReading::DomainPunycode(schemes) if schemes.contains(&scheme.as_str()) => {
            String::from_utf8(decoded(written).into_owned())
                .ok()
                .and_then(|text| punycode_labels(&text.to_lowercase()))
        }
        HostReading::DomainWhatwg(schemes) if schemes.contains(&scheme.as_str()) => {
            whatwg_domain(written)
        }
        _ => None,
    })?;
    read.eq_ignore_ascii_case(theirs)
        .then_some(Class::DomainHost)
}

/// `host` normalised as RFC 3986 section 6.2.2 describes
/// ([`HostReading::Rfc3986Normalized`]): a percent-encoded unreserved
/// octet decoded, then everything lower-cased but the hex digits of the
/// percent-encodings left, which stay upper case (urllib3 decodes, then
/// lower-cases each label, then upper-cases its escapes). The second
/// [`pct_normalized`] only upper-cases those digits again: after the first,
/// every escape is of an octet that is not unreserved.
fn rfc3986_normalized(host: &str) -> String {
    pct_normalized(&pct_normalized(host).to_lowercase())
}

/// `host` written as [`HostReading::Ipv4LeadingZerosDropped`] says, when
/// it is four dot-separated decimal numbers of one to three digits each,
/// at most 255 (uri-js's `IPV4ADDRESS`); none otherwise.
fn ipv4_zeros_dropped(host: &str) -> Option<String> {
    let octets: Vec<&str> = host.split('.').collect();
    let valid = octets.len() == 4
        && octets.iter().all(|o| {
            (1..=3).contains(&o.len())
                && o.bytes().all(|b| b.is_ascii_digit())
                && o.parse::<u8>().is_ok()
        });
    valid.then(|| {
        octets
            .iter()
            .map(|o| match o.trim_start_matches('0') {
                "" => "0",
                t => t,
            })
            .collect::<Vec<_>>()
            .join(".")
    })
}

/// The input's bracketed text: from the first `[` to the next `]`.
pub(crate) fn input_literal(input: &str) -> Option<&str> {
    let rest = input.get(input.find('[')?..)?;
    rest.get(..=rest.find(']')?)
}

/// Is `host` (which `id` reports) the input's own valid IP literal as `id`
/// writes it ([`host_reading`]'s `ipv6-text-form`)? Then the brackets hold
/// an `IP-literal` of RFC 3986 section 3.2.2 (with RFC 6874's zone ID),
/// only written in another text form.
pub(crate) fn writes_input_literal(id: OracleId, input: &str, host: &str) -> bool {
    input_literal(input)
        .is_some_and(|literal| host_reading(id, None, literal, host) == Some(Class::Ipv6TextForm))
}

/// A parser whose documentation says it reads RFC 6874's zone IDs
/// ([`HostReading::ZoneDecoded`]) accepts the input, RFC 3986's reference
/// refuses it (`r`), and the zone ID alone is why: the input's literal is
/// a valid `IPv6addrz` (`address "%25" ZoneID`), `theirs` reads it as that
/// address and zone, and the reference accepts the input with the zone ID
/// taken out. RFC 6874 updates RFC 3986 section 3.2.2 with that rule, which
/// the reference's grammar (RFC 3986's own ABNF) does not have.
pub(crate) fn zone_variation(
    id: OracleId,
    input: &str,
    r: &Outcome<'_>,
    theirs: &Outcome<'_>,
) -> Option<Class> {
    if r.accepted() || !theirs.accepted() || !documents(id, |r| r == HostReading::ZoneDecoded) {
        return None;
    }
    let literal = input_literal(input)?;
    // Or a zone ID after a bare `%` that RFC 6874 section 3 suggests URI
    // parsers accept (`ip_literal::is_bare_percent_zone`).
    let bare = literal
        .strip_prefix('[')
        .and_then(|l| l.strip_suffix(']'))
        .is_some_and(super::ip_literal::is_bare_percent_zone);
    let (address, _) = if bare {
        literal.split_once('%')?
    } else {
        literal.split_once("%25")?
    };
    let host = theirs.components.get(Component::Host)?;
    if !(bare || is_ip_literal(literal)) || !same_address(literal, host) {
        return None;
    }
    let without_zone = input.replacen(literal, &format!("{address}]"), 1);
    OracleId::Rfc3986Grammar
        .run(&without_zone)
        .accepted()
        .then_some(Class::Ipv6ZoneId)
}

/// The documentation passage behind `id`'s reading `class` explains, for
/// the finding's detail; none for the generic IPv6 text forms.
pub(crate) fn citation(id: OracleId, class: Class) -> Option<&'static str> {
    id.host_readings()
        .iter()
        .find(|(r, _)| match class {
            Class::Ipv6TextForm | Class::Ipv6ZoneId => {
                matches!(r, HostReading::ZoneDecoded | HostReading::PercentDecoded)
            }
            Class::DomainHost => matches!(
                r,
                HostReading::DomainPunycode(_)
                    | HostReading::DomainWhatwg(_)
                    | HostReading::Rfc3986Normalized(_)
            ),
            Class::Ipv4LeadingZeros => matches!(r, HostReading::Ipv4LeadingZerosDropped),
            _ => false,
        })
        .map(|(_, cite)| *cite)
}

fn documents(id: OracleId, f: impl Fn(HostReading) -> bool) -> bool {
    id.host_readings().iter().any(|&(r, _)| f(r))
}

/// Do `r` (the reference's outcome) and `theirs` differ only in the host
/// (and in the case of the scheme), and does `theirs`'s host read as `r`'s
/// by [`host_reading`]? Then that class explains the departure.
pub(crate) fn host_variation(id: OracleId, r: &Outcome<'_>, theirs: &Outcome<'_>) -> Option<Class> {
    let d = diff(r, theirs);
    if d.verdict || !d.fields.contains(Component::Host) {
        return None;
    }
    let scheme_case_only = |c: Component| {
        c == Component::Scheme
            && matches!(
                (r.components.get(c), theirs.components.get(c)),
                (Some(a), Some(b)) if a.eq_ignore_ascii_case(b)
            )
    };
    if !d
        .fields
        .iter()
        .all(|c| c == Component::Host || scheme_case_only(c))
    {
        return None;
    }
    let (Some(written), Some(host)) = (
        r.components.get(Component::Host),
        theirs.components.get(Component::Host),
    ) else {
        return None;
    };
    let scheme = theirs
        .components
        .get(Component::Scheme)
        .or_else(|| r.components.get(Component::Scheme));
    host_reading(id, scheme, written, host)
}

/// A reg-name as the URL Standard's host parser reads it for a special
/// scheme (percent-decoding, domain to ASCII, the IPv4 parser), which
/// fast-uri asks of the runtime's `URL`; none where that parser fails
/// (fast-uri then keeps the host and sets `error`).
fn whatwg_domain(host: &str) -> Option<String> {
    url::Host::parse(host).ok().map(|h| h.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn id(name: &str) -> OracleId {
        crate::oracle::register_external(name).unwrap()
    }

    /// urllib3 2.8.0, run directly: `parse_url("%5F3!/")` has host `_3!`,
    /// `parse_url("nnE%2E%Ee/")` host `nne.%EE`; `parse_url("ftp://%5F/")`
    /// keeps `%5F` (ftp is not one of its normalisable schemes).
    #[test]
    fn a_host_normalised_as_urllib3_documents() {
        let urllib3 = id("urllib3");
        assert_eq!(rfc3986_normalized("nnE%2E%Ee"), "nne.%EE");
        assert_eq!(
            host_reading(urllib3, None, "%5F3!", "_3!"),
            Some(Class::DomainHost)
        );
        assert_eq!(
            host_reading(urllib3, Some("HTTP"), "A%7e", "a~"),
            Some(Class::DomainHost)
        );
        assert_eq!(host_reading(urllib3, Some("ftp"), "%5F", "_"), None);
        assert_eq!(host_reading(urllib3, None, "%5F3!", "_3"), None);
        assert_eq!(
            host_reading(OracleId::Http, None, "%5F3!", "_3!"),
            None,
            "only where the descriptor says so"
        );
    }

    #[test]
    fn one_address_in_another_text_form_is_the_input_s_literal() {
        // Any parser: a valid literal of the same address.
        let http = OracleId::Http;
        let literal = "[0:0:0:0:0:0:0d01:4403]";
        assert_eq!(
            host_reading(http, Some("http"), literal, "[::d01:4403]"),
            Some(Class::Ipv6TextForm)
        );
        assert_eq!(
            host_reading(http, Some("http"), literal, "[::13.1.68.3]"),
            Some(Class::Ipv6TextForm)
        );
        assert_eq!(
            host_reading(http, Some("http"), literal, "[::d01:4404]"),
            None
        );
        // A zone after a single `%` only where the documentation says so.
        let zoned = "[fe80::1%25en0]";
        assert_eq!(
            host_reading(http, Some("http"), zoned, "[fe80::1%en0]"),
            None
        );
        let uri_js = id("uri-js");
        assert_eq!(
            host_reading(uri_js, Some("http"), zoned, "[fe80::1%en0]"),
            Some(Class::Ipv6TextForm)
        );
        // The zone ID itself is not decoded (RFC 6874 section 2).
        assert_eq!(
            host_reading(uri_js, Some("http"), "[::1%25%41]", "[::1%a]"),
            None
        );
        // Go decodes the whole host, the zone's own escapes included.
        let go = id("go-net-url");
        assert_eq!(
            host_reading(go, Some("http"), zoned, "[fe80::1%en0]"),
            Some(Class::Ipv6TextForm)
        );
        assert_eq!(
            host_reading(go, Some("http"), "[fe80::1%25%41]", "[fe80::1%A]"),
            Some(Class::Ipv6TextForm)
        );
        assert_eq!(
            host_reading(go, Some("http"), "[fe80::1%25%41]", "[fe80::1%B]"),
            None
        );
        // What is no valid literal is explained by nothing here.
        assert_eq!(host_reading(uri_js, Some("http"), "[::1:]", "[::1]"), None);
    }

    #[test]
    fn a_domain_host_is_read_as_the_documentation_says_for_its_schemes_only() {
        let uri_js = id("uri-js");
        let fast_uri = id("fast-uri");
        let written = "%CF%80.example.com";
        for parser in [uri_js, fast_uri] {
            assert_eq!(
                host_reading(parser, Some("HTTPS"), written, "xn--1xa.example.com"),
                Some(Class::DomainHost)
            );
            assert_eq!(
                host_reading(parser, Some("foo"), written, "xn--1xa.example.com"),
                None,
                "foo has no domain-host handler"
            );
            assert_eq!(
                host_reading(parser, Some("http"), written, "xn--1xb.example.com"),
                None
            );
        }
        // uri-js: punycode.js toASCII, no UTS #46 mapping (fullwidth
        // letters stay letters beyond ASCII); fast-uri: the URL Standard's.
        assert_eq!(
            host_reading(uri_js, Some("http"), "Ｇｏ.com", "xn--si7cqa.com"),
            Some(Class::DomainHost)
        );
        assert_eq!(
            host_reading(fast_uri, Some("http"), "Ｇｏ.com", "go.com"),
            Some(Class::DomainHost)
        );
        assert_eq!(
            host_reading(fast_uri, Some("http"), "0x7f.1", "127.0.0.1"),
            Some(Class::DomainHost)
        );
        assert_eq!(
            host_reading(uri_js, Some("http"), "0x7f.1", "127.0.0.1"),
            None
        );
        // A parser without the reading.
        assert_eq!(
            host_reading(OracleId::Http, Some("http"), written, "xn--1xa.example.com"),
            None
        );
    }
}
