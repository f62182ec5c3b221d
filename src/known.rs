//! Known deviations: parsers' documented departures from their own
//! standard, read from `testdata/known-deviations.tsv` (its header gives the
//! columns and the sources), so that a defect finding one of them explains
//! can be marked known and users see what is new.
//!
//! A row matches a finding in one of two ways ([`Match`]): exactly (the
//! finding's input and base are the row's: every `url` row, one
//! web-platform-tests case each), or by a [`Rule`], a shape of input and
//! base that a parser documents as a whole (fluent-uri's resolution
//! deviations), for which the row's input and base are one witness.
//!
//! The file is compiled in and read once. A malformed row is left out and
//! reported by [`load_errors`], never a panic: a test holds the list empty.

use std::sync::OnceLock;

use crate::oracle::OracleId;

/// The data file, compiled in.
const DATA: &str = include_str!("../testdata/known-deviations.tsv");

/// The number of TAB-separated columns of a row.
const COLUMNS: usize = 8;

/// One documented departure of a parser from its standard.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct KnownDeviation {
    /// A stable kebab-case name, unique in the file.
    pub id: String,
    /// The oracle whose parser departs.
    pub oracle: OracleId,
    /// How a finding matches the row.
    pub matcher: Match,
    /// The input (the reference, with a base); for a rule row, the witness's.
    pub input: String,
    /// The base, if any.
    pub base: Option<String>,
    /// What the standard requires for this input and base.
    pub expected: Expected,
    /// Where the parser's project records the departure (a URL).
    pub source: String,
    /// The departure in one line.
    pub summary: String,
}

/// How a finding matches a [`KnownDeviation`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Match {
    /// The finding's input and base equal the row's.
    Exact,
    /// The finding's input and base have the shape of the rule.
    Rule(Rule),
}

/// A deviation with a shape, not a single case: which inputs and bases a
/// parser's documentation says it treats its own way.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Rule {
    /// fluent-uri refuses to resolve a reference that has no scheme, is not
    /// empty and does not start with `#` against a base with a rootless path
    /// and no authority (its `resolve_against` documentation), where RFC
    /// 3986 section 5.2.3 merges the paths.
    RootlessBase,
    /// fluent-uri removes percent-encoded dot segments (`%2E`, `.%2e`) in
    /// resolution (its `resolve_against` documentation), where RFC 3986
    /// section 5.2.4 removes only the literal `.` and `..`.
    PercentEncodedDotSegments,
    /// whatwg-url before 17.1.0 reads a userinfo holding a code point above
    /// U+FFFF followed by another character by UTF-16 code units: it writes
    /// U+FFFD for the next character and drops the last one
    /// (jsdom/whatwg-url#333, released in 17.1.0, which needs Node 22.14;
    /// web-platform-tests/wpt#61063 tests it).
    AstralUserinfo,
    /// A host with an all-ASCII `xn--` label: since whatwg/url#914 (WPT
    /// #60476, June 2026) the URL Standard falls back to the lower-cased
    /// ASCII domain where ToASCII fails, which whatwg-url before 17.0.0
    /// (jsdom/whatwg-url#321) and url 2.5.8 (servo/rust-url#1135) do not.
    AsciiXnLabel,
    /// java.net.URI and Ruby's URI::RFC2396_Parser read RFC 2732's IPv6
    /// literals (`[...]` hosts), an amendment to RFC 2396 both document,
    /// which RFC 2396 Appendix A does not have.
    Rfc2732IpLiteral,
    /// Ruby's URI::FTP reads an `ftp` URL's path without its leading `/`
    /// (RFC 1738 section 3.2.2: the `/` separates the host from the path;
    /// its `path` documentation), where the generic grammar keeps it.
    FtpPathWithoutSlash,
    /// A `mailto:` URI: Ruby's URI::MailTo reads it by RFC 6068 (`to`
    /// addresses and headers), and refuses what is no mailto URL. (The
    /// mailto handlers of fast-uri and uri-js, which return `to` and the
    /// headers, depart from nothing: their adapters leave the path and
    /// query out, not reported.)
    MailtoScheme,
    /// A `file:` URI: Ruby's URI::File keeps no userinfo.
    FileScheme,
    /// A `ws:` or `wss:` URI: the WebSocket handlers of fast-uri and uri-js
    /// (RFC 6455) return the path and query joined as `resourceName`, with
    /// no `path` or `query` (uri-js's README, "WS/WSS Support").
    WsScheme,
    /// A character outside US-ASCII: java.net.URI's "other" category, which
    /// it accepts where RFC 2396 requires escaping (its "Categories of
    /// characters").
    NonAscii,
}

/// What the standard requires.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Expected {
    /// This serialization (the URL Standard's `href`; for RFC 3986, the
    /// result of section 5.2 recomposed by section 5.3).
    Href(String),
    /// No URL: the standard fails the input.
    Failure,
}

impl Rule {
    /// Every rule.
    pub const ALL: &'static [Rule] = &[
        Rule::RootlessBase,
        Rule::PercentEncodedDotSegments,
        Rule::AstralUserinfo,
        Rule::AsciiXnLabel,
        Rule::Rfc2732IpLiteral,
        Rule::FtpPathWithoutSlash,
        Rule::MailtoScheme,
        Rule::FileScheme,
        Rule::WsScheme,
        Rule::NonAscii,
    ];

    /// Its name in the data file's `match` column (`rule:NAME`).
    pub fn as_str(self) -> &'static str {
        match self {
            Rule::RootlessBase => "rootless-base",
            Rule::PercentEncodedDotSegments => "percent-encoded-dot-segments",
            Rule::AstralUserinfo => "astral-userinfo",
            Rule::AsciiXnLabel => "ascii-xn-label",
            Rule::Rfc2732IpLiteral => "rfc2732-ip-literal",
            Rule::FtpPathWithoutSlash => "ftp-path-without-slash",
            Rule::MailtoScheme => "mailto-scheme",
            Rule::FileScheme => "file-scheme",
            Rule::WsScheme => "ws-scheme",
            Rule::NonAscii => "non-ascii",
        }
    }

    /// The fields a scheme handler's deviation touches, for the rules that
    /// are about one scheme's handler: URI::File keeps no userinfo or port
    /// (RFC 8089), a WebSocket handler joins the path and query
    /// (`resourceName`, RFC 6455 section 3), URI::FTP's path has no leading
    /// `/` (RFC 1738 section 3.2.2). None for a rule whose deviation may
    /// show in any field or the verdict (a mailto handler refuses what
    /// RFC 6068 does not allow).
    pub fn fields(self) -> Option<crate::components::ComponentSet> {
        use crate::components::{Component, ComponentSet};
        match self {
            Rule::FileScheme => Some(ComponentSet::of(&[
                Component::Authority,
                Component::Userinfo,
                Component::Port,
            ])),
            Rule::WsScheme => Some(ComponentSet::of(&[Component::Path, Component::Query])),
            Rule::FtpPathWithoutSlash => Some(ComponentSet::of(&[Component::Path])),
            Rule::RootlessBase
            | Rule::PercentEncodedDotSegments
            | Rule::AstralUserinfo
            | Rule::AsciiXnLabel
            | Rule::Rfc2732IpLiteral
            | Rule::MailtoScheme
            | Rule::NonAscii => None,
        }
    }

    /// The rule with this name.
    pub(crate) fn from_name(name: &str) -> Option<Rule> {
        Rule::ALL.iter().copied().find(|r| r.as_str() == name)
    }

    /// Do `input` (the reference) and `base` have this rule's shape? Both
    /// rules are about resolution: without a base, nothing matches. Input
    /// and base are read with RFC 3986's grammar (section 3); text that is
    /// no `URI-reference` matches nothing (fluent-uri rejects it before
    /// resolving).
    pub fn matches(self, input: &str, base: Option<&str>) -> bool {
        let either = |f: fn(&str) -> bool| f(input) || base.is_some_and(f);
        match self {
            Rule::AstralUserinfo => return either(astral_userinfo),
            Rule::AsciiXnLabel => return either(ascii_xn_label),
            Rule::Rfc2732IpLiteral => return either(bracketed_authority),
            Rule::FtpPathWithoutSlash => return either(ftp_with_path),
            Rule::MailtoScheme => return either(|t| has_scheme(t, "mailto")),
            Rule::FileScheme => return either(|t| has_scheme(t, "file")),
            Rule::WsScheme => return either(|t| has_scheme(t, "ws") || has_scheme(t, "wss")),
            Rule::NonAscii => return either(|t| !t.is_ascii()),
            Rule::RootlessBase | Rule::PercentEncodedDotSegments => {}
        }
        let Some(base) = base else {
            return false;
        };
        match self {
            Rule::RootlessBase => rootless_base(input, base),
            Rule::PercentEncodedDotSegments => percent_encoded_dot_segments(input, base),
            Rule::AstralUserinfo
            | Rule::AsciiXnLabel
            | Rule::Rfc2732IpLiteral
            | Rule::FtpPathWithoutSlash
            | Rule::MailtoScheme
            | Rule::FileScheme
            | Rule::WsScheme
            | Rule::NonAscii => false,
        }
    }
}

/// The text after `scheme://` up to the next `/`, `?` or `#`, if `text`
/// has one.
fn authority_of(text: &str) -> Option<&str> {
    let (_, after) = text.split_once("://")?;
    after.split(['/', '?', '#']).next()
}

/// Does `text`'s host (its authority after the last `@`, before a port)
/// have an all-ASCII label that starts with `xn--`? Special schemes need no
/// slashes (`http:xn--a`), so the authority is read loosely: after the
/// scheme's `:` and any `/` or `\`.
pub(crate) fn ascii_xn_label(text: &str) -> bool {
    let Some((_, after)) = text.split_once(':') else {
        return false;
    };
    let after = after.trim_start_matches(['/', '\\']);
    let authority = after
        .split(['/', '\\', '?', '#'])
        .next()
        .unwrap_or_default();
    let host = authority.rsplit_once('@').map_or(authority, |(_, h)| h);
    let host = host.split(':').next().unwrap_or_default();
    host.split('.').any(|label| {
        label.is_ascii()
            && label
                .get(..4)
                .is_some_and(|p| p.eq_ignore_ascii_case("xn--"))
    })
}

/// Does `text` have an RFC 2732 `IPv6reference` in its authority: `[`, an
/// RFC 2373 `IPv6address`, `]`? A bracketed text that is no IPv6 address
/// (`[1.2.3.4]`, which Ruby's RFC2396_Parser accepts: its IPV6REF pattern
/// lets the IPv4 tail stand alone) is outside what the deviation documents,
/// so the parser's own defect.
fn bracketed_authority(text: &str) -> bool {
    authority_of(text).is_some_and(|a| {
        a.split_once('[')
            .and_then(|(_, rest)| rest.split_once(']'))
            // A zone ID after `%` (java.net.URI's scope_id) is the
            // parser's own business; the address before it is RFC 2373's.
            .is_some_and(|(inner, _)| {
                let address = inner.split_once('%').map_or(inner, |(a, _)| a);
                address.parse::<std::net::Ipv6Addr>().is_ok()
            })
    })
}

/// Does `text` start with `scheme:` (ASCII case-insensitively)?
fn has_scheme(text: &str, scheme: &str) -> bool {
    text.split_once(':')
        .is_some_and(|(s, _)| s.eq_ignore_ascii_case(scheme))
}

/// Is `text` an `ftp` URL with an authority and a path after it?
fn ftp_with_path(text: &str) -> bool {
    text.get(..6)
        .is_some_and(|s| s.eq_ignore_ascii_case("ftp://"))
        && text.get(6..).and_then(|rest| rest.find('/')).is_some()
}

/// Does `text` have a userinfo (the authority's text before its last `@`)
/// in which a code point above U+FFFF is followed by another character?
/// The authority is read loosely, so that the rule matches a little more
/// than the bug (the reference then decides a little less, never wrongly):
/// after the scheme's `:` and any `/` or `\` (a special scheme needs
/// neither: `http:x@h` has the userinfo `x`), up to `/`, `?` or `#`.
fn astral_userinfo(text: &str) -> bool {
    let Some((_, after)) = text.split_once(':') else {
        return false;
    };
    let after = after.trim_start_matches(['/', '\\']);
    let authority = after.split(['/', '?', '#']).next().unwrap_or_default();
    let Some((userinfo, _)) = authority.rsplit_once('@') else {
        return false;
    };
    let mut chars = userinfo.chars().peekable();
    while let Some(c) = chars.next() {
        if u32::from(c) > 0xFFFF && chars.peek().is_some() {
            return true;
        }
    }
    false
}

/// fluent-uri 0.4.1, `resolve_against`: "If `base` has a rootless path and
/// no authority, then `self` must either have a scheme, be empty, or start
/// with '#'."
fn rootless_base(reference: &str, base: &str) -> bool {
    // Cheap refusals before the grammar runs.
    if reference.is_empty() || reference.starts_with('#') {
        return false;
    }
    let Ok(b) = grammar::rfc3986::parse_parts(base) else {
        return false;
    };
    // fluent-uri's "[rootless]" links `EStr::<Path>::is_rootless`, which is
    // `!starts_with('/')`: the empty path counts too (`.` against `t:`),
    // where RFC 3986 section 3.3's path-rootless begins with a segment.
    let rootless = !b.path.starts_with('/');
    if b.scheme.is_none() || b.authority.is_some() || !rootless {
        return false;
    }
    grammar::rfc3986::parse_parts(reference).is_ok_and(|r| r.scheme.is_none())
}

/// fluent-uri 0.4.1, `resolve_against`: "Percent-encoded dot segments (e.g.
/// "%2E" and ".%2e") are also removed." A segment counts when it reads `.`
/// or `..` only after decoding `%2E` (RFC 3986 section 2.3: the octet of
/// ".", an unreserved character), in the reference's path, or in the base's
/// when the target takes its path from the base: section 5.2.2 does so only
/// for a reference without scheme and authority.
fn percent_encoded_dot_segments(reference: &str, base: &str) -> bool {
    // Cheap refusal before the grammar runs: no "%2E" anywhere.
    let has_encoded_dot = |s: &str| {
        s.as_bytes()
            .windows(3)
            .any(|w| w.eq_ignore_ascii_case(b"%2e"))
    };
    if !has_encoded_dot(reference) && !has_encoded_dot(base) {
        return false;
    }
    let Ok(r) = grammar::rfc3986::parse_parts(reference) else {
        return false;
    };
    if has_encoded_dot_segment(&r.path) {
        return true;
    }
    r.scheme.is_none()
        && r.authority.is_none()
        && grammar::rfc3986::parse_parts(base).is_ok_and(|b| has_encoded_dot_segment(&b.path))
}

/// Has `path` a segment that is `.` or `..` once `%2E` is decoded, but not
/// as written?
fn has_encoded_dot_segment(path: &str) -> bool {
    path.split('/')
        .any(|segment| segment != "." && segment != ".." && matches!(dots(segment), Some(1 | 2)))
}

/// How many dots `segment` is, when it is only `.` and `%2E` (either case);
/// `None` when it holds anything else.
fn dots(segment: &str) -> Option<usize> {
    let mut rest = segment.as_bytes();
    let mut count = 0usize;
    while !rest.is_empty() {
        rest = match rest {
            [b'.', tail @ ..] => tail,
            [b'%', b'2', b'e' | b'E', tail @ ..] => tail,
            _ => return None,
        };
        count += 1;
    }
    Some(count)
}

type Table = crate::datafile::Table<KnownDeviation>;

fn table() -> &'static Table {
    static TABLE: OnceLock<Table> = OnceLock::new();
    TABLE.get_or_init(|| crate::datafile::read::<_, COLUMNS>(DATA, parse_row, |r| &r.id))
}

/// Every known deviation, in file order.
pub fn all() -> &'static [KnownDeviation] {
    &table().rows
}

/// Why rows of the data file were left out (`line N: why`); empty when the
/// file is well formed.
pub fn load_errors() -> &'static [String] {
    &table().errors
}

/// The known deviation of `oracle` that explains a finding on `input`
/// (the reference, with a `base`): a row of the oracle that matches
/// exactly, or whose rule the input and base fit. The first in file order.
pub fn lookup(
    oracle: OracleId,
    input: &str,
    base: Option<&str>,
) -> Option<&'static KnownDeviation> {
    all().iter().find(|row| {
        row.oracle == oracle
            && match row.matcher {
                Match::Exact => row.input == input && row.base.as_deref() == base,
                Match::Rule(rule) => rule.matches(input, base),
            }
    })
}

/// The known deviation that covers a finding of `oracle` about `fields`
/// (with the verdict, if `verdict`) on `input` (resolved against `base`):
/// a row of [`lookup`] whose rule, if it names the fields its deviation
/// touches ([`Rule::fields`]), names all of them. A file URI's dropped
/// userinfo does not cover the same URI's query.
pub fn lookup_finding(
    oracle: OracleId,
    input: &str,
    base: Option<&str>,
    verdict: bool,
    fields: crate::components::ComponentSet,
) -> Option<&'static KnownDeviation> {
    all().iter().find(|row| {
        row.oracle == oracle
            && match row.matcher {
                Match::Exact => row.input == input && row.base.as_deref() == base,
                Match::Rule(rule) => {
                    rule.matches(input, base)
                        && rule
                            .fields()
                            .is_none_or(|scope| !verdict && fields.difference(scope).is_empty())
                }
            }
    })
}

/// The known deviation with this id.
pub fn by_id(id: &str) -> Option<&'static KnownDeviation> {
    all().iter().find(|row| row.id == id)
}

fn parse_row(
    [id, oracle, matcher, input, base, expected, source, summary]: [&str; COLUMNS],
) -> Result<KnownDeviation, String> {
    // A built-in oracle or a shipped adapter (the WHATWG reference among
    // them, whose own known bugs keep it from deciding): a known deviation
    // is of a parser uridiff runs.
    let oracle = crate::datafile::oracle(oracle)?;
    let matcher = match matcher.strip_prefix("rule:") {
        None if matcher == "exact" => Match::Exact,
        None => return Err(format!("match {matcher:?}: exact or rule:NAME")),
        Some(name) => {
            Match::Rule(Rule::from_name(name).ok_or_else(|| format!("no rule named {name:?}"))?)
        }
    };
    let input = json_string(input).map_err(|e| format!("input: {e}"))?;
    let base = match base {
        "-" => None,
        base => Some(json_string(base).map_err(|e| format!("base: {e}"))?),
    };
    let expected = match expected {
        "failure" => Expected::Failure,
        href => Expected::Href(json_string(href).map_err(|e| format!("expected: {e}"))?),
    };
    if !source.starts_with("https://") {
        return Err(format!("source {source:?} is no https URL"));
    }
    if summary.trim().is_empty() {
        return Err("the summary is empty".to_owned());
    }
    Ok(KnownDeviation {
        id: id.to_owned(),
        oracle,
        matcher,
        input,
        base,
        expected,
        source: source.to_owned(),
        summary: summary.to_owned(),
    })
}

use crate::datafile::json_string;

#[cfg(test)]
mod tests {
    /// RFC 2732's IPv6reference, not any bracketed text (issue example:
    /// ruby-uri-rfc2396 accepting `[1.2.3.4]` is its own defect).
    #[test]
    fn the_rfc2732_rule_needs_an_ipv6_address_in_the_brackets() {
        assert!(bracketed_authority("http://[::1]/"));
        assert!(bracketed_authority("http://[::ffff:1.2.3.4]:80/"));
        assert!(bracketed_authority("http://[fe80::1%25en0]/"));
        assert!(!bracketed_authority("http://[1.2.3.4]/"));
        assert!(!bracketed_authority("http://[v1.x]/"));
        assert!(!bracketed_authority("http://h/[::1]"));
    }
    use super::*;

    #[test]
    fn a_segment_is_a_dot_segment_only_after_decoding() {
        for path in ["%2E", "/a/%2e/b", "/a/.%2E", "%2e%2E/x", "/a/%2e."] {
            assert!(has_encoded_dot_segment(path), "{path}");
        }
        for path in [
            "",
            "/a/./b",
            "/a/../b",
            "/%2e%2e%2e",
            "/a%2e/b",
            "/%2f",
            "/%2",
        ] {
            assert!(!has_encoded_dot_segment(path), "{path}");
        }
    }

    #[test]
    fn rules_need_a_base() {
        for &rule in Rule::ALL {
            assert!(!rule.matches("%2e/c", None), "{rule:?}");
        }
    }

    #[test]
    fn rootless_base_follows_the_documented_exceptions() {
        let rule = Rule::RootlessBase;
        assert!(rule.matches("c", Some("foo:a/b")));
        assert!(rule.matches("?q", Some("mailto:a@b")));
        // A scheme, the empty reference, a fragment-only reference resolve.
        assert!(!rule.matches("x:y", Some("foo:a/b")));
        assert!(!rule.matches("", Some("foo:a/b")));
        assert!(!rule.matches("#f", Some("foo:a/b")));
        // Bases that are not rootless-without-authority.
        assert!(!rule.matches("c", Some("foo:/a/b")));
        assert!(!rule.matches("c", Some("foo://h/a")));
        // fluent-uri's "rootless" includes the empty path (is_rootless is
        // `!starts_with('/')`): it refuses `c` against `foo:` too.
        assert!(rule.matches("c", Some("foo:")));
        assert!(!rule.matches("c", Some("a/b")));
    }

    #[test]
    fn percent_encoded_dot_segments_of_the_base_count_only_when_its_path_is_used() {
        let rule = Rule::PercentEncodedDotSegments;
        assert!(rule.matches("1/%2e/..", Some("httj://t")));
        assert!(rule.matches("d", Some("http://a/b/%2e%2e/c")));
        assert!(rule.matches("", Some("foo:/a/%2E")));
        assert!(!rule.matches("//h/d", Some("http://a/b/%2e%2e/c")));
        assert!(!rule.matches("x:/d", Some("http://a/b/%2e%2e/c")));
        assert!(!rule.matches("./d", Some("http://a/b/c")));
    }

    #[test]
    fn malformed_rows_are_errors_not_panics() {
        let table = crate::datafile::read::<_, COLUMNS>(
            "# a comment\n\
             \n\
             ok-row\turl\texact\t\"a:b\"\t-\tfailure\thttps://x\tfine\n\
             too-few\turl\texact\n\
             Bad_Id\turl\texact\t\"a\"\t-\tfailure\thttps://x\ts\n\
             no-oracle\tnope\texact\t\"a\"\t-\tfailure\thttps://x\ts\n\
             no-rule\trfc3986\trule:nope\t\"a\"\t-\tfailure\thttps://x\ts\n\
             bad-json\turl\texact\ta\t-\tfailure\thttps://x\ts\n\
             ok-row\turl\texact\t\"a:c\"\t-\tfailure\thttps://x\tfine\n",
            parse_row,
            |r| &r.id,
        );
        assert_eq!(table.rows.len(), 1);
        assert_eq!(table.errors.len(), 6, "{:?}", table.errors);
        assert!(
            table.errors[0].starts_with("line 4: "),
            "{:?}",
            table.errors
        );
    }
}
