//! `check(input) -> Case`: the one entry point shared by the fuzz targets,
//! the tests and the CLI, so that the tests replay exactly what the fuzzer
//! checks.

use serde::Serialize;
use serde::ser::{SerializeMap, SerializeStruct};

use crate::components::{Component, ComponentSet, component_name};
use crate::diff::diff;
use crate::oracle::{self, OracleId, Outcome, registry};
use crate::rfc2396;
use crate::triage::host::{hosts_differ, same_address};
use crate::triage::{
    Basis, Class, Defects, Finding, Resolution, Severity, defects, severity, triage_into,
};

/// Two accepting parsers that see different hosts in the same input (one
/// having none counts), compared as text after ASCII case folding only.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct HostConfusion {
    /// The two parsers, in registry order.
    pub oracles: [OracleId; 2],
    /// Their hosts (`None`: no host).
    pub hosts: [Option<String>; 2],
    /// Whether the two are the same address spelled differently (after
    /// percent-decoding, and WHATWG's IPv4 number forms): the spelling an
    /// allowlist misses.
    pub same_address: bool,
}

/// How many outcomes a [`Case`] holds without a heap allocation: the
/// registry's oracles with every default feature (8); external oracles, or a
/// longer registry, spill onto the heap.
pub const INLINE_OUTCOMES: usize = 8;

/// Each oracle's outcome, in registry order (rfc2396 first), then the
/// external oracles'. Inline in the [`Case`]: `check()` runs on every fuzz
/// input, and a list on the heap would be one allocation per input beyond
/// the oracles' own. It derefs to a slice.
pub type OutcomeList<'a> = smallvec::SmallVec<[(OracleId, Outcome<'a>); INLINE_OUTCOMES]>;

/// One input through every oracle, with the findings that explain how the
/// others differ from rfc2396, the defects each parser shows on its own or
/// against a peer, and the host confusions between accepting parsers.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Case<'a> {
    /// The input (with a base: the reference).
    pub input: &'a str,
    /// The base the input was resolved against, if any.
    pub base: Option<&'a str>,
    /// With a base: the text triage read as rfc2396's side (its resolved
    /// URI, or the base or reference it refused).
    pub resolved: Option<String>,
    /// Each oracle's outcome, in registry order (rfc2396 first).
    pub outcomes: OutcomeList<'a>,
    /// The findings: per oracle in registry order, its defects, then its
    /// differences from rfc2396 in rule order; then peer disagreements.
    pub findings: Vec<Finding>,
    /// Pairs of accepting parsers whose hosts differ.
    pub host_confusions: Vec<HostConfusion>,
}

impl<'a> Case<'a> {
    /// An oracle's outcome.
    pub fn outcome(&self, id: OracleId) -> Option<&Outcome<'a>> {
        self.outcomes
            .iter()
            .find(|(o, _)| *o == id)
            .map(|(_, out)| out)
    }

    /// Findings no rule explains.
    pub fn unexplained(&self) -> impl Iterator<Item = &Finding> {
        self.findings
            .iter()
            .filter(|f| f.class == Class::Unexplained)
    }

    /// Is any finding unexplained?
    pub fn has_unexplained(&self) -> bool {
        self.unexplained().next().is_some()
    }

    /// Findings whose basis is a parser defect.
    pub fn defects(&self) -> impl Iterator<Item = &Finding> {
        self.findings.iter().filter(|f| f.basis == Basis::Defect)
    }

    /// The concrete effect of one of this case's findings, in one line.
    pub fn effect(&self, finding: &Finding) -> String {
        if let Some(detail) = &finding.detail {
            return detail.clone();
        }
        let (Some(ours), Some(theirs)) = (
            self.outcome(OracleId::Rfc2396),
            self.outcome(finding.oracle),
        ) else {
            return String::new();
        };
        crate::triage::effect(ours, theirs, finding)
    }

    /// Adds what only a reader of the case needs: url's syntax violations
    /// (its own words for what it repaired), as notes on its outcome, when
    /// url differs from rfc2396 on a single input. They take a second url
    /// parse with a callback and no rule reads them, so `check()` (which the
    /// fuzz targets run on every input) leaves them out; the `check` and
    /// `report` commands add them before they show a case.
    pub fn annotate(&mut self) {
        if self.base.is_some() {
            return;
        }
        let Some(((_, reference), others)) = self.outcomes.split_first_mut() else {
            return;
        };
        if let Some((_, url)) = others.iter_mut().find(|(id, _)| *id == OracleId::Url)
            && !diff(reference, url).is_empty()
        {
            for note in oracle::url::notes(self.input) {
                url.note(note);
            }
        }
    }

    /// The highest severity: of the findings, and high when two accepting
    /// parsers see different hosts.
    pub fn max_severity(&self) -> Option<Severity> {
        severity::of_case(&self.findings, !self.host_confusions.is_empty())
    }
}

/// Runs `input` through every oracle of the registry: self-checks and
/// round trips on each, rfc2396 against each other parser (triage), peers
/// against each other, and host confusions between accepting parsers.
pub fn check(input: &str) -> Case<'_> {
    check_with(input, Vec::new())
}

/// [`check`], with the outcomes of oracles outside the registry (external
/// ones, over the pipe protocol) added after the registry's.
pub fn check_with<'a>(input: &'a str, extra: Vec<(OracleId, Outcome<'a>)>) -> Case<'a> {
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
    check_with_base_and(base, reference, Vec::new())
}

/// [`check_with_base`], with the outcomes of oracles outside the registry
/// (external ones, which protocol v1 gives no base, so they are missing).
pub fn check_with_base_and<'a>(
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
    defects::peers(reference, others, &mut peer_findings);
    for (id, outcome) in others.iter_mut() {
        if outcome.is_missing() {
            continue;
        }
        let first_defect = case.findings.len();
        if !same_authority_slices(reference, outcome) {
            defects::self_checks(*id, outcome, &mut case.findings);
        }
        defects::round_trip(*id, outcome, &mut case.findings);
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

impl Serialize for Outcome<'_> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut m = s.serialize_map(None)?;
        m.serialize_entry("verdict", &self.verdict)?;
        for (c, value) in self.components.iter() {
            m.serialize_entry(component_name(c), &value)?;
        }
        if let Some(message) = &self.message {
            m.serialize_entry("message", message)?;
        }
        if !self.notes.is_empty() {
            m.serialize_entry("notes", &self.notes)?;
        }
        m.end()
    }
}

/// A finding as JSON, the one shape used everywhere (`check --json`,
/// `report --format jsonl`): `{"class", "basis", "severity", "oracle",
/// "peer", "fields", "effect", "spec"}`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct FindingJson {
    /// Class id.
    pub class: Class,
    /// `spec`, `defect` or `unexplained`.
    pub basis: Basis,
    /// `low`, `medium` or `high`.
    pub severity: Severity,
    /// The parser the finding is about.
    pub oracle: OracleId,
    /// The parser it is compared with (rfc2396, a peer), or null.
    pub peer: Option<OracleId>,
    /// `verdict` and the field names it explains.
    pub fields: Vec<&'static str>,
    /// The concrete effect, in one line.
    pub effect: String,
    /// The spec sections behind the class.
    pub spec: &'static str,
}

impl Case<'_> {
    /// The findings in their JSON shape.
    pub fn findings_json(&self) -> Vec<FindingJson> {
        self.findings
            .iter()
            .map(|f| FindingJson {
                class: f.class,
                basis: f.basis,
                severity: f.severity,
                oracle: f.oracle,
                peer: f.peer,
                fields: f.field_names(),
                effect: self.effect(f),
                spec: f.class.spec(),
            })
            .collect()
    }
}

/// The outcomes as a JSON object keyed by oracle id.
struct Outcomes<'c, 'a>(&'c [(OracleId, Outcome<'a>)]);

impl Serialize for Outcomes<'_, '_> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut m = s.serialize_map(Some(self.0.len()))?;
        for (id, outcome) in self.0 {
            m.serialize_entry(id.as_str(), outcome)?;
        }
        m.end()
    }
}

impl Serialize for HostConfusion {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut st = s.serialize_struct("HostConfusion", 3)?;
        st.serialize_field("oracles", &self.oracles)?;
        st.serialize_field("hosts", &self.hosts)?;
        st.serialize_field("same_address", &self.same_address)?;
        st.end()
    }
}

impl Serialize for Case<'_> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut st = s.serialize_struct("Case", 5)?;
        st.serialize_field("input", self.input)?;
        if let Some(base) = self.base {
            st.serialize_field("base", base)?;
            st.serialize_field("resolved", &self.resolved)?;
        }
        st.serialize_field("severity", &self.max_severity())?;
        st.serialize_field("outcomes", &Outcomes(&self.outcomes))?;
        st.serialize_field("findings", &self.findings_json())?;
        st.serialize_field("host_confusions", &self.host_confusions)?;
        st.end()
    }
}
