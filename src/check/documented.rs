//! What `check` does after triage with a parser's documentation: a
//! departure its own documented reading explains is that reading, a
//! defect in an operation it claims no standard for breaks none, and an
//! acceptance its documentation says it does not validate is that
//! leniency (the descriptor's `Documented` data).

use crate::case::Case;
use crate::components::{Component, ComponentSet};
use crate::oracle::{OracleId, Outcome, Standard};
use crate::triage::{Finding, arbiter};

/// A shipped adapter's departure from its reference that a reading its own
/// documentation gives already explains (triage against rfc2396 filed the
/// same fields under a class scoped to that adapter, such as Ruby's
/// `ftp-relative-path` or Java's `java-empty-authority`) is that
/// documented reading, not a defect: the spec finding stays, the defect
/// goes.
pub(super) fn drop_documented_departures(case: &mut Case<'_>) {
    use crate::triage::{Basis, Decision};
    // A parser that flagged the input (fast-uri's `error`: its README,
    // "out-of-range ports ... are reported through the parsed component's
    // `error` field") where `port-out-of-range` explains its port against
    // rfc2396 said itself that the port it returns is no answer of its own.
    let port_flagged = |f: &Finding| {
        f.class == crate::triage::Class::PortOutOfRange
            && case.outcome(f.oracle).is_some_and(|o| f.oracle.flagged(o))
    };
    let documented: Vec<(OracleId, bool, ComponentSet)> = case
        .findings
        .iter()
        .filter(|f| f.basis == Basis::Spec)
        .filter_map(|f| {
            if crate::triage::documents(f.class, f.oracle) {
                Some((f.oracle, f.verdict, f.fields))
            } else if port_flagged(f) {
                Some((f.oracle, false, ComponentSet::of(&[Component::Port])))
            } else {
                None
            }
        })
        .collect();
    // Peer disagreements among RFC 2396's claimants that nothing settles
    // (no reference resolves by RFC 2396).
    let undecided = |f: &Finding| {
        f.basis == Basis::Defect
            && f.class == crate::triage::Class::PeerDisagreement
            && f.decided_by == Decision::Undecided
            && f.oracle.standard() == Some(Standard::Rfc2396)
    };
    let undecided_oracles: Vec<OracleId> = case
        .findings
        .iter()
        .filter(|f| undecided(f))
        .map(|f| f.oracle)
        .collect();
    if documented.is_empty() && undecided_oracles.is_empty() {
        return;
    }
    let agreeing: Vec<(OracleId, ComponentSet)> = documented
        .iter()
        .map(|(oracle, _, _)| *oracle)
        .chain(undecided_oracles.iter().copied())
        .map(|oracle| (oracle, agrees_with_strict(case, oracle)))
        .collect();
    let agree_of = |oracle: OracleId| {
        agreeing
            .iter()
            .find(|(o, _)| *o == oracle)
            .map_or(ComponentSet::EMPTY, |(_, set)| *set)
    };
    let judged = |f: &Finding| {
        f.basis == Basis::Defect
            && (matches!(f.decided_by, Decision::Reference(_) | Decision::Majority(_))
                || (f.decided_by == Decision::Undecided && !agree_of(f.oracle).is_empty()))
    };
    case.findings.retain(|f| {
        let agree = agree_of(f.oracle);
        !(judged(f)
            && documented.iter().any(|(oracle, verdict, fields)| {
                *oracle == f.oracle
                    && (!f.verdict || *verdict)
                    && f.fields.difference(fields.union(agree)).is_empty()
            }))
    });
    // What is left of a judged peer disagreement beside the fields the
    // parser's documented reading explains is its departure alone.
    let outcomes = &case.outcomes;
    let outcome = |id: OracleId| outcomes.iter().find(|(o, _)| *o == id).map(|(_, o)| o);
    for f in case.findings.iter_mut() {
        if f.class != crate::triage::Class::PeerDisagreement || !judged(f) {
            continue;
        }
        let documented_fields = documented
            .iter()
            .filter(|(oracle, verdict, _)| *oracle == f.oracle && !*verdict)
            .fold(ComponentSet::EMPTY, |set, (_, _, fields)| {
                set.union(*fields)
            });
        let covered = if f.decided_by == Decision::Undecided {
            documented_fields.union(agree_of(f.oracle))
        } else {
            documented_fields
        };
        if let (Some(theirs), Some(peers)) = (outcome(f.oracle), f.peer.and_then(outcome)) {
            arbiter::narrow(f, covered, theirs, peers);
        }
    }
    // Where such a parser agrees with rfc2396 on every field its undecided
    // peer disagreement disputes, the departure is its peer's (`""` against
    // `ctp://ba//c#!:`: java.net.URI keeps no fragment, as rfc2396 does;
    // Ruby keeps the base's, `empty-reference-is-base`).
    case.findings.retain(|f| {
        !(undecided(f) && !f.verdict && f.fields.difference(agree_of(f.oracle)).is_empty())
    });
}

/// A parser that claims RFC 2396 answers for itself only where it departs
/// from rfc2396, that standard's strict implementation: the fields where
/// it agrees with rfc2396 are its peer's departure (java.net.URI's opaque
/// base against Ruby's `""`, whose base fragment Ruby keeps).
fn agrees_with_strict(case: &Case<'_>, oracle: OracleId) -> ComponentSet {
    if oracle.standard() != Some(Standard::Rfc2396) {
        return ComponentSet::EMPTY;
    }
    match (case.outcome(oracle), case.outcome(OracleId::Rfc2396)) {
        (Some(theirs), Some(ours)) if theirs.accepted() && ours.accepted() => ComponentSet::ALL
            .iter()
            .fold(ComponentSet::EMPTY, |set, c| {
                if theirs.components.get(c) == ours.components.get(c) {
                    set.with(c)
                } else {
                    set
                }
            }),
        _ => ComponentSet::EMPTY,
    }
}

/// A defect of a parser that claims no standard as a whole, in an
/// operation (parsing the input alone, or resolving it against the base)
/// for which its documentation claims none either (its descriptor's
/// `claims`), breaks no standard it claims: it becomes the spec class
/// `unclaimed-standard`, with its fields, severity and effect. A
/// self-check it is held to all the same (`held_to`: Go's bracketed
/// hosts, fixed upstream as CVE-2025-47912) stays a defect.
pub(super) fn unclaimed_standards(case: &mut Case<'_>) {
    use crate::oracle::external::SelfCheck;
    use crate::triage::{Basis, Class};
    let with_base = case.base.is_some();
    for f in &mut case.findings {
        if f.basis != Basis::Defect || f.oracle.standard().is_some() {
            continue;
        }
        let held = match f.class {
            Class::InvalidIpLiteral => f.oracle.held_to(SelfCheck::IpLiteral),
            Class::InvalidScheme => f.oracle.held_to(SelfCheck::Scheme),
            _ => false,
        };
        if held || f.oracle.descriptor().claims(with_base).is_some() {
            continue;
        }
        f.class = Class::UnclaimedStandard;
        f.basis = Basis::Spec;
        let operation = if with_base { "resolving" } else { "parsing" };
        f.detail = f
            .detail
            .take()
            .map(|d| format!("{d}; {} claims no standard for {operation}", f.oracle));
    }
}

/// A defect that is only about the verdict, where the parser accepted and
/// its documentation says its parse does not validate (its descriptor's
/// `no_validation`: uri-js), is that documented leniency: the spec class
/// `non-validating-parser`. It is filed so only now, after triage, so
/// that the parser's other differences from rfc2396 on the input stay
/// the peer's or the reference's to explain, as they were.
pub(super) fn documented_leniency(case: &mut Case<'_>) {
    use crate::triage::{Basis, Class};
    for i in 0..case.findings.len() {
        let Some(f) = case.findings.get(i) else {
            continue;
        };
        let lenient = f.basis == Basis::Defect
            && f.verdict
            && f.fields.is_empty()
            && f.oracle.descriptor().no_validation.is_some()
            && case.outcome(f.oracle).is_some_and(Outcome::accepted);
        if lenient && let Some(f) = case.findings.get_mut(i) {
            let passage = f.oracle.descriptor().no_validation.unwrap_or_default();
            f.detail = Some(format!(
                "{} accepts what its standard's parsers refuse: its documentation says its parse does not validate ({passage})",
                f.oracle
            ));
            f.class = Class::NonValidatingParser;
            f.basis = Basis::Spec;
        }
    }
}
