//! Severity: how much a finding matters to a security engineer, decided
//! here and nowhere else.
//!
//! What matters is two parsers, say a validator and a fetcher, reading
//! different hosts or ports from the same input. So a case is high when two
//! accepting parsers see different addresses, medium when they see one
//! address spelt two ways ([`of_case`]); a finding is high when
//! the values it is about give two accepting parsers different hosts (one
//! side having none counts) or different effective ports, or when a defect
//! corrupts the host or port a parser reports; medium for boundaries
//! between userinfo and path, percent-decoding, dot segments and tolerated
//! characters; low for what is cosmetic (case, a default port, empty versus
//! absent) and for out of domain.

use std::fmt;

use serde::Serialize;

use super::host::{effective_port, hosts_differ, same_address, scheme_of};
use super::{Class, Finding};
use crate::components::{Component, ComponentSet, Components};
use crate::diff::Diff;
use crate::oracle::{Outcome, Verdict};

/// How much a disagreement matters to a security engineer.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Severity {
    /// Cosmetic: case, default port, empty versus absent.
    Low,
    /// Boundaries between userinfo and path parts, percent-decoding, dot
    /// segments, characters one side tolerates.
    Medium,
    /// Different hosts (one side having none counts), different effective
    /// ports, or one side rejects while the accepting side yields a host.
    High,
}

impl Severity {
    /// The stable id.
    pub fn as_str(self) -> &'static str {
        match self {
            Severity::Low => "low",
            Severity::Medium => "medium",
            Severity::High => "high",
        }
    }
}

impl fmt::Display for Severity {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Do `a` and `b`, two accepting parsers' components, see different hosts
/// (compared after ASCII case folding only) or different effective ports,
/// on any of `fields`? Asked for every finding, so it builds no strings.
pub(crate) fn host_or_port_differs(
    fields: ComponentSet,
    a: &Components<'_>,
    b: &Components<'_>,
    scheme: Option<&str>,
) -> bool {
    fields.iter().any(|c| match c {
        Component::Host => hosts_differ(a.get(c), b.get(c), scheme),
        Component::Port => effective_port(a.get(c), scheme) != effective_port(b.get(c), scheme),
        _ => false,
    })
}

/// A claim on a disagreement with rfc2396 (`ours`): a spec rule's, the
/// parser's own defect's, or what no rule explains. The class's default,
/// raised to high when the claimed fields give the two accepting parsers
/// different hosts or effective ports. A refusal against an acceptance
/// alone is at most medium, and out of domain alone never above low: by
/// itself it sends no client anywhere.
pub(crate) fn of_claim(
    class: Class,
    claim: Diff,
    ours: &Outcome<'_>,
    theirs: &Outcome<'_>,
) -> Severity {
    let default = class.default_severity();
    if claim.verdict {
        let out_of_domain = [ours, theirs]
            .iter()
            .any(|o| o.verdict == Verdict::OutOfDomain);
        if out_of_domain {
            Severity::Low
        } else {
            default.min(Severity::Medium)
        }
    } else if host_or_port_differs(
        claim.fields,
        &ours.components,
        &theirs.components,
        scheme_of(ours, theirs),
    ) {
        Severity::High
    } else {
        default
    }
}

/// A parser against itself (its own serialization reparsed) or against a
/// peer of its standard, on `fields`: the class's default, high when the
/// two readings see different addresses or effective ports. One address
/// spelt two ways (`same_address`: `[::d01:4403]` and
/// `[0:0:0:0:0:0:0d01:4403]`) sends both readers to the same place: not
/// high, as a case with only such host confusions is not ([`of_case`]).
pub(crate) fn of_departure(
    class: Class,
    fields: ComponentSet,
    a: &Components<'_>,
    b: &Components<'_>,
    scheme: Option<&str>,
) -> Severity {
    let one_address = match (a.get(Component::Host), b.get(Component::Host)) {
        (Some(x), Some(y)) => same_address(x, y),
        _ => false,
    };
    let fields = if one_address {
        fields.difference(ComponentSet::of(&[Component::Host]))
    } else {
        fields
    };
    if host_or_port_differs(fields, a, b, scheme) {
        Severity::High
    } else {
        class.default_severity()
    }
}

/// A self-check defect, by the fields it corrupts: the class's default
/// when they include the host or the port the parser reports, else at most
/// medium (input dropped from the userinfo, say).
pub(crate) fn of_self_check(class: Class, fields: ComponentSet) -> Severity {
    let host_or_port = ComponentSet::of(&[Component::Host, Component::Port]);
    let default = class.default_severity();
    if fields.intersection(host_or_port).is_empty() {
        default.min(Severity::Medium)
    } else {
        default
    }
}

/// A whole case: its highest finding, and for its host confusions (each
/// given as whether its two hosts are the same address): high when two
/// accepting parsers see different addresses (one side having none
/// counts), whatever explains it; medium when every confusion is one
/// address spelt two ways (`0x7f.1` and `127.0.0.1`, `[::c22:384e]` and
/// `[::12.34.56.78]`). Both parsers then reach the same place: the
/// spelling matters to a check that compares text (a denylist: `uridiff
/// bypass --deny`), which is a medium matter, not the different place
/// high is for.
pub(crate) fn of_case(
    findings: &[Finding],
    confusions: impl IntoIterator<Item = bool>,
) -> Option<Severity> {
    let confusion = confusions
        .into_iter()
        .map(|same_address| {
            if same_address {
                Severity::Medium
            } else {
                Severity::High
            }
        })
        .max();
    findings.iter().map(|f| f.severity).chain(confusion).max()
}
