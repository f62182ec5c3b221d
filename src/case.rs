//! [`Case`]: one input through every oracle, with its findings and host
//! confusions, and its JSON shape (`check --json`, `report --format jsonl`).

use serde::Serialize;
use serde::ser::{SerializeMap, SerializeStruct};

use crate::diff::diff;
use crate::oracle::{self, OracleId, Outcome};
use crate::triage::{Basis, Class, Finding, Severity};

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

/// How many outcomes a [`Case`] holds without a heap allocation: one per
/// oracle of this build's registry (so adding an oracle needs no edit
/// here); external oracles spill onto the heap.
pub const INLINE_OUTCOMES: usize = crate::oracle::REGISTRY.len();

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

    /// What a root cause is recognised from (see [`crate::rootcause::of`]).
    pub fn evidence(&self) -> crate::rootcause::Evidence<'_, 'a> {
        crate::rootcause::Evidence {
            input: self.input,
            base: self.base,
            outcomes: &self.outcomes,
        }
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

    /// Adds what only a reader of the case needs: the notes an oracle's
    /// registry row computes on demand ([`OracleInfo::annotate`], url's
    /// syntax violations in its own words), on an outcome that differs from
    /// rfc2396's for a single input. They take a second parse and no rule
    /// reads them, so `check()` (which the fuzz targets run on every input)
    /// leaves them out; a [`Harness`](crate::Harness) built with
    /// `annotate(true)` (the `check` and `report` commands) adds them.
    ///
    /// [`OracleInfo::annotate`]: crate::oracle::OracleInfo::annotate
    pub fn annotate(&mut self) {
        if self.base.is_some() {
            return;
        }
        let Some(((_, reference), others)) = self.outcomes.split_first_mut() else {
            return;
        };
        for (id, outcome) in others.iter_mut() {
            let Some(annotate) = oracle::info(*id).and_then(|row| row.annotate) else {
                continue;
            };
            if !outcome.is_missing() && !diff(reference, outcome).is_empty() {
                for note in annotate(self.input) {
                    outcome.note(note);
                }
            }
        }
    }

    /// The highest severity: of the findings, and high when two accepting
    /// parsers see different hosts, medium when every pair that does sees
    /// the same address spelt two ways (`same_address`).
    pub fn max_severity(&self) -> Option<Severity> {
        crate::triage::severity::of_case(
            &self.findings,
            self.host_confusions.iter().map(|h| h.same_address),
        )
    }
}

/// A finding as JSON, the one shape used everywhere (`check --json`,
/// `report --format jsonl`): `{"class", "basis", "severity", "oracle",
/// "peer", "fields", "effect", "spec"}`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub(crate) struct FindingJson {
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
    /// For a defect found by comparing parsers (`peer-disagreement`,
    /// `reference-disagreement`) and a variation a reference permits: the
    /// reference's oracle id that decided it, or null when nothing settles
    /// it. Absent on other findings.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub decided_by: Option<crate::triage::DecidedBy>,
    /// For a defect a documented deviation covers: its id and source.
    /// Absent otherwise.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub known: Option<KnownJson>,
    /// For a defect: its root cause (`testdata/ledger.tsv`, or a new one
    /// named after the signature). Absent otherwise.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub root_cause: Option<crate::rootcause::RootCause>,
}

/// A documented deviation, as a finding names it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct KnownJson {
    /// The row's id in `testdata/known-deviations.tsv`.
    pub id: &'static str,
    /// Where the deviation is documented.
    pub source: &'static str,
}

impl Case<'_> {
    /// The root cause of `finding`, one of this case's defects
    /// ([`crate::rootcause::of`]). A peer disagreement that no ledger row
    /// recognises is the parser's own defect on the same fields where triage
    /// found one with a ledger row (Ruby's `//` against `http://a/b`: its
    /// peers and its `empty-authority-ignored` are one behaviour), not a new
    /// root cause of its own.
    pub fn root_cause(&self, finding: &Finding) -> Option<crate::rootcause::RootCause> {
        let cause = crate::rootcause::of(self.evidence(), finding)?;
        if finding.class != Class::PeerDisagreement
            || cause.status != "new"
            || !cause.id.starts_with("new:")
        {
            return Some(cause);
        }
        let own = self
            .findings
            .iter()
            .filter(|f| {
                f.oracle == finding.oracle
                    && f.class != Class::PeerDisagreement
                    && f.basis == crate::triage::Basis::Defect
                    && (!finding.verdict || f.verdict)
                    && finding.fields.difference(f.fields).is_empty()
            })
            .filter_map(|f| crate::rootcause::of(self.evidence(), f))
            .find(|c| !c.id.starts_with("new:"));
        Some(own.unwrap_or(cause))
    }
}

impl Case<'_> {
    /// The findings in their JSON shape.
    pub(crate) fn findings_json(&self) -> Vec<FindingJson> {
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
                decided_by: f.decided_by.as_json(),
                known: f.known.and_then(crate::known::by_id).map(|k| KnownJson {
                    id: k.id.as_str(),
                    source: k.source.as_str(),
                }),
                root_cause: self.root_cause(f),
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
