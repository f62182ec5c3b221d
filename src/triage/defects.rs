//! Defects: a parser breaking its own standard, found without rfc2396.
//!
//! - *Accounted input*: a parser that reports its authority's text must
//!   report userinfo, host and port that recompose it (RFC 3986 section 3.2:
//!   `authority = [ userinfo "@" ] host [ ":" port ]`); the one
//!   normalisation allowed is an empty port's `:` (RFC 3986 section 6.2.3).
//! - *Its own standard*: a bracketed host must be an `IP-literal` (RFC 3986
//!   section 3.2.2; a zone ID only as RFC 6874's `%25`). (A port that is not
//!   digits would break RFC 3986 section 3.2.3 too, but every in-process
//!   parser either refuses one or drops it, which `dropped-input` reports.)
//! - *Round trip*: its own serialization, reparsed by itself, gives the same
//!   components (URL Standard, URL serializing; RFC 3986 section 5.3).
//! - *Peers*: two parsers of the same standard must agree.
//!
//! Each defect names the parser it is about; no spec rule explains one away.

use crate::components::{Component, ComponentSet, component_name};
use crate::diff::diff;
use crate::oracle::{OracleId, Outcome, Standard, Verdict, info};

use super::ip_literal::is_ip_literal;
use super::rules::{effective_port, hosts_differ};
use super::{Class, Finding, Severity};

/// Shows a value for an effect line.
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

fn defect(
    class: Class,
    severity: Severity,
    oracle: OracleId,
    peer: Option<OracleId>,
    fields: ComponentSet,
    detail: String,
) -> Finding {
    Finding {
        class,
        basis: class.basis(),
        severity,
        oracle,
        peer,
        verdict: false,
        fields,
        detail: Some(detail),
    }
}

/// The text of `whole` that `kept` leaves out, by common prefix and suffix.
fn dropped_text<'w>(whole: &'w str, kept: &str) -> &'w str {
    let prefix = whole
        .bytes()
        .zip(kept.bytes())
        .take_while(|(a, b)| a == b)
        .count();
    let rest_whole = whole.get(prefix..).unwrap_or_default();
    let rest_kept = kept.get(prefix.min(kept.len())..).unwrap_or_default();
    let suffix = rest_whole
        .bytes()
        .rev()
        .zip(rest_kept.bytes().rev())
        .take_while(|(a, b)| a == b)
        .count();
    let end = rest_whole.len().saturating_sub(suffix);
    // Byte-wise prefixes may split a character; fall back to the whole rest.
    rest_whole.get(..end).unwrap_or(rest_whole)
}

/// `[ userinfo "@" ] host [ ":" port ]`.
fn recompose(userinfo: Option<&str>, host: &str, port: Option<&str>) -> String {
    let mut s = String::new();
    if let Some(u) = userinfo {
        s.push_str(u);
        s.push('@');
    }
    s.push_str(host);
    if let Some(p) = port {
        s.push(':');
        s.push_str(p);
    }
    s
}

/// Is `authority` exactly `[ userinfo "@" ] host [ ":" port ]`, or that with
/// an empty port's `:` dropped (RFC 3986 section 6.2.3)? Compared piece by
/// piece, without building the text: this runs on every input.
fn recomposes(authority: &str, userinfo: Option<&str>, host: &str, port: Option<&str>) -> bool {
    let mut rest = authority;
    if let Some(u) = userinfo {
        match rest.strip_prefix(u).and_then(|r| r.strip_prefix('@')) {
            Some(r) => rest = r,
            None => return false,
        }
    }
    // Hosts are case-insensitive (RFC 3986 section 3.2.2), and parsers
    // document lower-casing them (CPython's `.hostname`).
    let Some(after_host) = rest
        .get(..host.len())
        .filter(|h| *h == host || h.eq_ignore_ascii_case(host))
        .and_then(|_| rest.get(host.len()..))
    else {
        return false;
    };
    match port {
        Some(p) => after_host.strip_prefix(':') == Some(p),
        None => after_host.is_empty() || after_host == ":",
    }
}

/// The self-checks of one accepting parser: accounted authority, IP
/// literals, ports. Appends a finding per broken rule.
pub fn self_checks(id: OracleId, outcome: &Outcome<'_>, out: &mut Vec<Finding>) {
    if !outcome.accepted() || !id.validates() {
        return;
    }
    let c = &outcome.components;
    let host = c.get(Component::Host);
    let port = c.get(Component::Port);
    let userinfo = c.get(Component::Userinfo);
    if c.reported().contains(Component::Authority)
        && let (Some(authority), Some(host)) = (c.get(Component::Authority), host)
    {
        let accounted = recomposes(authority, userinfo, host, port);
        if !accounted {
            let recomposed = recompose(userinfo, host, port);
            let dropped = dropped_text(authority, &recomposed);
            let in_userinfo = userinfo.is_some_and(|u| authority.starts_with(u))
                && authority
                    .find('@')
                    .is_some_and(|at| authority.find(dropped).is_some_and(|d| d < at));
            let (severity, fields) = if in_userinfo {
                (
                    Severity::Medium,
                    ComponentSet::of(&[Component::Authority, Component::Userinfo]),
                )
            } else {
                (
                    Severity::High,
                    ComponentSet::of(&[Component::Authority, Component::Host, Component::Port]),
                )
            };
            out.push(defect(
                Class::DroppedInput,
                severity,
                id,
                None,
                fields,
                format!(
                    "{id} drops {} from the authority {}: userinfo {}, host {}, port {}",
                    show(Some(dropped)),
                    show(Some(authority)),
                    show(userinfo),
                    show(Some(host)),
                    show(port)
                ),
            ));
        }
    }
    // One pass over the host's bytes (two `contains` calls would be two
    // memchr calls, on every input).
    if let Some(h) = host
        && h.bytes().any(|b| matches!(b, b'[' | b']'))
        && !is_ip_literal(h)
    {
        out.push(defect(
            Class::InvalidIpLiteral,
            Severity::High,
            id,
            None,
            ComponentSet::of(&[Component::Host]),
            format!(
                "{id} accepts the host {} (brackets that hold no IPv6address or IPvFuture)",
                show(Some(h))
            ),
        ));
    }
}

/// Reparses an accepting parser's own serialization (when it differs from
/// the input) and reports what changed.
pub fn round_trip(id: OracleId, outcome: &Outcome<'_>, out: &mut Vec<Finding>) {
    let Some(serialization) = outcome
        .serialization
        .as_deref()
        .filter(|_| outcome.accepted())
    else {
        return;
    };
    let Some(row) = info(id) else {
        return;
    };
    let again = (row.run)(serialization);
    let d = diff(outcome, &again);
    if d.is_empty() {
        return;
    }
    let scheme = outcome.components.get(Component::Scheme);
    let changes_host = d.fields.contains(Component::Host)
        && hosts_differ(
            outcome.components.get(Component::Host),
            again.components.get(Component::Host),
            scheme,
        );
    let changes_port = d.fields.contains(Component::Port)
        && effective_port(outcome.components.get(Component::Port), scheme)
            != effective_port(again.components.get(Component::Port), scheme);
    let severity = if changes_host || changes_port {
        Severity::High
    } else {
        Severity::Medium
    };
    let what = if d.verdict {
        format!("{} it", verdict_word(again.verdict))
    } else {
        d.fields
            .iter()
            .map(|c| {
                format!(
                    "{} {} becomes {}",
                    component_name(c),
                    show(outcome.components.get(c)),
                    show(again.components.get(c))
                )
            })
            .collect::<Vec<_>>()
            .join("; ")
    };
    let mut finding = defect(
        Class::RoundTrip,
        severity,
        id,
        None,
        d.fields,
        format!(
            "{id} reparses its own serialization {} and {what}",
            show(Some(serialization))
        ),
    );
    finding.verdict = d.verdict;
    out.push(finding);
}

fn verdict_word(v: Verdict) -> &'static str {
    match v {
        Verdict::Accept => "accepts",
        Verdict::Reject => "rejects",
        Verdict::OutOfDomain => "finds out of its domain",
    }
}

/// Peer disagreements among `outcomes` (every oracle but rfc2396, which is
/// `reference`): parsers of one standard (WHATWG: url and ada; RFC 3986:
/// rfc3986 and iri-string) that disagree, and http::Uri against RFC 3986 on
/// how the same authority text splits.
pub fn peers(
    reference: &Outcome<'_>,
    outcomes: &[(OracleId, Outcome<'_>)],
    out: &mut Vec<Finding>,
) {
    for (i, (a, oa)) in outcomes.iter().enumerate() {
        let Some(standard) = a.standard() else {
            continue;
        };
        if !matches!(standard, Standard::Whatwg | Standard::Rfc3986) {
            continue;
        }
        for (b, ob) in outcomes.iter().skip(i + 1) {
            if b.standard() == Some(standard) {
                peer_pair(
                    (reference, outcomes),
                    (*a, oa),
                    (*b, ob),
                    ComponentSet::ALL,
                    out,
                );
            }
        }
    }
    // http::Uri's authority follows RFC 3986 section 3.2 (http's `Authority`
    // docs: "the authority component of a URI", RFC 3986 section 3.2):
    // where it and the RFC 3986 parser read the same authority text, they
    // must split it the same way.
    let find = |id: OracleId| outcomes.iter().find(|(o, _)| *o == id).map(|(_, o)| o);
    if let (Some(http), Some(rfc3986)) = (find(OracleId::Http), find(OracleId::Rfc3986))
        && http.accepted()
        && rfc3986.accepted()
        && http.components.get(Component::Authority).is_some()
        && http.components.get(Component::Authority) == rfc3986.components.get(Component::Authority)
    {
        let parts = ComponentSet::of(&[Component::Userinfo, Component::Host, Component::Port]);
        peer_pair(
            (reference, outcomes),
            (OracleId::Rfc3986, rfc3986),
            (OracleId::Http, http),
            parts,
            out,
        );
    }
}

/// One pair of peers over the fields in `scope`. The finding blames the
/// peer that also departs from rfc2396 where the other agrees with it (for
/// `file://1.2.3.4/C:/`, url's missing host); when rfc2396 sides with
/// neither (it may refuse the input), the peer fewer of the other
/// validating parsers side with (for `/\p` against `x://h/a`, url's host
/// `p`, where ada and libcurl stay on `h`); else the later one.
fn peer_pair(
    (reference, outcomes): (&Outcome<'_>, &[(OracleId, Outcome<'_>)]),
    (a, oa): (OracleId, &Outcome<'_>),
    (b, ob): (OracleId, &Outcome<'_>),
    scope: ComponentSet,
    out: &mut Vec<Finding>,
) {
    let mut d = diff(oa, ob);
    d.fields = d.fields.intersection(scope);
    if scope.contains(Component::Port)
        && d.fields.contains(Component::Port)
        && [oa, ob]
            .iter()
            .all(|o| o.components.get(Component::Port).is_none_or(str::is_empty))
    {
        // An empty port and none are equivalent (RFC 3986 section 6.2.3);
        // http::Uri reports none for `host:`.
        d.fields = d.fields.difference(ComponentSet::of(&[Component::Port]));
    }
    if d.is_empty() {
        return;
    }
    let departs = |o: &Outcome<'_>| {
        let r = diff(reference, o);
        (d.verdict && r.verdict) || !r.fields.intersection(d.fields).is_empty()
    };
    // How many of the other validating parsers side with `o` on what the
    // peers dispute: its verdict, or each disputed field's value.
    let support = |o: &Outcome<'_>| -> usize {
        outcomes
            .iter()
            .filter(|(id, _)| *id != a && *id != b && id.validates())
            .map(|(_, x)| {
                if d.verdict {
                    usize::from(x.accepted() == o.accepted())
                } else if x.accepted() {
                    d.fields
                        .iter()
                        .filter(|&c| {
                            x.components.reported().contains(c)
                                && x.components.get(c) == o.components.get(c)
                        })
                        .count()
                } else {
                    0
                }
            })
            .sum()
    };
    // Whether anything settles which peer departs: rfc2396, or the others.
    let (blame_a, settled) = match (departs(oa), departs(ob)) {
        (true, false) => (true, true),
        (false, true) => (false, true),
        _ => {
            let (sa, sb) = (support(oa), support(ob));
            (sa < sb, sa != sb)
        }
    };
    let ((a, oa), (b, ob)) = if blame_a {
        ((b, ob), (a, oa))
    } else {
        ((a, oa), (b, ob))
    };
    let scheme = oa
        .components
        .get(Component::Scheme)
        .or(ob.components.get(Component::Scheme));
    let high = d.fields.iter().any(|c| match c {
        Component::Host => hosts_differ(oa.components.get(c), ob.components.get(c), scheme),
        Component::Port => {
            effective_port(oa.components.get(c), scheme)
                != effective_port(ob.components.get(c), scheme)
        }
        _ => false,
    });
    let detail = if d.verdict {
        let (yes, no, how) = if oa.accepted() {
            (a, b, ob.verdict)
        } else {
            (b, a, oa.verdict)
        };
        let how = match how {
            Verdict::OutOfDomain => "finds it out of its domain",
            _ => "rejects it",
        };
        format!("peers disagree: {yes} accepts, {no} {how}")
    } else {
        let parts: Vec<String> = d
            .fields
            .iter()
            .map(|c| {
                format!(
                    "{} {} vs {}",
                    component_name(c),
                    show(ob.components.get(c)),
                    show(oa.components.get(c))
                )
            })
            .collect();
        if settled {
            format!("{b} departs from its peer {a}: {}", parts.join("; "))
        } else {
            // Named after the later peer, but nothing says which is wrong.
            format!(
                "{b} and its peer {a} disagree, and no other parser sides with either: {}",
                parts.join("; ")
            )
        }
    };
    let mut finding = defect(
        Class::PeerDisagreement,
        if high {
            Severity::High
        } else {
            Severity::Medium
        },
        b,
        Some(a),
        d.fields,
        detail,
    );
    finding.verdict = d.verdict;
    out.push(finding);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dropped_text_is_what_the_recomposition_leaves_out() {
        assert_eq!(dropped_text("[::1]evil.com:80", "[::1]:80"), "evil.com");
        assert_eq!(dropped_text("h:80x", "h"), ":80x");
    }
}
