//! Root causes: one parser behaviour behind many defect signatures, and the
//! known-bug ledger that records each one's upstream status
//! (`testdata/ledger.tsv`, data, not code).
//!
//! The rule that groups them, stated once: a defect finding's root cause is
//! the first ledger row, in file order, whose parser is the finding's and
//! whose `match` holds of the case:
//!
//! - `class:CLASS`: the finding's class is CLASS (a self-check names one
//!   behaviour: `invalid-scheme` of http);
//! - `rule:NAME`: a recogniser of the input (and base) and the parser's
//!   outcome, one per behaviour ([`Rule`]): `port-not-u16` holds wherever
//!   http::Uri accepts a port that is not a u16, whatever the class the
//!   departure shows up under (`dropped-input`, a peer disagreement);
//! - `known:ID`: the finding is covered by the documented deviation ID of
//!   `testdata/known-deviations.tsv`.
//!
//! A defect no row matches is a new root cause, keyed by its signature
//! (`new:` and the signature's text), and every report lists it first, "to
//! report upstream". A test replays every row's witness against the pinned
//! parser, so an upgrade that fixes one fails loudly and the row moves to
//! `fixed in X`.

use std::sync::OnceLock;

use serde::Serialize;

use crate::components::Component;
use crate::datafile::json_string;
use crate::oracle::{OracleId, Outcome};
use crate::signature::Signature;
use crate::triage::{Class, Finding};

const DATA: &str = include_str!("../testdata/ledger.tsv");
const COLUMNS: usize = 10;

/// One root cause of the ledger.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LedgerRow {
    /// Stable kebab-case id.
    pub id: String,
    /// The parser (uridiff oracle id).
    pub parser: OracleId,
    /// The library and version it was found in (the pinned one).
    pub library: String,
    /// `open`, `fixed in X`, `documented` or `new` (reported nowhere yet).
    pub status: String,
    /// The upstream issue, pull request or documentation, or `none found`.
    pub upstream: String,
    /// The section of the standard it breaks.
    pub spec: String,
    /// Which defects it explains.
    pub matcher: Match,
    /// The shortest input that shows it.
    pub witness: String,
    /// The base the witness is resolved against, if any.
    pub base: Option<String>,
    /// One line.
    pub summary: String,
}

/// How a ledger row recognises its defects.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Match {
    /// The finding's class.
    Class(Class),
    /// A recogniser of the case.
    Rule(Rule),
    /// A documented deviation's id (`testdata/known-deviations.tsv`).
    Known(String),
}

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
    /// The finding is about the host, and the parser's host (no IP literal)
    /// is no RFC 2396 `hostname` or `IPv4address` (section 3.2.2): a
    /// toplabel that starts with a digit (`0X3`, `417D`), a label that ends
    /// in `-` (`oliy-`); RFC 2396 reads such an authority as a `reg_name`,
    /// with no host.
    Rfc2396HostNotHostname,
}

impl Rule {
    const ALL: [Rule; 19] = [
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
        Rule::Rfc2396HostNotHostname,
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
            Rule::Rfc2396HostNotHostname => "rfc2396-host-not-hostname",
        }
    }

    fn holds(self, case: Evidence<'_, '_>, finding: &Finding) -> bool {
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
            Rule::Rfc2396HostNotHostname => {
                finding.fields.contains(Component::Host)
                    && case
                        .outcome(finding.oracle)
                        .and_then(|o| o.components.get(Component::Host))
                        .is_some_and(|h| {
                            !h.is_empty()
                                && !h.starts_with('[')
                                && crate::rfc2396::parse(&format!("//{h}"))
                                    .is_ok_and(|u| u.host().is_none())
                        })
            }
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
        }
    }
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
    finding.fields.contains(Component::Query)
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
fn backslash_after_port(input: &str) -> bool {
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
fn is_expanded_ipv6(host: &str) -> bool {
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
fn port_not_u16(authority: &str) -> bool {
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
fn file_with_drive_letter(text: &str) -> bool {
    // The end of the segment after: `file://h:8/` has a port, not a drive.
    drive_letter_then(text, |b| matches!(b, b'/' | b'\\' | b'?' | b'#'))
}

/// Is `text` a URL of another scheme than `file` with a drive-letter
/// segment (`a:` after a slash) and a `..` segment after it?
fn non_file_drive_letter_then_dots(text: &str) -> bool {
    let Some((scheme, rest)) = text.split_once(':') else {
        return false;
    };
    if scheme.eq_ignore_ascii_case("file") {
        return false;
    }
    let segments: Vec<&str> = rest.split(['/', '\\']).collect();
    segments.iter().enumerate().any(|(i, seg)| {
        let b = seg.as_bytes();
        matches!(b, [letter, b':' | b'|'] if letter.is_ascii_alphabetic())
            && segments.iter().skip(i + 1).any(|later| *later == "..")
    })
}

/// Is `text` a `file:` URL with a drive letter (`x:` or `x|` after a slash,
/// a backslash or the scheme's colon) followed by a byte `next` accepts
/// (the end counts as `/`)?
fn drive_letter_then(text: &str, next: impl Fn(u8) -> bool) -> bool {
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
fn file_with_empty_segment(text: &str) -> bool {
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

fn table() -> &'static crate::datafile::Table<LedgerRow> {
    static TABLE: OnceLock<crate::datafile::Table<LedgerRow>> = OnceLock::new();
    TABLE.get_or_init(|| crate::datafile::read::<_, COLUMNS>(DATA, parse_row, |r| &r.id))
}

/// Every ledger row, in file order.
pub fn ledger() -> &'static [LedgerRow] {
    &table().rows
}

/// Why rows of the ledger were left out; empty when it is well formed.
pub fn load_errors() -> &'static [String] {
    &table().errors
}

fn parse_row(
    [
        id,
        parser,
        library,
        status,
        upstream,
        spec,
        matcher,
        witness,
        base,
        summary,
    ]: [&str; COLUMNS],
) -> Result<LedgerRow, String> {
    let parser = crate::datafile::oracle(parser)?;
    let matcher = if let Some(class) = matcher.strip_prefix("class:") {
        Match::Class(
            Class::ALL
                .iter()
                .copied()
                .find(|c| c.id() == class)
                .ok_or_else(|| format!("no class {class:?}"))?,
        )
    } else if let Some(name) = matcher.strip_prefix("rule:") {
        Match::Rule(
            Rule::ALL
                .into_iter()
                .find(|r| r.as_str() == name)
                .ok_or_else(|| format!("no rule {name:?}"))?,
        )
    } else if let Some(known) = matcher.strip_prefix("known:") {
        Match::Known(known.to_owned())
    } else {
        return Err(format!("match {matcher:?}: class:, rule: or known:"));
    };
    let status_ok = matches!(status, "open" | "documented" | "new")
        || status
            .strip_prefix("fixed in ")
            .is_some_and(|v| !v.is_empty());
    if !status_ok {
        return Err(format!(
            "status {status:?}: open, documented, new or fixed in X"
        ));
    }
    if upstream != "none found" && !upstream.starts_with("https://") {
        return Err(format!("upstream {upstream:?}: an https URL or none found"));
    }
    let base = match base {
        "-" => None,
        base => Some(json_string(base).map_err(|e| format!("base: {e}"))?),
    };
    Ok(LedgerRow {
        id: id.to_owned(),
        parser,
        library: library.to_owned(),
        status: status.to_owned(),
        upstream: upstream.to_owned(),
        spec: spec.to_owned(),
        matcher,
        witness: json_string(witness).map_err(|e| format!("witness: {e}"))?,
        base,
        summary: summary.to_owned(),
    })
}

/// A defect finding's root cause, as JSON and reports show it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct RootCause {
    /// The ledger row's id, or `new:` and the signature for a root cause
    /// the ledger does not know.
    pub id: String,
    /// `open`, `fixed in X`, `documented`, or `new`.
    pub status: String,
    /// The upstream link, or null.
    pub upstream: Option<String>,
}

/// What a root cause is recognised from: one input, its base, and what
/// each parser returned (a [`Case`](crate::Case) gives it:
/// `Case::evidence`). Its own type so that the ledger does not depend on
/// the case that holds it.
#[derive(Clone, Copy, Debug)]
pub struct Evidence<'c, 'a> {
    /// The input (with a base: the reference).
    pub input: &'a str,
    /// The base it was resolved against, if any.
    pub base: Option<&'a str>,
    /// Each oracle's outcome.
    pub outcomes: &'c [(OracleId, Outcome<'a>)],
}

impl<'a> Evidence<'_, 'a> {
    /// An oracle's outcome.
    pub fn outcome(&self, id: OracleId) -> Option<&Outcome<'a>> {
        self.outcomes
            .iter()
            .find(|(o, _)| *o == id)
            .map(|(_, out)| out)
    }
}

/// The root cause of `finding` (a defect of the case `case` is the
/// evidence of): its ledger row, or a new one named after its signature.
/// `None` for a finding that is no defect, and for an undecided peer
/// disagreement no row recognises.
pub fn of(case: Evidence<'_, '_>, finding: &Finding) -> Option<RootCause> {
    if finding.basis != crate::triage::Basis::Defect {
        return None;
    }
    let row = ledger().iter().find(|row| {
        row.parser == finding.oracle
            && match &row.matcher {
                Match::Class(class) => *class == finding.class,
                Match::Rule(rule) => rule.holds(case, finding),
                Match::Known(id) => finding.known == Some(id.as_str()),
            }
    });
    // An undecided peer disagreement names its pair in registry order, not
    // the parser at fault: only a row that recognises the behaviour itself
    // gives it a root cause.
    if row.is_none() && finding.decided_by == crate::triage::Decision::Undecided {
        return None;
    }
    // A finding a documented deviation covers is that deviation: known,
    // never new (testdata/known-deviations.tsv holds its source).
    if row.is_none()
        && let Some(known) = finding.known.and_then(crate::known::by_id)
    {
        return Some(RootCause {
            id: format!("known:{}", known.id),
            status: "documented".to_owned(),
            upstream: Some(known.source.clone()),
        });
    }
    Some(match row {
        Some(row) => RootCause {
            id: row.id.clone(),
            status: row.status.clone(),
            upstream: (row.upstream != "none found").then(|| row.upstream.clone()),
        },
        None => RootCause {
            id: format!("new:{}", Signature::of(finding)),
            status: "new".to_owned(),
            upstream: None,
        },
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_port_is_a_u16_or_it_is_not() {
        for a in [
            "h:80x", ":x", "g:h", "h:99999", ":w@:w", "u:n", ":h", ":r@:r", "[::1]:x",
        ] {
            assert!(port_not_u16(a), "{a}");
        }
        for a in [
            "h", "h:", "h:80", "h:65535", "u:p@h:1", "[::1]", "[::1]:8", "u:x@h",
        ] {
            assert!(!port_not_u16(a), "{a}");
        }
    }

    #[test]
    fn an_expanded_ipv6_literal_has_eight_groups_of_four_hex_digits() {
        assert!(is_expanded_ipv6(
            "[0000:0000:0000:0000:0000:0000:0000:0001]"
        ));
        assert!(is_expanded_ipv6(
            "[2001:0db8:0000:0000:0000:ff00:0042:8329]"
        ));
        for h in [
            "[::1]",
            "[0000:0000:0000:0000:0000:0000:0000:0001",
            "[0000:0000:0000:0000:0000:0000:0000:000A]",
            "[0000:0000:0000:0000:0000:0000:0000:1]",
            "[0000:0000:0000:0000:0000:0000:0000:0000:0000]",
            "h",
        ] {
            assert!(!is_expanded_ipv6(h), "{h}");
        }
    }

    #[test]
    fn empty_segments_are_those_of_a_file_urls_path() {
        for t in [
            "file:////",
            "file:\\\\//",
            "file://h//x",
            "file:/a//b",
            "FILE:////foo",
        ] {
            assert!(file_with_empty_segment(t), "{t}");
        }
        for t in [
            "file:///",
            "file://h/x",
            "file:/a/b",
            "http://h//x",
            "file://",
        ] {
            assert!(!file_with_empty_segment(t), "{t}");
        }
    }

    #[test]
    fn drive_letters_are_found_in_file_urls_only() {
        for t in [
            "file://t/e:",
            "file:///C:/",
            "file:c|",
            "file:\\\\I\\\\I|",
            "FILE:/a/b:",
        ] {
            assert!(file_with_drive_letter(t), "{t}");
        }
        for t in ["http://t/e:", "file://t/ee:", "file:///", "file://h:8/"] {
            assert!(!file_with_drive_letter(t), "{t}");
        }
    }
}
