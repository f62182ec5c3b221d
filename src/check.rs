//! The pipeline behind every check: each oracle's outcome, self-checks and
//! round trips, triage against rfc2396, peers, host confusions.
//! [`check`] is the fuzz targets' one line; [`Harness`](crate::Harness)
//! drives the same pipeline with external oracles, a base and notes.

use crate::case::{Case, HostConfusion, OutcomeList};
use crate::components::{Component, ComponentSet};
use crate::diff::diff;
use crate::oracle::{self, OracleId, Outcome, registry};
use crate::rfc2396;
use crate::triage::host::{hosts_differ, same_address};
use crate::triage::{Defects, Resolution, defects, triage_into};

/// Runs `input` through every oracle of the registry: self-checks and
/// round trips on each, rfc2396 against each other parser (triage), peers
/// against each other, and host confusions between accepting parsers. The
/// fuzz targets' one line; [`Harness`](crate::Harness) adds external
/// oracles, a base and notes for a reader.
pub fn check(input: &str) -> Case<'_> {
    check_single(input, Vec::new())
}

/// [`check`], with the outcomes of oracles outside the registry (external
/// ones, over the pipe protocol) added after the registry's.
pub(crate) fn check_single<'a>(input: &'a str, extra: Vec<(OracleId, Outcome<'a>)>) -> Case<'a> {
    let parsed = rfc2396::parse(input);
    // The outcomes go straight into the case (its list is inline: moving a
    // filled one would copy every outcome again).
    let mut case = Case {
        input,
        base: None,
        resolved: None,
        outcomes: OutcomeList::new(),
        findings: Vec::new(),
        host_confusions: Vec::new(),
    };
    for row in registry() {
        case.outcomes.push((
            row.id,
            if row.id == OracleId::Rfc2396 {
                oracle::rfc2396::outcome_of(&parsed)
            } else {
                (row.run)(input)
            },
        ));
    }
    case.outcomes.extend(extra);
    analyse(&mut case, input, &parsed, None);
    case
}

/// Resolves `reference` against `base` with every oracle's own algorithm
/// (RFC 2396 section 5.2, RFC 3986 section 5.2, the URL Standard, libcurl;
/// `http::Uri` follows an origin-form reference on the base's host) and
/// checks the resolved URIs as [`check`] checks one input: defects,
/// differences from rfc2396's result, peers, and host confusions between
/// the hosts each parser would send the request to.
pub fn check_with_base<'a>(base: &'a str, reference: &'a str) -> Case<'a> {
    check_pair(base, reference, Vec::new())
}

/// [`check_with_base`], with the outcomes of oracles outside the registry
/// (external ones) for the pair added after the registry's.
pub(crate) fn check_pair<'a>(
    base: &'a str,
    reference: &'a str,
    extra: Vec<(OracleId, Outcome<'a>)>,
) -> Case<'a> {
    let mut outcomes = OutcomeList::new();
    let mut resolved = None;
    for row in registry() {
        let outcome = match (row.resolve)(base, reference) {
            Ok(text) => {
                let outcome = (row.run)(&text).into_owned();
                if row.id == OracleId::Rfc2396 {
                    resolved = Some(text);
                }
                outcome
            }
            Err(refusal) => refusal.outcome(),
        };
        outcomes.push((row.id, outcome));
    }
    outcomes.extend(extra);
    // Triage reads rfc2396's resolved URI, or, when it refused, the text it
    // refused (the base, else the reference), so that rules keyed on its
    // error see the right one.
    let text = resolved.unwrap_or_else(|| {
        if rfc2396::parse(base).is_err() {
            base.to_owned()
        } else {
            reference.to_owned()
        }
    });
    let mut case = Case {
        input: reference,
        base: Some(base),
        resolved: None,
        outcomes,
        findings: Vec::new(),
        host_confusions: Vec::new(),
    };
    let parsed = rfc2396::parse(&text);
    let resolution = Resolution::new(base, reference);
    analyse(&mut case, &text, &parsed, Some(&resolution));
    case.resolved = Some(text);
    case
}

/// Self-checks, triage against rfc2396, peers and host confusions over the
/// outcomes of `case`; `text` and `parsed` are rfc2396's side.
fn analyse(
    case: &mut Case<'_>,
    text: &str,
    parsed: &Result<rfc2396::UriRef<'_>, rfc2396::ParseError>,
    resolution: Option<&Resolution<'_>>,
) {
    let Some(((_, reference), others)) = case.outcomes.split_first_mut() else {
        return;
    };
    // Peers first: a peer disagreement explains what no spec rule explains
    // of the parser it blames.
    let mut peer_findings = Vec::new();
    let input = resolution.is_none().then_some(text);
    defects::peers(reference, others, input, &mut peer_findings);
    for (id, outcome) in others.iter_mut() {
        if outcome.is_missing() {
            continue;
        }
        let first_defect = case.findings.len();
        if !same_authority_slices(reference, outcome) {
            defects::self_checks(*id, outcome, &mut case.findings);
        }
        defects::round_trip(*id, outcome, &mut case.findings);
        if resolution.is_none() {
            defects::standard_failures(*id, outcome, text, &mut case.findings);
        }
        let own = case.findings.get(first_defect..).unwrap_or_default();
        let defect = match own.first() {
            Some(first) => Some(Defects {
                class: first.class,
                fields: own
                    .iter()
                    .fold(ComponentSet::EMPTY, |set, f| set.union(f.fields)),
            }),
            None => peer_findings
                .iter()
                .find(|f| f.oracle == *id || f.peer == Some(*id))
                .map(|f| Defects {
                    class: f.class,
                    fields: ComponentSet::EMPTY,
                }),
        };
        let mut d = diff(reference, outcome);
        if !id.validates() {
            // Appendix B splits any string: its "acceptance" of what rfc2396
            // rejects is no disagreement, only its split of a valid input is.
            d.verdict = false;
        }
        if !d.is_empty() {
            triage_into(
                text,
                parsed,
                reference,
                *id,
                outcome,
                d,
                defect,
                resolution,
                &mut case.findings,
            );
        }
    }
    case.findings.extend(peer_findings);
    host_confusions(case);
}

/// Does `outcome` report the very authority slices rfc2396 accepted (the
/// same bytes of the input, compared by address)? Then RFC 2396's grammar
/// vouches for what the self-checks would look at: its `server` is
/// `[ userinfo "@" ] hostport` by construction (section 3.2.2), and its
/// hosts hold no brackets. Most parsers borrow their components from the
/// input, so this settles most inputs without reading them.
fn same_authority_slices(reference: &Outcome<'_>, outcome: &Outcome<'_>) -> bool {
    let same_slice = |c: Component| {
        crate::diff::same_slice(reference.components.get(c), outcome.components.get(c))
    };
    reference.accepted()
        && same_slice(Component::Host)
        && (!outcome.components.reported().contains(Component::Authority)
            || [Component::Authority, Component::Userinfo, Component::Port]
                .into_iter()
                .all(same_slice))
}

/// Every pair of accepting, validating parsers that report hosts and see
/// different ones.
fn host_confusions(case: &mut Case<'_>) {
    let with_host = |(id, o): &(OracleId, Outcome<'_>)| {
        id.validates() && o.accepted() && o.components.reported().contains(Component::Host)
    };
    let scheme = case
        .outcome(OracleId::Rfc2396)
        .and_then(|o| o.components.get(Component::Scheme))
        .or_else(|| {
            case.outcomes
                .iter()
                .find_map(|(_, o)| o.components.get(Component::Scheme))
        });
    // Most inputs give every parser the same host bytes: one pass settles
    // that before the pairs (this runs on every input).
    let mut hosts = case
        .outcomes
        .iter()
        .filter(|o| with_host(o))
        .map(|(_, o)| o.components.get(Component::Host));
    if let Some(first) = hosts.next()
        && hosts.all(|h| h == first)
    {
        case.host_confusions = Vec::new();
        return;
    }
    // Pairs in registry order, without collecting.
    let mut found = Vec::new();
    for (i, a) in case
        .outcomes
        .iter()
        .enumerate()
        .filter(|(_, o)| with_host(o))
    {
        for b in case.outcomes.iter().skip(i + 1).filter(|o| with_host(o)) {
            let (ha, hb) = (
                a.1.components.get(Component::Host),
                b.1.components.get(Component::Host),
            );
            if hosts_differ(ha, hb, scheme) {
                found.push(HostConfusion {
                    oracles: [a.0, b.0],
                    hosts: [ha.map(str::to_owned), hb.map(str::to_owned)],
                    same_address: match (ha, hb) {
                        (Some(x), Some(y)) => same_address(x, y),
                        _ => false,
                    },
                });
            }
        }
    }
    case.host_confusions = found;
}
