//! Disagreement reports over a corpus: one section model ([`Report`]),
//! rendered as Markdown ([`md`]), JSON Lines ([`jsonl`]) and one
//! self-contained HTML page ([`html`]).
//!
//! A report groups findings by **signature** (class, basis, parser,
//! fields): each group has its count, its effect, its severity and a few of
//! its shortest inputs, each with where it came from and a command that
//! reproduces it. Memory is bounded by signatures and examples, not by
//! inputs: a [`Builder`] takes inputs as they are read, checks each distinct
//! one once (a 64-bit hash remembers which were seen) and keeps aggregates
//! only; the JSON Lines form streams one object per input through a sink.
//!
//! Every aggregate is independent of the order inputs arrive in (counts are
//! sums, examples the shortest with ties broken by text), so the Markdown
//! and HTML reports of a corpus do not depend on the order its files are
//! read; JSON Lines lists inputs in the order they were read.

pub mod html;
pub mod jsonl;
pub mod md;
pub mod read;

use std::collections::hash_map::DefaultHasher;
use std::collections::{BTreeMap, BTreeSet, HashSet};
use std::hash::{Hash, Hasher};
use std::io::{self, Write};

use serde::Serialize;

use crate::case::{Case, FindingJson};
use crate::harness::{Harness, Query};
use crate::oracle::OracleId;
use crate::signature::Signature;
use crate::triage::{Basis, Class, Severity};

/// How many examples a report keeps per signature (the shortest).
pub(crate) const EXAMPLES_PER_SIGNATURE: usize = 5;
/// How many unexplained inputs, and inputs that are not UTF-8, a report
/// lists by name (all are counted).
pub const LISTED: usize = 1000;

/// One input of the corpus: where it came from and its bytes.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Item {
    /// A file path, or `path:line` for `--lines` input.
    pub source: String,
    /// The raw input (with a base: the reference).
    pub bytes: Vec<u8>,
    /// The base to resolve it against, if any.
    pub base: Option<String>,
}

/// Totals over the whole corpus.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Totals {
    /// Inputs read (UTF-8 or not).
    pub inputs: usize,
    /// Distinct UTF-8 inputs checked.
    pub distinct: usize,
    /// Inputs that are not UTF-8, counted and listed, not checked.
    pub non_utf8: usize,
    /// Distinct inputs the strict RFC 2396 parser accepts.
    pub rfc2396_valid: usize,
    /// Distinct inputs with at least one finding or host confusion.
    pub with_findings: usize,
    /// Distinct inputs with at least one `unexplained` finding.
    pub unexplained: usize,
    /// Distinct inputs with at least one `defect` finding.
    pub defects: usize,
    /// Distinct inputs on which two accepting parsers see different hosts.
    pub host_confusions: usize,
    /// Distinct inputs by their highest severity.
    pub by_severity: BTreeMap<Severity, usize>,
}

/// An input shown as an example.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Example {
    /// The input (with a base: the reference).
    pub input: String,
    /// The base it was resolved against.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub base: Option<String>,
    /// Where it was read: a file, or `file:line`.
    pub source: String,
    /// A shell command that shows it side by side (`uridiff check ...`).
    pub reproduce: String,
    /// Its whole case, as `check --json` prints it (for the HTML page's
    /// side-by-side view).
    #[serde(skip)]
    pub case: serde_json::Value,
}

impl Example {
    fn of(source: &str, case: &Case<'_>) -> Example {
        Example {
            input: case.input.to_owned(),
            base: case.base.map(str::to_owned),
            source: source.to_owned(),
            reproduce: reproduce(source, case.input, case.base),
            case: serde_json::to_value(case).unwrap_or_default(),
        }
    }

    /// The order examples are kept in: shortest first, then by text and
    /// source, so the choice does not depend on reading order.
    fn key(&self) -> (usize, &str, Option<&str>, &str) {
        (
            self.input.len(),
            &self.input,
            self.base.as_deref(),
            &self.source,
        )
    }
}

/// Keeps `example` among the `limit` smallest of `list`.
fn keep(list: &mut Vec<Example>, example: Example, limit: usize) {
    if list.len() >= limit && list.last().is_some_and(|last| example.key() >= last.key()) {
        return;
    }
    let at = list.partition_point(|e| e.key() < example.key());
    list.insert(at, example);
    list.truncate(limit);
}

/// The command that reproduces `input` (against `base`) for a program
/// reading the JSON report: [`crate::text::reproduce`], with `source` as
/// the file that may hold the input.
pub fn reproduce(source: &str, input: &str, base: Option<&str>) -> String {
    crate::text::reproduce(
        input,
        base,
        Some(std::path::Path::new(source)),
        crate::text::Reader::Program,
    )
}

/// All findings with one signature.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Group {
    /// `class/basis/oracle/fields`.
    pub signature: Signature,
    /// The class.
    pub class: Class,
    /// `spec`, `defect` or `unexplained`.
    pub basis: Basis,
    /// The parser the findings are about.
    pub oracle: OracleId,
    /// `verdict` and the field names.
    pub fields: Vec<&'static str>,
    /// The highest severity among them.
    pub severity: Severity,
    /// Distinct inputs with this signature.
    pub count: usize,
    /// The effect, on the shortest example.
    pub effect: String,
    /// The spec sections behind the class.
    pub spec: &'static str,
    /// The shortest examples.
    pub examples: Vec<Example>,
    /// For a comparison (peer or reference disagreement, a permitted
    /// variation): the reference that decided the shortest example, or
    /// null when nothing did. Absent otherwise.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub decided_by: Option<crate::triage::DecidedBy>,
    /// The documented deviation that covers the shortest example, if any.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub known: Option<crate::case::KnownJson>,
    /// For a defect: the root cause of the shortest example.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub root_cause: Option<crate::rootcause::RootCause>,
    /// For a defect: the root cause of each of its inputs, with how many
    /// inputs have it, most inputs first. A signature's inputs can have
    /// several (a ledger row recognised from the input's text shares its
    /// class and fields with the parser's other departures), and a campaign
    /// reader wants each of them counted, not only the shortest example's.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub root_causes: Vec<CauseCount>,
}

/// One root cause among a signature's inputs.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct CauseCount {
    /// The root cause.
    pub root_cause: crate::rootcause::RootCause,
    /// Distinct inputs of the signature that have it.
    pub inputs: usize,
}

/// Host confusions between one pair of parsers.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct PairCount {
    /// The two parsers.
    pub oracles: [OracleId; 2],
    /// Distinct inputs on which they see different hosts.
    pub count: usize,
    /// Of those, inputs where the hosts are the same address spelled
    /// differently.
    pub same_address: usize,
    /// The shortest such input.
    pub example: Example,
    /// The two hosts the example gives.
    pub hosts: [Option<String>; 2],
}

/// A disagreement report: the one section model every format renders.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Report {
    /// Totals.
    pub totals: Totals,
    /// Findings by signature, most severe first, then most frequent.
    pub groups: Vec<Group>,
    /// Host confusions per parser pair, most frequent first.
    pub pairs: Vec<PairCount>,
    /// The shortest unexplained inputs (at most [`LISTED`]).
    pub unexplained: Vec<Example>,
    /// Sources whose bytes are not UTF-8 (the first [`LISTED`], sorted).
    pub non_utf8: Vec<String>,
    /// Sources that were not checked (unreadable, too large, malformed),
    /// with the reason, sorted.
    pub not_checked: Vec<(String, String)>,
    /// External oracles that failed, one line each; their outcomes after the
    /// fault are marked missing.
    pub external_errors: Vec<String>,
    /// References that were needed and are missing, one line each (why):
    /// what they would have decided is undecided.
    pub missing_references: Vec<String>,
    /// The bypass matrix for the default allowed and target hosts
    /// ([`crate::bypass::report_matrix`]), when the report was asked to
    /// search (`uridiff report` always does).
    pub bypass: Option<crate::bypass::Matrix>,
}

/// One root cause with the defect signatures it explains.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct RootCauseGroup<'r> {
    /// The root cause.
    pub root_cause: &'r crate::rootcause::RootCause,
    /// Its parser.
    pub oracle: OracleId,
    /// Its signatures' groups, most severe first (in JSON, their
    /// signatures).
    #[serde(rename = "signatures", serialize_with = "signatures_of")]
    pub groups: Vec<&'r Group>,
    /// Distinct inputs whose root cause it is, summed over its signatures
    /// (an input with two of them counts twice).
    pub inputs: usize,
}

/// A root cause's groups as their signatures' text.
fn signatures_of<S: serde::Serializer>(groups: &[&Group], s: S) -> Result<S::Ok, S::Error> {
    s.collect_seq(groups.iter().map(|g| g.signature.to_string()))
}

impl Report {
    /// The defect signatures grouped by root cause, each input under its
    /// own (a signature whose inputs have two root causes is under both):
    /// new ones first, then by parser and id.
    pub fn root_causes(&self) -> Vec<RootCauseGroup<'_>> {
        let mut out: Vec<RootCauseGroup<'_>> = Vec::new();
        for g in self.groups_of(Basis::Defect) {
            for cause in &g.root_causes {
                let rc = &cause.root_cause;
                match out.iter_mut().find(|r| r.root_cause.id == rc.id) {
                    Some(r) => {
                        r.groups.push(g);
                        r.inputs += cause.inputs;
                    }
                    None => out.push(RootCauseGroup {
                        root_cause: rc,
                        oracle: g.oracle,
                        groups: vec![g],
                        inputs: cause.inputs,
                    }),
                }
            }
        }
        out.sort_by(|a, b| {
            (a.root_cause.status != "new", a.oracle, &a.root_cause.id).cmp(&(
                b.root_cause.status != "new",
                b.oracle,
                &b.root_cause.id,
            ))
        });
        out
    }

    /// The groups of one basis.
    pub(crate) fn groups_of(&self, basis: Basis) -> impl Iterator<Item = &Group> {
        self.groups.iter().filter(move |g| g.basis == basis)
    }
}

/// Builds a [`Report`] from inputs as they are read.
pub struct Builder<'w> {
    report: Report,
    groups: BTreeMap<Signature, Group>,
    pairs: BTreeMap<[OracleId; 2], PairCount>,
    seen: HashSet<u64>,
    jsonl: Option<&'w mut dyn Write>,
    templates: BTreeSet<String>,
}

/// How many bypass templates a report keeps from its inputs (the first in
/// text order, so the set does not depend on reading order).
pub(crate) const BYPASS_TEMPLATES: usize = 5000;

impl std::fmt::Debug for Builder<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Builder")
            .field("totals", &self.report.totals)
            .field("signatures", &self.groups.len())
            .finish_non_exhaustive()
    }
}

impl Default for Builder<'_> {
    fn default() -> Self {
        Builder::new()
    }
}

impl<'w> Builder<'w> {
    /// An empty report.
    pub fn new() -> Self {
        Builder {
            report: Report::default(),
            groups: BTreeMap::new(),
            pairs: BTreeMap::new(),
            seen: HashSet::new(),
            jsonl: None,
            templates: BTreeSet::new(),
        }
    }

    /// Also writes one JSON line per distinct input to `sink` as it is
    /// checked (see [`jsonl`]).
    pub fn with_jsonl(sink: &'w mut dyn Write) -> Self {
        Builder {
            jsonl: Some(sink),
            ..Builder::new()
        }
    }

    /// Lists a source that was not checked.
    pub fn not_checked(&mut self, source: String, why: String) {
        self.report.not_checked.push((source, why));
    }

    /// Records an external oracle's failure.
    pub fn external_error(&mut self, error: String) {
        self.report.external_errors.push(error);
    }

    /// Records why the references the checks needed are missing
    /// ([`Harness::missing_references`] of the harness that checked them):
    /// the harness that owns a reference is the one that knows.
    pub fn missing_references(&mut self, why: Vec<String>) {
        self.report.missing_references = why;
    }

    /// Checks a batch of inputs (each distinct one once) with `harness`,
    /// in batches of its size; `progress` is called once per input.
    pub fn add(
        &mut self,
        items: Vec<Item>,
        harness: &mut Harness<'_>,
        progress: &mut dyn FnMut(),
    ) -> io::Result<()> {
        let mut fresh: Vec<(String, String, Option<String>)> = Vec::new();
        for item in items {
            self.report.totals.inputs += 1;
            let input = match String::from_utf8(item.bytes) {
                Ok(s) => s,
                Err(_) => {
                    self.report.totals.non_utf8 += 1;
                    self.report.non_utf8.push(item.source);
                    if self.report.non_utf8.len() > 2 * LISTED {
                        self.report.non_utf8.sort();
                        self.report.non_utf8.truncate(LISTED);
                    }
                    progress();
                    continue;
                }
            };
            let mut h = DefaultHasher::new();
            (&item.base, &input).hash(&mut h);
            if self.seen.insert(h.finish()) {
                fresh.push((item.source, input, item.base));
            } else {
                progress();
            }
        }
        // A batch at a time: external oracles answer a batch in one round
        // trip (a report never waits for lines to arrive, so it always
        // fills a batch).
        for chunk in fresh.chunks(crate::harness::EXTERNAL_BATCH) {
            let queries: Vec<Query<'_>> = chunk
                .iter()
                .map(|(_, input, base)| Query {
                    input,
                    base: base.as_deref(),
                })
                .collect();
            let cases = harness.check_queries(&queries);
            for ((source, _, _), case) in chunk.iter().zip(&cases) {
                self.record(source, case)?;
                progress();
            }
        }
        Ok(())
    }

    fn record(&mut self, source: &str, case: &Case<'_>) -> io::Result<()> {
        let totals = &mut self.report.totals;
        totals.distinct += 1;
        if case
            .outcome(OracleId::Rfc2396)
            .is_some_and(crate::oracle::Outcome::accepted)
        {
            totals.rfc2396_valid += 1;
        }
        if let Some(max) = case.max_severity() {
            totals.with_findings += 1;
            *totals.by_severity.entry(max).or_default() += 1;
        }
        if case.defects().next().is_some() {
            totals.defects += 1;
        }
        if !case.host_confusions.is_empty() {
            totals.host_confusions += 1;
        }
        if let Some(sink) = self.jsonl.as_deref_mut() {
            jsonl::write_case(sink, source, case)?;
        }
        self.templates.extend(crate::bypass::templates([case]));
        while self.templates.len() > BYPASS_TEMPLATES {
            self.templates.pop_last();
        }
        if case.findings.is_empty() && case.host_confusions.is_empty() {
            return Ok(());
        }
        let example = Example::of(source, case);
        if case.has_unexplained() {
            self.report.totals.unexplained += 1;
            keep(&mut self.report.unexplained, example.clone(), LISTED);
        }
        let findings = case.findings_json();
        let mut seen_here = HashSet::new();
        for (f, json) in case.findings.iter().zip(findings) {
            let signature = Signature::of(f);
            let first_here = seen_here.insert(signature);
            let group = self
                .groups
                .entry(signature)
                .or_insert_with(|| group_of(signature, json.clone()));
            group.severity = group.severity.max(f.severity);
            if first_here {
                group.count += 1;
                let shortest = group
                    .examples
                    .first()
                    .is_none_or(|e| example.key() < e.key());
                if shortest {
                    group.effect = json.effect.clone();
                    group.decided_by = json.decided_by.clone();
                    group.known = json.known.clone();
                    group.root_cause = json.root_cause.clone();
                }
                if let Some(rc) = &json.root_cause {
                    count_cause(&mut group.root_causes, rc);
                }
                keep(&mut group.examples, example.clone(), EXAMPLES_PER_SIGNATURE);
            }
        }
        for h in &case.host_confusions {
            let entry = self.pairs.entry(h.oracles).or_insert_with(|| PairCount {
                oracles: h.oracles,
                count: 0,
                same_address: 0,
                example: example.clone(),
                hosts: h.hosts.clone(),
            });
            entry.count += 1;
            entry.same_address += usize::from(h.same_address);
            if example.key() < entry.example.key() {
                entry.example = example.clone();
                entry.hosts = h.hosts.clone();
            }
        }
        Ok(())
    }

    /// Bypass templates from the inputs so far ([`crate::bypass::templates`]).
    pub fn bypass_templates(&self) -> &BTreeSet<String> {
        &self.templates
    }

    /// Adds the bypass matrix.
    pub fn bypass(&mut self, matrix: crate::bypass::Matrix) {
        self.report.bypass = Some(matrix);
    }

    /// The report, every list in its final order.
    pub fn finish(self) -> Report {
        let mut report = self.report;
        report.groups = self.groups.into_values().collect();
        report.groups.sort_by(|a, b| {
            (b.severity, b.count, &a.signature).cmp(&(a.severity, a.count, &b.signature))
        });
        report.pairs = self.pairs.into_values().collect();
        report
            .pairs
            .sort_by(|a, b| (b.count, a.oracles).cmp(&(a.count, b.oracles)));
        report.non_utf8.sort();
        report.non_utf8.truncate(LISTED);
        report.not_checked.sort();
        report
    }
}

fn group_of(signature: Signature, f: FindingJson) -> Group {
    Group {
        signature,
        class: f.class,
        basis: f.basis,
        oracle: f.oracle,
        fields: f.fields,
        severity: f.severity,
        count: 0,
        effect: f.effect,
        spec: f.spec,
        examples: Vec::new(),
        decided_by: f.decided_by,
        known: f.known,
        root_cause: f.root_cause,
        root_causes: Vec::new(),
    }
}

/// Counts one more input of a signature whose root cause is `rc`, keeping
/// the list most inputs first, then by id (the order does not depend on
/// the order inputs are read in).
fn count_cause(causes: &mut Vec<CauseCount>, rc: &crate::rootcause::RootCause) {
    match causes.iter_mut().find(|c| c.root_cause.id == rc.id) {
        Some(c) => c.inputs += 1,
        None => causes.push(CauseCount {
            root_cause: rc.clone(),
            inputs: 1,
        }),
    }
    causes.sort_by(|a, b| {
        (std::cmp::Reverse(a.inputs), &a.root_cause.id)
            .cmp(&(std::cmp::Reverse(b.inputs), &b.root_cause.id))
    });
}

/// Builds a report from corpus items (in any order) with the registry's
/// oracles, and the sources that were not checked; `progress` is called
/// once per input.
pub fn build(
    items: Vec<Item>,
    not_checked: Vec<(String, String)>,
    mut progress: impl FnMut(),
) -> Report {
    let mut builder = Builder::new();
    for (source, why) in not_checked {
        builder.not_checked(source, why);
    }
    // Without a JSON sink nothing is written, so nothing can fail.
    let _ = builder.add(items, &mut Harness::default(), &mut progress);
    builder.finish()
}
