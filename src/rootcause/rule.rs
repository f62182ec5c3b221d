//! The recognisers a ledger row names (`rule:NAME` in `testdata/ledger.tsv`):
//! each says whether a case shows the behaviour its row records, reading the
//! input, the base and the parser's own outcome.

use super::Evidence;
use crate::components::Component;
use crate::triage::Finding;

/// The recognisers a `rule:NAME` row names.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Rule {
    /// The parser accepts an authority whose port is not a u16 (not digits,
    /// or above 65535): RFC 3986 section 3.2.3 `port = *DIGIT`, and
    /// http::Uri's `Port` is a u16.
    PortNotU16,
    /// The input's host after `@` is empty (the URL Standard's
    /// host-missing validation error, which fails).
    HostMissing,
    /// A reference with `\` resolved against a non-special base: the URL
    /// Standard reads `\` as `/` in special URLs only.
    BackslashNonSpecial,
    /// A `file:` URL with a Windows drive letter followed by a tab, CR or
    /// LF (which the URL Standard removes before parsing).
    WhitespaceAfterDriveLetter,
    /// A `file:` URL with a Windows drive letter (`c:` or `c|`).
    FileDriveLetter,
    /// A `file:` URL whose path holds an empty segment (`file:////`,
    /// `file:\\//`).
    FileEmptySegments,
    /// A URL of another scheme than `file` with a drive-letter segment
    /// that a later `..` should take away (the URL Standard's drive-letter
    /// exception when shortening a path is for `file` URLs only).
    NonFileDriveLetter,
    /// A host with an all-ASCII `xn--` label (the URL Standard's ASCII
    /// fallback, whatwg/url#914).
    AsciiXnLabel,
    /// A URL of a non-special scheme whose port digits are followed by a
    /// `\` (`s://h:1\x`): the URL Standard's port state ends the port at
    /// `\` only when the URL is special, and fails otherwise.
    BackslashAfterPort,
    /// A bracketed IPv6 literal in the input with a `:` right before its
    /// `]` or its zone delimiter (`[::1:]`): a trailing colon after a hex
    /// group, which no `IPv6address` of RFC 3986 section 3.2.2 has.
    Ipv6TrailingColon,
    /// A bracketed IPv6 literal in the input whose zone ID follows a bare
    /// `%` (`[fe80::1%eth0]`): RFC 6874 section 2 writes the delimiter as
    /// `%25`.
    ZoneIdBarePercent,
    /// The finding is about the verdict alone: the parser accepts what its
    /// standard fails, or the other way round.
    Verdict,
    /// The parser's host is an IPv6 literal written as eight groups of four
    /// lower-case hex digits that neither the input nor the base spells so:
    /// the parser wrote the address from its bytes, not the component's
    /// text (RFC 3986 section 5.3 recomposes the components as they are).
    Ipv6Expanded,
    /// The parser's path has a `.` segment before `//` although it has an
    /// authority: RFC 3986 section 5.2.4 removes that `.`, and only a path
    /// without an authority needs a guard before `//` (section 3.3).
    DotBeforeAuthorityPath,
    /// A resolution whose RFC 3986 target (section 5.2.2, as the reference
    /// computes it) has no authority and a path that starts with `//`,
    /// which the parser wrote unguarded: its resolved text reads an
    /// authority, or does not parse. Section 5.3 cannot write such a path
    /// as it is, so a resolver must guard it (`/.` or `./` before it).
    DoubleSlashPathWithoutAuthority,
    /// A bracketed text in the input that is no IPv6 address (RFC 3986
    /// section 3.2.2's `IPv6address`, RFC 2732's `IPv6reference`) and no
    /// `IPvFuture`: `[1.2.3.4]`, `[1:2:3:4:5:6:7:8:9]`.
    BracketedNotIpv6,
    /// The finding is about the query, the input (or the base) has a `'`
    /// in its query, and the parser's query has `%27`: it percent-encoded
    /// a sub-delim RFC 3986 allows there (section 3.4), which section 2.2
    /// says changes the URI.
    QueryApostropheEncoded,
    /// A resolution whose reference starts with `///`: an empty authority
    /// and a path (RFC 3986 section 4.2, `"//" authority path-abempty`),
    /// which a parser that reads `///` as a path takes for none.
    TripleSlashReference,
    /// The input's authority has text after a bracketed host other than a
    /// `:` and a port (`http://[::1]x/`): RFC 3986 section 3.2 has only
    /// `[ ":" port ]` follow the host.
    TextAfterBracketedHost,
    /// The finding is about the host, and the parser's host (no IP literal)
    /// is no RFC 2396 `hostname` or `IPv4address` (section 3.2.2): a
    /// toplabel that starts with a digit (`0X3`, `417D`), a label that ends
    /// in `-` (`oliy-`); RFC 2396 reads such an authority as a `reg_name`,
    /// with no host.
    Rfc2396HostNotHostname,
    /// A round trip broken on a `file:` URL whose path has a dot segment
    /// (`.`, `..`, or either written with `%2e`) before a drive-letter
    /// segment (`file:/./p:`): removing the dot segments (RFC 3986 section
    /// 5.2.4) makes a path that starts with a drive letter (RFC 8089
    /// appendix E.2), which the parser's own check runs before, not after.
    FileDriveLetterAfterDotSegments,
    /// A round trip broken where the parser's host holds an ASCII control
    /// character (`A:/%7f.1`: host `\x7f.1`): it percent-decoded into its
    /// host a byte its own parser refuses when it reads its serialization
    /// again (RFC 3986 section 3.2.2 keeps a `reg-name`'s escapes).
    HostDecodedToControl,
}

impl Rule {
    pub(super) const ALL: [Rule; 22] = [
        Rule::PortNotU16,
        Rule::HostMissing,
        Rule::BackslashNonSpecial,
        Rule::WhitespaceAfterDriveLetter,
        Rule::FileDriveLetter,
        Rule::FileEmptySegments,
        Rule::NonFileDriveLetter,
        Rule::AsciiXnLabel,
        Rule::BackslashAfterPort,
        Rule::Ipv6TrailingColon,
        Rule::ZoneIdBarePercent,
        Rule::Verdict,
        Rule::Ipv6Expanded,
        Rule::DotBeforeAuthorityPath,
        Rule::DoubleSlashPathWithoutAuthority,
        Rule::BracketedNotIpv6,
        Rule::QueryApostropheEncoded,
        Rule::TripleSlashReference,
        Rule::TextAfterBracketedHost,
        Rule::Rfc2396HostNotHostname,
        Rule::FileDriveLetterAfterDotSegments,
        Rule::HostDecodedToControl,
    ];

    /// Its name in the `match` column.
    pub fn as_str(self) -> &'static str {
        match self {
            Rule::PortNotU16 => "port-not-u16",
            Rule::HostMissing => "host-missing",
            Rule::BackslashNonSpecial => "backslash-non-special",
            Rule::WhitespaceAfterDriveLetter => "whitespace-after-drive-letter",
            Rule::FileDriveLetter => "file-drive-letter",
            Rule::FileEmptySegments => "file-empty-segments",
            Rule::NonFileDriveLetter => "non-file-drive-letter",
            Rule::AsciiXnLabel => "ascii-xn-label",
            Rule::BackslashAfterPort => "backslash-after-port",
            Rule::Ipv6TrailingColon => "ipv6-trailing-colon",
            Rule::ZoneIdBarePercent => "zone-id-bare-percent",
            Rule::Verdict => "verdict",
            Rule::Ipv6Expanded => "ipv6-expanded",
            Rule::DotBeforeAuthorityPath => "dot-before-authority-path",
            Rule::DoubleSlashPathWithoutAuthority => "double-slash-path-without-authority",
            Rule::BracketedNotIpv6 => "bracketed-not-ipv6",
            Rule::QueryApostropheEncoded => "query-apostrophe-encoded",
            Rule::TripleSlashReference => "triple-slash-reference",
            Rule::TextAfterBracketedHost => "text-after-bracketed-host",
            Rule::Rfc2396HostNotHostname => "rfc2396-host-not-hostname",
            Rule::FileDriveLetterAfterDotSegments => "file-drive-letter-after-dot-segments",
            Rule::HostDecodedToControl => "host-decoded-to-control",
        }
    }

    pub(super) fn holds(self, case: Evidence<'_, '_>, finding: &Finding) -> bool {
        match self {
            Rule::PortNotU16 => case
                .outcome(finding.oracle)
                .and_then(|o| o.components.get(Component::Authority))
                .is_some_and(port_not_u16),
            Rule::HostMissing => crate::triage::defects::empty_host_after_at(case.input).is_some(),
            Rule::BackslashNonSpecial => {
                case.input.contains('\\')
                    && case.base.is_some_and(|b| {
                        !b.split_once(':').is_some_and(|(s, _)| {
                            ["http", "https", "ws", "wss", "ftp", "file"]
                                .iter()
                                .any(|special| s.eq_ignore_ascii_case(special))
                        })
                    })
            }
            Rule::FileDriveLetter => [Some(case.input), case.base]
                .into_iter()
                .flatten()
                .any(file_with_drive_letter),
            Rule::FileEmptySegments => file_with_empty_segment(case.input),
            Rule::WhitespaceAfterDriveLetter => {
                drive_letter_then(case.input, |b| matches!(b, b'\t' | b'\r' | b'\n'))
            }
            Rule::AsciiXnLabel => crate::known::ascii_xn_label(case.input),
            Rule::NonFileDriveLetter => [Some(case.input), case.base]
                .into_iter()
                .flatten()
                .any(non_file_drive_letter_then_dots),
            Rule::BackslashAfterPort => backslash_after_port(case.input),
            Rule::Ipv6TrailingColon => bracketed(case.input).any(|literal| {
                let address = literal.split_once('%').map_or(literal, |(a, _)| a);
                address.ends_with(':') && !address.ends_with("::")
            }),
            Rule::ZoneIdBarePercent => bracketed(case.input).any(|literal| {
                literal
                    .split_once('%')
                    .is_some_and(|(_, zone)| !zone.starts_with("25"))
            }),
            Rule::BracketedNotIpv6 => bracketed(case.input).any(|literal| {
                let address = literal.split_once('%').map_or(literal, |(a, _)| a);
                !address.starts_with(['v', 'V']) && address.parse::<std::net::Ipv6Addr>().is_err()
            }),
            Rule::Verdict => finding.verdict,
            Rule::QueryApostropheEncoded => query_apostrophe_encoded(case, finding),
            Rule::TripleSlashReference => case.base.is_some() && case.input.starts_with("///"),
            Rule::TextAfterBracketedHost => crate::oracle::appendix_b_split(case.input)
                .authority
                // After the bracketed host's own `]` (the first one after
                // its `[`): a second `]` may follow the dropped text.
                .and_then(|a| a.split_once('[').and_then(|(_, rest)| rest.split_once(']')))
                .is_some_and(|(_, rest)| {
                    !rest.is_empty()
                        && !rest
                            .strip_prefix(':')
                            .is_some_and(|port| port.bytes().all(|b| b.is_ascii_digit()))
                }),
            Rule::Rfc2396HostNotHostname => rfc2396_host_not_hostname(case, finding),
            Rule::Ipv6Expanded => case
                .outcome(finding.oracle)
                .and_then(|o| o.components.get(Component::Host))
                .is_some_and(|host| {
                    is_expanded_ipv6(host)
                        && !case.input.contains(host)
                        && case.base.is_none_or(|b| !b.contains(host))
                }),
            Rule::DotBeforeAuthorityPath => case.outcome(finding.oracle).is_some_and(|o| {
                o.components.get(Component::Host).is_some()
                    && o.components
                        .get(Component::Path)
                        .is_some_and(|p| p.starts_with("/.//"))
            }),
            Rule::DoubleSlashPathWithoutAuthority => {
                double_slash_path_without_authority(case, finding)
            }
            Rule::FileDriveLetterAfterDotSegments => {
                finding.class == crate::triage::Class::RoundTrip
                    && file_drive_letter_after_dot_segment(case.input)
            }
            Rule::HostDecodedToControl => {
                finding.class == crate::triage::Class::RoundTrip
                    && case
                        .outcome(finding.oracle)
                        .and_then(|o| o.components.get(Component::Host))
                        .is_some_and(|h| h.bytes().any(|b| b.is_ascii_control()))
            }
        }
    }
}

/// `rfc2396-host-not-hostname`: the finding claims the authority's parts,
/// the host among them, and the parser's host (no IP literal) is no RFC
/// 2396 `hostname` or `IPv4address`.
fn rfc2396_host_not_hostname(case: Evidence<'_, '_>, finding: &Finding) -> bool {
    // The authority's parts alone: a path claimed beside them has
    // another cause (Ruby's merge, RFC 2396 section C.1).
    finding.fields.contains(Component::Host)
        && finding
            .fields
            .difference(crate::components::ComponentSet::of(&[
                Component::Authority,
                Component::Userinfo,
                Component::Host,
                Component::Port,
            ]))
            .is_empty()
        && case
            .outcome(finding.oracle)
            .and_then(|o| o.components.get(Component::Host))
            .is_some_and(|h| {
                !h.is_empty()
                    && !h.starts_with('[')
                    && crate::rfc2396::parse(&format!("//{h}")).is_ok_and(|u| u.host().is_none())
            })
}

/// `query-apostrophe-encoded`: the input's (or the base's) query holds a
/// `'` and the oracle's query has it as `%27`.
fn query_apostrophe_encoded(case: Evidence<'_, '_>, finding: &Finding) -> bool {
    let apostrophe_in_query = |t: &str| {
        t.split('#')
            .next()
            .and_then(|t| t.split_once('?'))
            .is_some_and(|(_, q)| q.contains('\''))
    };
    // The claim is the query's alone: a finding that also holds another
    // field has another cause beside this one.
    finding.fields == crate::components::ComponentSet::of(&[Component::Query])
        && (apostrophe_in_query(case.input) || case.base.is_some_and(apostrophe_in_query))
        && case
            .outcome(finding.oracle)
            .and_then(|o| o.components.get(Component::Query))
            .is_some_and(|q| q.contains("%27"))
}

/// `double-slash-path-without-authority`: RFC 3986 section 5.2 resolves
/// the pair to a path starting `//` with no authority, which the oracle did
/// not guard (it accepted with a host, or refused).
fn double_slash_path_without_authority(case: Evidence<'_, '_>, finding: &Finding) -> bool {
    let unguarded = case
        .outcome(finding.oracle)
        .is_some_and(|o| !o.accepted() || o.components.get(Component::Host).is_some());
    unguarded
        && case.base.is_some_and(|base| {
            let target = crate::oracle::grammar_rfc3986_resolve(base, case.input);
            target.accepted()
                && target.components.get(Component::Authority).is_none()
                && target
                    .components
                    .get(Component::Path)
                    .is_some_and(|p| p.starts_with("//"))
        })
}

/// Is `input` a URL of a non-special scheme (not `http`, `https`, `ws`,
/// `wss`, `ftp` or `file`: the URL Standard's special schemes) whose
/// authority's port digits are followed by a `\`?
pub(super) fn backslash_after_port(input: &str) -> bool {
    let Some((scheme, rest)) = input.split_once("://") else {
        return false;
    };
    let special = ["http", "https", "ws", "wss", "ftp", "file"];
    if special.iter().any(|s| scheme.eq_ignore_ascii_case(s)) {
        return false;
    }
    // A non-special authority ends at `/`, `?` or `#` (not at `\`).
    let authority = rest.split(['/', '?', '#']).next().unwrap_or_default();
    let host_port = authority.rsplit_once('@').map_or(authority, |(_, h)| h);
    let after_host = match host_port.strip_prefix('[') {
        Some(inside) => inside.split_once(']').map_or("", |(_, after)| after),
        None => host_port
            .find(':')
            .map_or("", |at| host_port.get(at..).unwrap_or("")),
    };
    after_host.strip_prefix(':').is_some_and(|port| {
        let digits = port.bytes().take_while(u8::is_ascii_digit).count();
        port.as_bytes().get(digits) == Some(&b'\\')
    })
}

/// The text inside each `[`…`]` of `input`.
fn bracketed(input: &str) -> impl Iterator<Item = &str> {
    input
        .split('[')
        .skip(1)
        .filter_map(|rest| rest.split_once(']').map(|(inside, _)| inside))
}

/// Is `host` `[` eight groups of four lower-case hex digits `]`, the form
/// an IPv6 address takes when written from its sixteen bytes with no
/// compression?
pub(super) fn is_expanded_ipv6(host: &str) -> bool {
    let Some(inner) = host.strip_prefix('[').and_then(|h| h.strip_suffix(']')) else {
        return false;
    };
    let groups: Vec<&str> = inner.split(':').collect();
    groups.len() == 8
        && groups.iter().all(|g| {
            g.len() == 4
                && g.bytes()
                    .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b))
        })
}

/// Does `authority` hold a port that is not a u16? The port follows the
/// host (after the last `@`, and after a bracketed literal's `]`).
pub(super) fn port_not_u16(authority: &str) -> bool {
    let host_port = authority.rsplit_once('@').map_or(authority, |(_, h)| h);
    let after_host = match host_port.strip_prefix('[') {
        Some(rest) => rest.split_once(']').map_or("", |(_, after)| after),
        None => host_port
            .find(':')
            .map_or("", |at| host_port.get(at..).unwrap_or("")),
    };
    match after_host.strip_prefix(':') {
        Some(port) if !port.is_empty() => port.parse::<u16>().is_err(),
        _ => false,
    }
}

/// Is `text` a `file:` URL with a drive letter (a segment `x:` or `x|`,
/// after a slash, a backslash or the scheme's colon)?
pub(super) fn file_with_drive_letter(text: &str) -> bool {
    // The end of the segment after: `file://h:8/` has a port, not a drive.
    drive_letter_then(text, |b| matches!(b, b'/' | b'\\' | b'?' | b'#'))
}

/// Is `text` a URL of another scheme than `file` with a drive-letter
/// segment (`a:` after a slash) and a `..` segment after it?
pub(super) fn non_file_drive_letter_then_dots(text: &str) -> bool {
    let Some((scheme, rest)) = text.split_once(':') else {
        return false;
    };
    if scheme.eq_ignore_ascii_case("file") {
        return false;
    }
    // `..` as the URL Standard reads a double-dot segment (`%2e%2e`,
    // `.%2E` …: "double-dot URL path segment").
    let segments: Vec<&str> = rest.split(['/', '\\']).collect();
    segments.iter().enumerate().any(|(i, seg)| {
        crate::triage::text::is_drive_letter(seg)
            && segments
                .iter()
                .skip(i + 1)
                .any(|later| crate::triage::text::is_double_dot(later))
    })
}

/// Is `text` a `file:` URL whose path has a dot segment (`.` or `..`, in
/// any spelling the URL Standard reads as one) before a drive-letter
/// segment (`x:` or `x|`)?
pub(super) fn file_drive_letter_after_dot_segment(text: &str) -> bool {
    let Some((scheme, rest)) = text.split_once(':') else {
        return false;
    };
    if !scheme.eq_ignore_ascii_case("file") {
        return false;
    }
    let path = rest.split(['?', '#']).next().unwrap_or_default();
    let mut dot_seen = false;
    for segment in path.split(['/', '\\']) {
        if dot_seen && crate::triage::text::is_drive_letter(segment) {
            return true;
        }
        dot_seen |= crate::triage::text::is_double_dot(segment)
            || segment == "."
            || segment.eq_ignore_ascii_case("%2e");
    }
    false
}

/// Is `text` a `file:` URL with a drive letter (`x:` or `x|` after a slash,
/// a backslash or the scheme's colon) followed by a byte `next` accepts
/// (the end counts as `/`)?
pub(super) fn drive_letter_then(text: &str, next: impl Fn(u8) -> bool) -> bool {
    let Some((scheme, rest)) = text.split_once(':') else {
        return false;
    };
    if !scheme.eq_ignore_ascii_case("file") {
        return false;
    }
    // A slash before (the colon counts as one), and one after the end.
    let bytes: Vec<u8> = std::iter::once(b'/')
        .chain(rest.bytes())
        .chain(std::iter::once(b'/'))
        .collect();
    bytes.windows(4).any(|w| {
        matches!(w, [b'/' | b'\\', letter, b':' | b'|', after]
            if letter.is_ascii_alphabetic() && next(*after))
    })
}

/// Is `text` a `file:` URL whose path, after the authority's two slashes
/// and the authority, holds two slashes (or backslashes) in a row?
pub(super) fn file_with_empty_segment(text: &str) -> bool {
    let Some((scheme, rest)) = text.split_once(':') else {
        return false;
    };
    if !scheme.eq_ignore_ascii_case("file") {
        return false;
    }
    let slash = |c: char| c == '/' || c == '\\';
    let mut chars = rest.chars();
    let path = if rest.chars().take(2).all(slash) && rest.chars().count() >= 2 {
        chars.nth(1);
        let after = chars.as_str();
        after
            .find(slash)
            .map_or("", |at| after.get(at..).unwrap_or(""))
    } else {
        rest
    };
    path.contains("//") || path.contains("\\\\") || path.contains("/\\") || path.contains("\\/")
}
