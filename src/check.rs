//! `check(input) -> Case`: the one entry point shared by the fuzz targets,
//! the tests and the CLI, so that the tests replay exactly what the fuzzer
//! checks.

use serde::Serialize;
use serde::ser::{SerializeMap, SerializeStruct};

use crate::components::component_name;
use crate::diff::diff;
use crate::oracle::{self, OracleId, Outcome};
use crate::rfc2396;
use crate::triage::{Class, Finding, Severity, triage};

/// One input through every oracle, with the findings that explain how the
/// others differ from rfc2396.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Case<'a> {
    /// The input.
    pub input: &'a str,
    /// Each oracle's outcome, in [`OracleId::ALL`] order (rfc2396 first).
    pub outcomes: [(OracleId, Outcome<'a>); 5],
    /// The findings, oracle by oracle in [`OracleId::ALL`] order, each
    /// oracle's in rule order.
    pub findings: Vec<Finding>,
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

    /// The concrete effect of one of this case's findings, in one line.
    pub fn effect(&self, finding: &Finding) -> String {
        let (Some(reference), Some(other)) = (
            self.outcome(OracleId::Rfc2396),
            self.outcome(finding.oracle),
        ) else {
            return String::new();
        };
        crate::triage::effect(
            self.input,
            &rfc2396::parse(self.input),
            reference,
            other,
            finding,
        )
    }

    /// The highest severity among the findings.
    pub fn max_severity(&self) -> Option<Severity> {
        self.findings.iter().map(|f| f.severity).max()
    }
}

/// Runs `input` through every oracle, diffs each against rfc2396 and triages
/// every disagreement.
pub fn check(input: &str) -> Case<'_> {
    let parsed = rfc2396::parse(input);
    // Built in place: outcomes are a few hundred bytes each, and check() is
    // the fuzzers' hot path.
    let mut case = Case {
        input,
        outcomes: [
            (OracleId::Rfc2396, oracle::rfc2396::outcome_of(&parsed)),
            (OracleId::AppendixB, OracleId::AppendixB.run(input)),
            (OracleId::Url, OracleId::Url.run(input)),
            (OracleId::Http, OracleId::Http.run(input)),
            (OracleId::Rfc3986, OracleId::Rfc3986.run(input)),
        ],
        findings: Vec::new(),
    };
    let Some(((_, reference), others)) = case.outcomes.split_first_mut() else {
        return case;
    };
    for (id, outcome) in others {
        let mut d = diff(reference, outcome);
        if *id == OracleId::Url && !d.is_empty() {
            // url's syntax violations, asked for only when they may explain
            // something (the callback slows every parse down).
            for note in oracle::url::notes(input) {
                outcome.note(note);
            }
        }
        if !id.validates() {
            // Appendix B splits any string: its "acceptance" of what rfc2396
            // rejects is no disagreement, only its split of a valid input is.
            d.verdict = false;
        }
        if !d.is_empty() {
            case.findings
                .extend(triage(input, &parsed, reference, *id, outcome, d));
        }
    }
    case
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

/// A finding as JSON: `{"class", "severity", "oracle", "fields", "effect"}`.
#[derive(Serialize)]
struct FindingJson<'f> {
    class: Class,
    severity: Severity,
    oracle: OracleId,
    fields: Vec<&'f str>,
    effect: String,
}

/// The outcomes as a JSON object keyed by oracle id.
struct Outcomes<'c, 'a>(&'c [(OracleId, Outcome<'a>); 5]);

impl Serialize for Outcomes<'_, '_> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut m = s.serialize_map(Some(self.0.len()))?;
        for (id, outcome) in self.0 {
            m.serialize_entry(id.as_str(), outcome)?;
        }
        m.end()
    }
}

impl Serialize for Case<'_> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut st = s.serialize_struct("Case", 3)?;
        st.serialize_field("input", self.input)?;
        st.serialize_field("outcomes", &Outcomes(&self.outcomes))?;
        let findings: Vec<FindingJson<'_>> = self
            .findings
            .iter()
            .map(|f| FindingJson {
                class: f.class,
                severity: f.severity,
                oracle: f.oracle,
                fields: f.field_names(),
                effect: self.effect(f),
            })
            .collect();
        st.serialize_field("findings", &findings)?;
        st.end()
    }
}
