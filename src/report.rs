//! Disagreement reports over a corpus: Markdown, JSON Lines and HTML.
//!
//! A [`Report`] is built from (source, bytes) items and is independent of
//! their order: every list is sorted and every count kept in a sorted map, so
//! reports diff cleanly and the same corpus always gives the same bytes.

use std::collections::{BTreeMap, BTreeSet};
use std::io::{self, Write};

use serde::Serialize;

use crate::check::{FindingJson, HostConfusion, check_with, check_with_base_and};
use crate::oracle::OracleId;
use crate::oracle::Outcome;
use crate::triage::{Basis, Class, Severity};

/// How many shortest examples a report shows per class.
pub const EXAMPLES_PER_CLASS: usize = 5;

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
    /// Inputs that are not UTF-8, listed and not checked.
    pub non_utf8: usize,
    /// Distinct inputs the strict RFC 2396 parser accepts.
    pub rfc2396_valid: usize,
    /// Distinct inputs with at least one finding.
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

/// Counts for one (class, oracle, severity).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ClassCount {
    /// Class id.
    pub class: &'static str,
    /// `spec`, `defect` or `unexplained`.
    pub basis: Basis,
    /// Oracle id.
    pub oracle: &'static str,
    /// Severity.
    pub severity: Severity,
    /// Distinct inputs.
    pub count: usize,
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
    /// The shortest such input and the two hosts.
    pub example: (String, [Option<String>; 2]),
}

/// A checked input as the report lists it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct CaseLine {
    /// The input (with a base: the reference).
    pub input: String,
    /// The base it was resolved against.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub base: Option<String>,
    /// Where it was found (the first source, in sorted order).
    pub source: String,
    /// How many sources hold it.
    pub copies: usize,
    /// The findings, in the shape of `check --json`.
    pub findings: Vec<FindingJson>,
    /// Pairs of accepting parsers that see different hosts.
    pub host_confusions: Vec<HostConfusion>,
    /// The effects of the unexplained findings.
    pub unexplained: Vec<String>,
}

impl CaseLine {
    /// `class/oracle/severity` of each finding, comma-separated.
    pub fn labels(&self) -> String {
        self.findings
            .iter()
            .map(|f| format!("{}/{}/{}", f.class, f.oracle, f.severity))
            .collect::<Vec<_>>()
            .join(", ")
    }
}

/// Shows a host (or its absence) in Markdown.
fn md_host(host: &Option<String>) -> String {
    host.as_deref().map_or_else(|| "none".to_owned(), md_code)
}

/// A disagreement report.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Report {
    /// Totals.
    pub totals: Totals,
    /// Counts per class, oracle and severity, in class catalogue order.
    pub counts: Vec<ClassCount>,
    /// The shortest examples per class, in class catalogue order.
    pub examples: Vec<(&'static str, Vec<CaseLine>)>,
    /// Every case with an unexplained finding, sorted by input.
    pub unexplained: Vec<CaseLine>,
    /// Every case, sorted by input (for JSON Lines).
    pub cases: Vec<CaseLine>,
    /// Host confusions per parser pair, in registry order.
    pub pairs: Vec<PairCount>,
    /// Sources whose bytes are not UTF-8, sorted.
    pub non_utf8: Vec<String>,
    /// Sources that were not checked (unreadable, too large), with the reason, sorted.
    pub not_checked: Vec<(String, String)>,
    /// External oracles that failed, one line each; their outcomes after the
    /// fault are marked missing.
    pub external_errors: Vec<String>,
}

/// Builds a report from corpus items (in any order) and the sources that
/// were not checked; `progress` is called once per distinct input checked.
pub fn build(
    items: Vec<Item>,
    not_checked: Vec<(String, String)>,
    progress: impl FnMut(),
) -> Report {
    build_with(items, not_checked, &mut |_: &[&str]| Vec::new(), progress)
}

/// The outcomes oracles outside the registry give a batch of inputs: one
/// list per input, in order (an empty list: none).
pub type ExtraOutcomes<'e> = dyn FnMut(&[&str]) -> Vec<Vec<(OracleId, Outcome<'static>)>> + 'e;

/// How many inputs go to the external oracles at a time.
const EXTERNAL_BATCH: usize = 512;

/// [`build`], with outcomes of external oracles: `extra` is given the
/// distinct inputs in batches, before they are checked. (Inputs with a base
/// get none: protocol v1 has no base.)
pub fn build_with(
    items: Vec<Item>,
    not_checked: Vec<(String, String)>,
    extra: &mut ExtraOutcomes<'_>,
    mut progress: impl FnMut(),
) -> Report {
    let mut report = Report {
        totals: Totals {
            inputs: items.len(),
            ..Totals::default()
        },
        ..Report::default()
    };
    // (base, input) -> sorted sources
    let mut inputs: BTreeMap<(Option<String>, String), BTreeSet<String>> = BTreeMap::new();
    for item in items {
        match String::from_utf8(item.bytes) {
            Ok(s) => {
                inputs
                    .entry((item.base, s))
                    .or_default()
                    .insert(item.source);
            }
            Err(_) => report.non_utf8.push(item.source),
        }
    }
    report.non_utf8.sort();
    report.totals.non_utf8 = report.non_utf8.len();
    report.totals.distinct = inputs.len();

    let mut counts: BTreeMap<(Class, OracleId, Severity), usize> = BTreeMap::new();
    let mut pairs: BTreeMap<[OracleId; 2], PairCount> = BTreeMap::new();
    let mut by_class: BTreeMap<Class, Vec<CaseLine>> = BTreeMap::new();
    // Each batch of distinct inputs goes to the external oracles once.
    let keys: Vec<&(Option<String>, String)> = inputs.keys().collect();
    let mut batch_extra: Vec<Vec<(OracleId, Outcome<'static>)>> = Vec::new();
    for (i, ((base, input), sources)) in inputs.iter().enumerate() {
        if i % EXTERNAL_BATCH == 0 {
            let batch: Vec<&str> = keys
                .iter()
                .skip(i)
                .take(EXTERNAL_BATCH)
                .map(|(_, input)| input.as_str())
                .collect();
            batch_extra = extra(&batch);
            batch_extra.reverse();
        }
        let mut own = batch_extra.pop().unwrap_or_default();
        if base.is_some() {
            // Protocol v1 sends no base: an external oracle resolves nothing.
            for (_, outcome) in &mut own {
                *outcome = Outcome::missing("the pipe protocol (v1) has no base URL");
            }
        }
        progress();
        let case = match base {
            Some(base) => check_with_base_and(base, input, own),
            None => check_with(input, own),
        };
        if case
            .outcome(OracleId::Rfc2396)
            .is_some_and(|o| o.accepted())
        {
            report.totals.rfc2396_valid += 1;
        }
        let line = CaseLine {
            input: input.clone(),
            base: base.clone(),
            source: sources.iter().next().cloned().unwrap_or_default(),
            copies: sources.len(),
            findings: case.findings_json(),
            host_confusions: case.host_confusions.clone(),
            unexplained: case
                .unexplained()
                .map(|f| format!("{}: {}", f.oracle, case.effect(f)))
                .collect(),
        };
        if case.defects().next().is_some() {
            report.totals.defects += 1;
        }
        if !case.host_confusions.is_empty() {
            report.totals.host_confusions += 1;
        }
        for h in &case.host_confusions {
            let entry = pairs.entry(h.oracles).or_insert_with(|| PairCount {
                oracles: h.oracles,
                count: 0,
                same_address: 0,
                example: (input.clone(), h.hosts.clone()),
            });
            entry.count += 1;
            entry.same_address += usize::from(h.same_address);
            if (input.len(), input) < (entry.example.0.len(), &entry.example.0) {
                entry.example = (input.clone(), h.hosts.clone());
            }
        }
        if let Some(max) = case.max_severity() {
            report.totals.with_findings += 1;
            *report.totals.by_severity.entry(max).or_default() += 1;
        }
        let mut seen = BTreeSet::new();
        for f in &case.findings {
            if seen.insert((f.class, f.oracle, f.severity)) {
                *counts.entry((f.class, f.oracle, f.severity)).or_default() += 1;
            }
        }
        let classes: BTreeSet<Class> = case.findings.iter().map(|f| f.class).collect();
        for class in classes {
            by_class.entry(class).or_default().push(line.clone());
        }
        if !line.unexplained.is_empty() {
            report.totals.unexplained += 1;
            report.unexplained.push(line.clone());
        }
        report.cases.push(line);
    }
    report.counts = counts
        .into_iter()
        .map(|((class, oracle, severity), count)| ClassCount {
            class: class.id(),
            basis: class.basis(),
            oracle: oracle.as_str(),
            severity,
            count,
        })
        .collect();
    report.pairs = pairs.into_values().collect();
    report.examples = by_class
        .into_iter()
        .map(|(class, mut lines)| {
            lines.sort_by(|a, b| (a.input.len(), &a.input).cmp(&(b.input.len(), &b.input)));
            lines.truncate(EXAMPLES_PER_CLASS);
            (class.id(), lines)
        })
        .collect();
    let mut not_checked = not_checked;
    not_checked.sort();
    report.not_checked = not_checked;
    report
}

/// Shows an input in Markdown inline code, escaping what would break the
/// line or the table and cutting very long inputs.
fn md_code(s: &str) -> String {
    let mut shown: String = s.chars().take(200).collect();
    if s.chars().count() > 200 {
        shown.push_str(&format!("… ({} bytes)", s.len()));
    }
    let escaped: String = shown
        .chars()
        .flat_map(|c| match c {
            '|' => "\\|".chars().collect::<Vec<_>>(),
            c if c.is_control() => c.escape_default().collect(),
            c => vec![c],
        })
        .collect();
    if escaped.contains('`') {
        format!("`` {escaped} ``")
    } else {
        format!("`{escaped}`")
    }
}

impl Report {
    /// Writes the Markdown report.
    pub fn write_markdown(&self, out: &mut impl Write) -> io::Result<()> {
        let t = &self.totals;
        writeln!(out, "# uridiff disagreement report\n")?;
        writeln!(out, "## Totals\n")?;
        writeln!(out, "| | count |\n|---|---:|")?;
        writeln!(out, "| inputs read | {} |", t.inputs)?;
        writeln!(out, "| distinct UTF-8 inputs | {} |", t.distinct)?;
        writeln!(
            out,
            "| not UTF-8 (listed below, not checked) | {} |",
            t.non_utf8
        )?;
        writeln!(
            out,
            "| not checked (unreadable or too large) | {} |",
            self.not_checked.len()
        )?;
        writeln!(out, "| valid RFC 2396 references | {} |", t.rfc2396_valid)?;
        writeln!(out, "| with findings | {} |", t.with_findings)?;
        for (severity, n) in t.by_severity.iter().rev() {
            writeln!(out, "| highest severity {severity} | {n} |")?;
        }
        writeln!(out, "| with a suspected parser defect | {} |", t.defects)?;
        writeln!(out, "| with a host confusion | {} |", t.host_confusions)?;
        writeln!(out, "| **unexplained** | **{}** |\n", t.unexplained)?;

        if !self.external_errors.is_empty() {
            writeln!(out, "## External oracles that failed\n")?;
            writeln!(
                out,
                "Their outcomes after the failure are missing (not compared).\n"
            )?;
            for e in &self.external_errors {
                writeln!(out, "- {}", md_code(e))?;
            }
            writeln!(out)?;
        }

        writeln!(out, "## Unexplained\n")?;
        if self.unexplained.is_empty() {
            writeln!(out, "None: every disagreement has a class.\n")?;
        } else {
            writeln!(
                out,
                "| input | source | what is unexplained |\n|---|---|---|"
            )?;
            for c in &self.unexplained {
                writeln!(
                    out,
                    "| {} | {} | {} |",
                    md_code(&c.input),
                    md_code(&c.source),
                    md_code(&c.unexplained.join("; "))
                )?;
            }
            writeln!(out)?;
        }

        writeln!(out, "## Suspected parser defects\n")?;
        let defects: Vec<&ClassCount> = self
            .counts
            .iter()
            .filter(|c| c.basis == Basis::Defect)
            .collect();
        if defects.is_empty() {
            writeln!(out, "None.\n")?;
        } else {
            writeln!(
                out,
                "| class | parser | severity | inputs |\n|---|---|---|---:|"
            )?;
            for c in defects {
                writeln!(
                    out,
                    "| `{}` | {} | {} | {} |",
                    c.class, c.oracle, c.severity, c.count
                )?;
            }
            writeln!(out)?;
        }

        writeln!(out, "## Host confusions per parser pair\n")?;
        if self.pairs.is_empty() {
            writeln!(out, "None: no two accepting parsers saw different hosts.\n")?;
        } else {
            writeln!(
                out,
                "| parsers | inputs | same address, other spelling | shortest example | hosts |\n|---|---:|---:|---|---|"
            )?;
            for p in &self.pairs {
                writeln!(
                    out,
                    "| {} / {} | {} | {} | {} | {} vs {} |",
                    p.oracles[0],
                    p.oracles[1],
                    p.count,
                    p.same_address,
                    md_code(&p.example.0),
                    md_host(&p.example.1[0]),
                    md_host(&p.example.1[1])
                )?;
            }
            writeln!(out)?;
        }

        writeln!(out, "## Findings by class and oracle\n")?;
        writeln!(
            out,
            "| class | basis | oracle | severity | inputs |\n|---|---|---|---|---:|"
        )?;
        for c in &self.counts {
            writeln!(
                out,
                "| `{}` | {} | {} | {} | {} |",
                c.class, c.basis, c.oracle, c.severity, c.count
            )?;
        }
        writeln!(out)?;

        writeln!(out, "## Shortest examples per class\n")?;
        for (class, lines) in &self.examples {
            writeln!(out, "### `{class}`\n")?;
            for l in lines {
                writeln!(out, "- {} ({})", md_code(&l.input), l.labels())?;
            }
            writeln!(out)?;
        }

        if !self.non_utf8.is_empty() || !self.not_checked.is_empty() {
            writeln!(out, "## Inputs not checked\n")?;
            for s in &self.non_utf8 {
                writeln!(out, "- {}: not UTF-8", md_code(s))?;
            }
            for (s, why) in &self.not_checked {
                writeln!(out, "- {}: {}", md_code(s), md_code(why))?;
            }
            writeln!(out)?;
        }
        Ok(())
    }

    /// Writes JSON Lines: a `summary` object, then one object per distinct
    /// input sorted by input, then one per input not checked.
    pub fn write_jsonl(&self, out: &mut impl Write) -> io::Result<()> {
        #[derive(Serialize)]
        struct Summary<'r> {
            summary: &'r Totals,
            counts: &'r [ClassCount],
            host_confusion_pairs: &'r [PairCount],
            not_checked: usize,
            external_errors: &'r [String],
        }
        serde_json::to_writer(
            &mut *out,
            &Summary {
                summary: &self.totals,
                counts: &self.counts,
                host_confusion_pairs: &self.pairs,
                not_checked: self.not_checked.len(),
                external_errors: &self.external_errors,
            },
        )?;
        writeln!(out)?;
        for c in &self.cases {
            serde_json::to_writer(&mut *out, c)?;
            writeln!(out)?;
        }
        for s in &self.non_utf8 {
            serde_json::to_writer(
                &mut *out,
                &serde_json::json!({"source": s, "error": "not UTF-8"}),
            )?;
            writeln!(out)?;
        }
        for (s, why) in &self.not_checked {
            serde_json::to_writer(&mut *out, &serde_json::json!({"source": s, "error": why}))?;
            writeln!(out)?;
        }
        Ok(())
    }

    /// Writes a single self-contained HTML page.
    pub fn write_html(&self, out: &mut impl Write) -> io::Result<()> {
        let t = &self.totals;
        writeln!(
            out,
            "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
             <title>uridiff disagreement report</title>\n<style>\n\
             body{{font-family:system-ui,sans-serif;margin:2em;max-width:80em;color:#222}}\n\
             table{{border-collapse:collapse;margin:1em 0}}\n\
             th,td{{border:1px solid #ccc;padding:.3em .6em;text-align:left;vertical-align:top}}\n\
             td.n{{text-align:right}}\ncode{{background:#f4f4f4;padding:0 .2em;word-break:break-all}}\n\
             .high{{color:#b00020;font-weight:bold}}.medium{{color:#a15c00}}.low{{color:#555}}\n\
             .bad{{background:#fde8e8}}\n</style>\n</head>\n<body>\n<h1>uridiff disagreement report</h1>"
        )?;
        writeln!(out, "<h2>Totals</h2>\n<table>")?;
        let rows = [
            ("inputs read", t.inputs),
            ("distinct UTF-8 inputs", t.distinct),
            ("not UTF-8 (not checked)", t.non_utf8),
            (
                "not checked (unreadable or too large)",
                self.not_checked.len(),
            ),
            ("valid RFC 2396 references", t.rfc2396_valid),
            ("with findings", t.with_findings),
            ("with a suspected parser defect", t.defects),
            ("with a host confusion", t.host_confusions),
        ];
        for (label, n) in rows {
            writeln!(out, "<tr><th>{label}</th><td class=\"n\">{n}</td></tr>")?;
        }
        for (severity, n) in t.by_severity.iter().rev() {
            writeln!(
                out,
                "<tr><th>highest severity <span class=\"{severity}\">{severity}</span></th><td class=\"n\">{n}</td></tr>"
            )?;
        }
        writeln!(
            out,
            "<tr class=\"{}\"><th>unexplained</th><td class=\"n\">{}</td></tr>\n</table>",
            if t.unexplained > 0 { "bad" } else { "" },
            t.unexplained
        )?;

        writeln!(out, "<h2>Unexplained</h2>")?;
        if self.unexplained.is_empty() {
            writeln!(out, "<p>None: every disagreement has a class.</p>")?;
        } else {
            writeln!(
                out,
                "<table>\n<tr><th>input</th><th>source</th><th>what is unexplained</th></tr>"
            )?;
            for c in &self.unexplained {
                writeln!(
                    out,
                    "<tr class=\"bad\"><td><code>{}</code></td><td><code>{}</code></td><td>{}</td></tr>",
                    html(&c.input),
                    html(&c.source),
                    html(&c.unexplained.join("; "))
                )?;
            }
            writeln!(out, "</table>")?;
        }

        writeln!(
            out,
            "<h2>Host confusions per parser pair</h2>\n<table>\n<tr><th>parsers</th><th>inputs</th><th>same address, other spelling</th><th>shortest example</th><th>hosts</th></tr>"
        )?;
        let host = |h: &Option<String>| h.as_deref().map_or_else(|| "none".to_owned(), html);
        for p in &self.pairs {
            writeln!(
                out,
                "<tr><td>{} / {}</td><td class=\"n\">{}</td><td class=\"n\">{}</td><td><code>{}</code></td><td><code>{}</code> vs <code>{}</code></td></tr>",
                p.oracles[0],
                p.oracles[1],
                p.count,
                p.same_address,
                html(&p.example.0),
                host(&p.example.1[0]),
                host(&p.example.1[1])
            )?;
        }
        writeln!(out, "</table>")?;
        writeln!(
            out,
            "<h2>Findings by class and oracle</h2>\n<table>\n<tr><th>class</th><th>basis</th><th>oracle</th><th>severity</th><th>inputs</th></tr>"
        )?;
        for c in &self.counts {
            writeln!(
                out,
                "<tr><td><code>{}</code></td><td>{}</td><td>{}</td><td class=\"{}\">{}</td><td class=\"n\">{}</td></tr>",
                c.class, c.basis, c.oracle, c.severity, c.severity, c.count
            )?;
        }
        writeln!(out, "</table>\n<h2>Shortest examples per class</h2>")?;
        for (class, lines) in &self.examples {
            writeln!(out, "<h3><code>{class}</code></h3>\n<ul>")?;
            for l in lines {
                writeln!(
                    out,
                    "<li><code>{}</code> <small>{}</small></li>",
                    html(&l.input),
                    html(&l.labels())
                )?;
            }
            writeln!(out, "</ul>")?;
        }
        if !self.non_utf8.is_empty() || !self.not_checked.is_empty() {
            writeln!(out, "<h2>Inputs not checked</h2>\n<ul>")?;
            for s in &self.non_utf8 {
                writeln!(out, "<li><code>{}</code>: not UTF-8</li>", html(s))?;
            }
            for (s, why) in &self.not_checked {
                writeln!(out, "<li><code>{}</code>: {}</li>", html(s), html(why))?;
            }
            writeln!(out, "</ul>")?;
        }
        writeln!(out, "</body>\n</html>")
    }
}

/// Escapes text for HTML, showing control characters as escapes and cutting
/// very long inputs.
fn html(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for (i, c) in s.chars().enumerate() {
        if i == 300 {
            out.push_str(&format!("… ({} bytes)", s.len()));
            break;
        }
        match c {
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '&' => out.push_str("&amp;"),
            '"' => out.push_str("&quot;"),
            c if c.is_control() => out.extend(c.escape_default()),
            c => out.push(c),
        }
    }
    out
}
