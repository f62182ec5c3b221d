//! The concrete effect of a finding, in one line, for every kind of
//! finding: a claim on a disagreement with rfc2396, a self-check defect, a
//! round trip, a peer disagreement. One way to show a value, one way to say
//! who accepts and who refuses, one line per field.

use std::fmt;

use super::host::{effective_port, hosts_differ, scheme_of};
use crate::components::{Component, component_name};
use crate::diff::Diff;
use crate::oracle::{OracleId, Outcome, Verdict};

use super::{Class, Decision};

/// Shows a value for an effect line: quoted and escaped, cut at 48 characters.
fn show(value: Option<&str>) -> String {
    match value {
        None => "none".to_owned(),
        Some(v) if v.chars().count() > 48 => {
            let head: String = v.chars().take(45).collect();
            format!("{head:?}…")
        }
        Some(v) => format!("{v:?}"),
    }
}

/// How a parser that does not accept an input refuses it.
fn refusal(verdict: Verdict) -> &'static str {
    match verdict {
        Verdict::OutOfDomain => "finds it out of its domain",
        _ => "rejects it",
    }
}

/// `ACCEPTING accepts[ with host H], REFUSING rejects it`, written straight
/// into the line it is part of (a peer's effect is built on the fuzz path).
struct Acceptance<'a> {
    accepting: &'a str,
    host: Option<&'a str>,
    refusing: &'a str,
    refused: Verdict,
}

impl fmt::Display for Acceptance<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let Acceptance {
            accepting,
            host,
            refusing,
            refused,
        } = self;
        let how = refusal(*refused);
        match host {
            Some(h) => write!(
                f,
                "{accepting} accepts with host {}, {refusing} {how}",
                show(Some(h))
            ),
            None => write!(f, "{accepting} accepts, {refusing} {how}"),
        }
    }
}

/// One field's two values: `path "/a/../b" vs "/b"`.
fn field_line(c: Component, a: Option<&str>, b: Option<&str>, between: &str) -> String {
    format!("{} {} {between} {}", component_name(c), show(a), show(b))
}

/// A claim of `oracle` against rfc2396 (`ours`): who accepts and who
/// refuses, or what differs, host and port differences first. Built only
/// when asked for (reports, the CLI), never on the fuzz path.
pub(crate) fn of_claim(
    oracle: OracleId,
    ours: &Outcome<'_>,
    theirs: &Outcome<'_>,
    claim: Diff,
) -> String {
    let other = oracle.as_str();
    if claim.verdict {
        let (accepting, accepted, refusing, refused) = if ours.accepted() {
            ("rfc2396", ours, other, theirs)
        } else {
            (other, theirs, "rfc2396", ours)
        };
        let host = accepted
            .components
            .get(Component::Host)
            .filter(|h| !h.is_empty());
        return Acceptance {
            accepting,
            host,
            refusing,
            refused: refused.verdict,
        }
        .to_string();
    }
    let scheme = scheme_of(ours, theirs);
    let mut first = Vec::new();
    let mut rest = Vec::new();
    for c in claim.fields.iter() {
        let (a, b) = (ours.components.get(c), theirs.components.get(c));
        match c {
            Component::Host if hosts_differ(a, b, scheme) => first.push(format!(
                "rfc2396 and {other} see different hosts ({} vs {})",
                show(a),
                show(b)
            )),
            Component::Port if effective_port(a, scheme) != effective_port(b, scheme) => {
                let n = |p: Option<u32>| p.map_or("none".to_owned(), |p| p.to_string());
                first.push(format!(
                    "effective ports differ ({} vs {})",
                    n(effective_port(a, scheme)),
                    n(effective_port(b, scheme))
                ));
            }
            _ => rest.push(field_line(c, a, b, "vs")),
        }
    }
    first.extend(rest);
    first.join("; ")
}

/// `dropped-input`: the text a parser left out of the authority, and the
/// parts it reported instead.
pub(crate) fn dropped_input(
    oracle: OracleId,
    dropped: &str,
    authority: &str,
    (userinfo, host, port): (Option<&str>, &str, Option<&str>),
) -> String {
    format!(
        "{oracle} drops {} from the authority {}: userinfo {}, host {}, port {}",
        show(Some(dropped)),
        show(Some(authority)),
        show(userinfo),
        show(Some(host)),
        show(port)
    )
}

/// `host-missing`: the authority whose empty host the URL Standard fails.
pub(crate) fn host_missing(oracle: OracleId, authority: &str) -> String {
    format!(
        "{oracle} accepts the authority {}, whose host after '@' is empty: the URL Standard's host-missing validation error returns failure",
        show(Some(authority))
    )
}

/// `invalid-scheme`: the scheme the parser reports, and why it is none.
pub(crate) fn invalid_scheme(oracle: OracleId, scheme: &str) -> String {
    if scheme.is_empty() {
        format!("{oracle} accepts an empty scheme (RFC 3986 section 3.1: at least one letter)")
    } else {
        format!(
            "{oracle} accepts the scheme {}, which does not start with a letter or holds a character RFC 3986 section 3.1 does not allow",
            show(Some(scheme))
        )
    }
}

/// `invalid-ip-literal`: the bracketed host a parser accepted.
pub(crate) fn invalid_ip_literal(oracle: OracleId, host: &str) -> String {
    format!(
        "{oracle} accepts the host {} (brackets that hold no IPv6address or IPvFuture)",
        show(Some(host))
    )
}

/// `invalid-ip-literal` rewritten: the input's literal is none, the
/// parser reports a valid one.
pub(crate) fn rewritten_ip_literal(oracle: OracleId, literal: &str, host: &str) -> String {
    format!(
        "{oracle} accepts the literal {} (no IPv6address or IPvFuture) and rewrites it to {}",
        show(Some(literal)),
        show(Some(host))
    )
}

/// `round-trip`: what reparsing the parser's own serialization changed.
pub(crate) fn round_trip(
    oracle: OracleId,
    serialization: &str,
    first: &Outcome<'_>,
    again: &Outcome<'_>,
    d: Diff,
) -> String {
    let what = if d.verdict {
        // The reparse's own verdict, as a verb.
        let verb = match again.verdict {
            Verdict::Accept => "accepts",
            Verdict::Reject => "rejects",
            Verdict::OutOfDomain => "finds out of its domain",
        };
        format!("{verb} it")
    } else {
        d.fields
            .iter()
            .map(|c| {
                field_line(
                    c,
                    first.components.get(c),
                    again.components.get(c),
                    "becomes",
                )
            })
            .collect::<Vec<_>>()
            .join("; ")
    };
    format!(
        "{oracle} reparses its own serialization {} and {what}",
        show(Some(serialization))
    )
}

/// A peer disagreement: who accepts and who refuses, or what differs
/// (the blamed parser's value first), and what decided it: the reference
/// the blamed one departs from, or why nothing does.
pub(crate) fn peer(
    (blamed, theirs): (OracleId, &Outcome<'_>),
    (peer, peers): (OracleId, &Outcome<'_>),
    d: Diff,
    decision: Decision,
    undecided_why: Option<&str>,
) -> String {
    let what = if d.verdict {
        let (yes, no, how) = if peers.accepted() {
            (peer, blamed, theirs.verdict)
        } else {
            (blamed, peer, peers.verdict)
        };
        Acceptance {
            accepting: yes.as_str(),
            host: None,
            refusing: no.as_str(),
            refused: how,
        }
        .to_string()
    } else {
        d.fields
            .iter()
            .map(|c| field_line(c, theirs.components.get(c), peers.components.get(c), "vs"))
            .collect::<Vec<_>>()
            .join("; ")
    };
    match decision {
        Decision::Reference(reference) => format!(
            "{blamed} departs from its peer {peer} and from the reference {reference}, which sides with {peer}: {what}"
        ),
        Decision::Majority(voters) => format!(
            "{blamed} departs from its peer {peer}, and the reference cannot decide ({}), but the majority of the standard's independent implementations does ({}): {what}",
            undecided_why.unwrap_or("no reference"),
            voters
                .iter()
                .map(|id| id.as_str().to_owned())
                .collect::<Vec<_>>()
                .join(", ")
        ),
        _ => format!(
            "{blamed} and its peer {peer} disagree, and nothing settles which departs ({}): {what}",
            undecided_why.unwrap_or("no reference")
        ),
    }
}

/// A parser against its standard's reference: who accepts and who
/// refuses, or each differing field, the parser's value first.
pub(crate) fn reference(
    (oracle, theirs): (OracleId, &Outcome<'_>),
    (reference, r): (OracleId, &Outcome<'_>),
    d: Diff,
) -> String {
    if d.verdict {
        let (yes, no, how) = if r.accepted() {
            (reference, oracle, theirs.verdict)
        } else {
            (oracle, reference, r.verdict)
        };
        let acceptance = Acceptance {
            accepting: yes.as_str(),
            host: None,
            refusing: no.as_str(),
            refused: how,
        };
        return format!("{oracle} departs from the reference {reference}: {acceptance}");
    }
    let parts: Vec<String> = d
        .fields
        .iter()
        .map(|c| {
            field_line(
                c,
                theirs.components.get(c),
                r.components.get(c),
                "where the reference has",
            )
        })
        .collect();
    format!(
        "{oracle} departs from the reference {reference}: {}",
        parts.join("; ")
    )
}

/// A permitted variation from the reference's answer.
/// `: ` and the documentation passage behind `oracle`'s host reading,
/// if its descriptor gives one.
fn cited(oracle: OracleId, class: Class) -> String {
    super::reading::citation(oracle, class)
        .map(|c| format!(": {c}"))
        .unwrap_or_default()
}

pub(crate) fn reference_variation(oracle: OracleId, reference: OracleId, class: Class) -> String {
    match class {
        Class::CaseNormalized => format!(
            "{oracle} writes the scheme or host in another case than {reference}: both are case-insensitive (RFC 3986 sections 3.1, 3.2.2 and 6.2.2.1; RFC 2396 sections 3.1 and 3.2.2)"
        ),
        Class::RegNameAuthority => format!(
            "{oracle} reads the authority otherwise than {reference}, whose grammar also reads it as a registry-based reg_name: RFC 2396 section 3.2 leaves server or reg_name to the scheme"
        ),
        Class::BaseFragment => format!(
            "{oracle} refuses a base with a fragment, which {reference} strips (RFC 3986 section 5.1; a base is an absolute-URI, section 4.3)"
        ),
        Class::Ipv6TextForm => format!(
            "{oracle} writes the IPv6 literal {reference} reads as another text form of the same address and zone (RFC 4291 section 2.2, RFC 5952 section 4; RFC 6874's %25 is the address's %){}",
            cited(oracle, class)
        ),
        Class::Ipv6ZoneId => format!(
            "{oracle} accepts an IPv6 literal with an RFC 6874 zone ID, which {reference} (RFC 3986's grammar, without RFC 6874's IPv6addrz) refuses; the input is valid without the zone ID{}",
            cited(oracle, class)
        ),
        Class::PercentEncoding => format!(
            "{oracle} writes percent-encodings normalised (hexadecimal digits in upper case, unreserved characters decoded), which {reference} keeps as written: the same URI (RFC 3986 sections 6.2.2.1 and 6.2.2.2)"
        ),
        Class::DotSegments => format!(
            "{oracle} writes the path as RFC 3986 section 6.2.2 normalises it (percent-encoded unreserved characters decoded, then the dot segments they spell removed), which {reference} keeps as written: the same URI (sections 6.2.2.2 and 6.2.2.3){}",
            oracle
                .descriptor()
                .syntax_normalized
                .map(|passage| format!(": {passage}"))
                .unwrap_or_default()
        ),
        Class::EmptyPort | Class::DefaultPort => format!(
            "{oracle} omits an empty port or the scheme's default port, which {reference} keeps: the same URI (RFC 3986 section 6.2.3)"
        ),
        Class::DomainHost => format!(
            "{oracle} reads the reg-name {reference} keeps as written as a domain name, percent-decoded and converted to ASCII (RFC 3986 section 3.2.2; RFC 5891){}",
            cited(oracle, class)
        ),
        Class::Ipv4LeadingZeros => format!(
            "{oracle} writes the host {reference} reads as a reg-name (four numbers, one with a leading zero, which RFC 3986's dec-octet does not allow) with the leading zeros dropped, as its documentation says; a resolver that reads them as octal connects elsewhere (RFC 3986 section 7.4){}",
            cited(oracle, class)
        ),
        Class::JavaSingleLabelHost => format!(
            "{oracle} reads a server with a one-label host that starts with a digit, where {reference} (RFC 2396's grammar: a toplabel starts with a letter) reads a reg_name; java.net.URI's javadoc permits such a host"
        ),
        Class::OptionalBaseNormalization => format!(
            "{oracle} resolves against the base normalised, which {reference} (the strict algorithm) uses as written; RFC 3986 section 5.2.1 makes that normalisation optional"
        ),
        _ => format!(
            "{oracle} writes \"/.\" (or \"./\") before a path that starts with \"//\" and has no authority, which {reference} (RFC 3986 section 5.2 as written) leaves as is and cannot recompose"
        ),
    }
}
