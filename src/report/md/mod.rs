//! The Markdown report: a summary, then what a person acts on first:
//! suspected parser defects, host confusions per parser pair, then spec
//! differences, each sorted by severity and count, each signature with its
//! effect, its shortest example, where it came from and how to reproduce it.

mod bypass;

use std::io::{self, Write};
use std::path::Path;

pub use self::bypass::bypass_section;
use super::{Example, Group, Report};
use crate::text::{Reader, is_hidden, reproduce, visible};
use crate::triage::{Basis, DecidedBy};

/// How many characters of a value a table shows.
const SHOWN_CHARS: usize = 200;

/// How an empty value is shown: no code span is empty, and one holding a
/// space would read as the input " ".
const EMPTY: &str = "(empty)";

/// `text` as one CommonMark code span (section 6.1): fenced by a backtick
/// run longer than any inside it, so nothing in it can close the span, and
/// padded with a space on each side when it begins or ends with a backtick
/// or with a space (the one space a renderer strips from each side).
/// `text` must hold no line ending (a span does not cross a table row).
pub(crate) fn code_span(text: &str) -> String {
    if text.is_empty() {
        return EMPTY.to_owned();
    }
    let longest = text.split(|c| c != '`').map(str::len).max().unwrap_or(0);
    let fence = "`".repeat(longest + 1);
    let pad = text.starts_with('`')
        || text.ends_with('`')
        || (text.starts_with(' ')
            && text.ends_with(' ')
            && !text.trim_start_matches(' ').is_empty());
    if pad {
        format!("{fence} {text} {fence}")
    } else {
        format!("{fence}{text}{fence}")
    }
}

/// A code span in a table cell: GitHub-Flavored Markdown splits a row at
/// every `|` not escaped with `\`, code spans included, and removes that
/// backslash.
fn in_cell(span: &str) -> String {
    span.replace('|', "\\|")
}

/// Shows text in a table cell: hidden characters escaped ([`visible`]),
/// very long text cut (the reproduce command beside it is whole), as a code
/// span with `|` escaped.
pub fn code(s: &str) -> String {
    let shown = visible(s);
    let mut cut: String = shown.chars().take(SHOWN_CHARS).collect();
    if cut.len() < shown.len() {
        cut.push_str(&format!("… ({} bytes)", s.len()));
    }
    in_cell(&code_span(&cut))
}

/// Shows text outside a table (a list item): as [`code`], but whole and
/// with `|` as it is.
fn code_line(s: &str) -> String {
    code_span(&visible(s))
}

/// The command a person pastes to reproduce `e`, whole and as it is: it
/// holds no hidden character ([`Reader::Person`]), so it is shown exactly.
fn command(e: &Example) -> String {
    let cmd = reproduce(
        &e.input,
        e.base.as_deref(),
        Some(Path::new(&e.source)),
        Reader::Person,
    );
    // A person's command has none; should one ever appear, show it
    // escaped rather than let it act on the page.
    let shown = if cmd.chars().any(is_hidden) {
        visible(&cmd)
    } else {
        cmd
    };
    in_cell(&code_span(&shown))
}

fn example_cell(e: &Example) -> String {
    match &e.base {
        Some(base) => format!("{} against {}", code(&e.input), code(base)),
        None => code(&e.input),
    }
}

fn host(h: &Option<String>) -> String {
    h.as_deref().map_or_else(|| "none".to_owned(), code)
}

fn groups(out: &mut impl Write, groups: &[&Group]) -> io::Result<()> {
    writeln!(
        out,
        "| severity | signature | inputs | effect (shortest example) | example | source | reproduce |\n|---|---|---:|---|---|---|---|"
    )?;
    for g in groups {
        let Some(e) = g.examples.first() else {
            continue;
        };
        writeln!(
            out,
            "| {} | {} | {} | {} | {} | {} | {} |",
            g.severity,
            code(&g.signature.to_string()),
            g.count,
            code(&g.effect),
            example_cell(e),
            code(&e.source),
            command(e)
        )?;
    }
    writeln!(out)
}

/// The defect table: new signatures first, then known ones, each with
/// the reference that decided it.
fn defect_groups(out: &mut impl Write, groups: &[&Group]) -> io::Result<()> {
    writeln!(
        out,
        "| severity | signature | decided by | known | inputs | effect (shortest example) | example | source | reproduce |\n|---|---|---|---|---:|---|---|---|---|"
    )?;
    let (new, known): (Vec<&&Group>, Vec<&&Group>) = groups.iter().partition(|g| g.known.is_none());
    for g in new.into_iter().chain(known) {
        let Some(e) = g.examples.first() else {
            continue;
        };
        let decided = match &g.decided_by {
            None => "-".to_owned(),
            Some(DecidedBy::Undecided) => "nothing (undecided)".to_owned(),
            Some(DecidedBy::Reference(id)) => code(id.as_str()),
            Some(DecidedBy::Majority(ids)) => format!(
                "majority: {}",
                ids.iter()
                    .map(|id| code(id.as_str()))
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
        };
        let known = g.known.as_ref().map_or_else(
            || "new".to_owned(),
            |k| format!("known: {}", code(k.source)),
        );
        writeln!(
            out,
            "| {} | {} | {} | {} | {} | {} | {} | {} | {} |",
            g.severity,
            code(&g.signature.to_string()),
            decided,
            known,
            g.count,
            code(&g.effect),
            example_cell(e),
            code(&e.source),
            command(e)
        )?;
    }
    writeln!(out)
}

/// Writes the Markdown report.
pub fn write(report: &Report, out: &mut impl Write) -> io::Result<()> {
    summary(report, out)?;
    notices(report, out)?;
    unexplained(report, out)?;
    root_causes(report, out)?;
    defects(report, out)?;
    host_confusions(report, out)?;
    if let Some(matrix) = &report.bypass {
        bypass_section(out, matrix)?;
    }
    spec_differences(report, out)?;
    not_checked(report, out)?;
    root_causes_per_parser(report, out)
}

/// The last section, what a campaign's reader wants first: per parser, the
/// root causes of its defects, new ones (to report upstream) before those
/// the ledger knows, with how many inputs show each.
fn root_causes_per_parser(report: &Report, out: &mut impl Write) -> io::Result<()> {
    let causes = report.root_causes();
    writeln!(out, "## Root causes per parser\n")?;
    if causes.is_empty() {
        writeln!(out, "None: no parser defect.")?;
        return Ok(());
    }
    let mut parsers: Vec<_> = causes.iter().map(|c| c.oracle).collect();
    parsers.sort();
    parsers.dedup();
    writeln!(
        out,
        "| parser | new (to report upstream) | known (ledger status) |\n|---|---|---|"
    )?;
    for parser in parsers {
        let cell = |new: bool| {
            let items: Vec<String> = causes
                .iter()
                .filter(|c| c.oracle == parser && (c.root_cause.status == "new") == new)
                .map(|c| {
                    let status = if new {
                        String::new()
                    } else {
                        format!(", {}", c.root_cause.status)
                    };
                    let noun = if c.inputs == 1 { "input" } else { "inputs" };
                    format!("{} ({} {noun}{status})", code(&c.root_cause.id), c.inputs)
                })
                .collect();
            if items.is_empty() {
                "-".to_owned()
            } else {
                items.join("<br>")
            }
        };
        writeln!(out, "| {parser} | {} | {} |", cell(true), cell(false))?;
    }
    Ok(())
}

/// The title and the table of totals.
fn summary(report: &Report, out: &mut impl Write) -> io::Result<()> {
    let t = &report.totals;
    writeln!(out, "# uridiff disagreement report\n")?;
    writeln!(out, "## Summary\n")?;
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
        "| not checked (unreadable, too large or malformed) | {} |",
        report.not_checked.len()
    )?;
    writeln!(out, "| valid RFC 2396 references | {} |", t.rfc2396_valid)?;
    writeln!(out, "| with findings | {} |", t.with_findings)?;
    for (severity, n) in t.by_severity.iter().rev() {
        writeln!(out, "| highest severity {severity} | {n} |")?;
    }
    writeln!(out, "| with a suspected parser defect | {} |", t.defects)?;
    writeln!(out, "| with a host confusion | {} |", t.host_confusions)?;
    writeln!(out, "| signatures | {} |", report.groups.len())?;
    writeln!(out, "| **unexplained** | **{}** |\n", t.unexplained)?;
    Ok(())
}

/// The references that were missing and the external oracles that failed, if any.
fn notices(report: &Report, out: &mut impl Write) -> io::Result<()> {
    if !report.missing_references.is_empty() {
        writeln!(out, "## References missing\n")?;
        writeln!(
            out,
            "What they would decide is undecided: a peer disagreement of their standard blames nobody (`decided_by: null`).\n"
        )?;
        for e in &report.missing_references {
            writeln!(out, "- {}", code_line(e))?;
        }
        writeln!(out)?;
    }

    if !report.external_errors.is_empty() {
        writeln!(out, "## External oracles that failed\n")?;
        writeln!(
            out,
            "Their outcomes after the failure are missing (not compared).\n"
        )?;
        for e in &report.external_errors {
            writeln!(out, "- {}", code_line(e))?;
        }
        writeln!(out)?;
    }
    Ok(())
}

/// What no class explains: the inputs to look at first.
fn unexplained(report: &Report, out: &mut impl Write) -> io::Result<()> {
    writeln!(out, "## Unexplained\n")?;
    if report.unexplained.is_empty() {
        writeln!(out, "None: every disagreement has a class.\n")?;
    } else {
        writeln!(out, "| input | source | reproduce |\n|---|---|---|")?;
        for e in &report.unexplained {
            writeln!(
                out,
                "| {} | {} | {} |",
                example_cell(e),
                code(&e.source),
                command(e)
            )?;
        }
        writeln!(out)?;
    }
    Ok(())
}

/// One row per root cause, the new ones named first.
fn root_causes(report: &Report, out: &mut impl Write) -> io::Result<()> {
    writeln!(out, "## Root causes\n")?;
    let causes = report.root_causes();
    if causes.is_empty() {
        writeln!(out, "None: no parser defect.\n")?;
    } else {
        let new: Vec<&str> = causes
            .iter()
            .filter(|c| c.root_cause.status == "new")
            .map(|c| c.root_cause.id.as_str())
            .collect();
        if !new.is_empty() {
            writeln!(
                out,
                "**To report upstream** (no ledger row, or none found upstream): {}\n",
                new.iter().map(|id| code(id)).collect::<Vec<_>>().join(", ")
            )?;
        }
        writeln!(
            out,
            "One parser behaviour each (`testdata/ledger.tsv`); the defect signatures it explains are listed under it.\n"
        )?;
        writeln!(
            out,
            "| root cause | parser | status | upstream | signatures | inputs |\n|---|---|---|---|---|---:|"
        )?;
        for c in &causes {
            let signatures: Vec<String> = c
                .groups
                .iter()
                .map(|g| code(&g.signature.to_string()))
                .collect();
            writeln!(
                out,
                "| {} | {} | {} | {} | {} | {} |",
                code(&c.root_cause.id),
                c.oracle,
                c.root_cause.status,
                c.root_cause
                    .upstream
                    .as_deref()
                    .map_or_else(|| "none found".to_owned(), code),
                signatures.join("<br>"),
                c.inputs
            )?;
        }
        writeln!(out)?;
    }
    Ok(())
}

/// The defect signatures, new ones first.
fn defects(report: &Report, out: &mut impl Write) -> io::Result<()> {
    writeln!(out, "## Suspected parser defects\n")?;
    let defects: Vec<&Group> = report.groups_of(Basis::Defect).collect();
    if defects.is_empty() {
        writeln!(out, "None.\n")?;
    } else {
        writeln!(
            out,
            "A parser breaks its own standard: drops or invents input, accepts what it forbids, \
             changes its answer on its own output, or departs from its standard's reference \
             (alone, or where a peer of the same standard does not). New ones first; \
             a documented deviation is marked known.\n"
        )?;
        defect_groups(out, &defects)?;
    }
    Ok(())
}

/// Host confusions per parser pair.
fn host_confusions(report: &Report, out: &mut impl Write) -> io::Result<()> {
    writeln!(out, "## Host confusions per parser pair\n")?;
    if report.pairs.is_empty() {
        writeln!(out, "None: no two accepting parsers saw different hosts.\n")?;
    } else {
        writeln!(
            out,
            "| parsers | inputs | same address, other spelling | shortest example | hosts | reproduce |\n|---|---:|---:|---|---|---|"
        )?;
        for p in &report.pairs {
            writeln!(
                out,
                "| {} / {} | {} | {} | {} | {} vs {} | {} |",
                p.oracles[0],
                p.oracles[1],
                p.count,
                p.same_address,
                example_cell(&p.example),
                host(&p.hosts[0]),
                host(&p.hosts[1]),
                command(&p.example)
            )?;
        }
        writeln!(out)?;
    }
    Ok(())
}

/// The spec difference signatures.
fn spec_differences(report: &Report, out: &mut impl Write) -> io::Result<()> {
    writeln!(out, "## Spec differences\n")?;
    let spec: Vec<&Group> = report.groups_of(Basis::Spec).collect();
    if spec.is_empty() {
        writeln!(out, "None.\n")?;
    } else {
        groups(out, &spec)?;
    }
    Ok(())
}

/// The inputs that were not checked, and why.
fn not_checked(report: &Report, out: &mut impl Write) -> io::Result<()> {
    let t = &report.totals;
    if !report.non_utf8.is_empty() || !report.not_checked.is_empty() {
        writeln!(out, "## Inputs not checked\n")?;
        for s in &report.non_utf8 {
            writeln!(out, "- {}: not UTF-8", code_line(s))?;
        }
        if t.non_utf8 > report.non_utf8.len() {
            writeln!(
                out,
                "- … and {} more that are not UTF-8",
                t.non_utf8 - report.non_utf8.len()
            )?;
        }
        for (s, why) in &report.not_checked {
            writeln!(out, "- {}: {}", code_line(s), code_line(why))?;
        }
        writeln!(out)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn code_spans_are_fenced_longer_than_any_backtick_run_inside() {
        assert_eq!(code_span("a"), "`a`");
        assert_eq!(code_span("a``b"), "```a``b```");
        assert_eq!(code_span("`a"), "`` `a ``");
        assert_eq!(code_span("a```"), "```` a``` ````");
        assert_eq!(code_span(" a "), "`  a  `");
        assert_eq!(code_span("  "), "`  `");
        assert_eq!(code_span(""), EMPTY);
    }

    #[test]
    fn cells_escape_pipes_and_cut_long_values_but_not_commands() {
        assert_eq!(code("a|b"), "`a\\|b`");
        let long = "x".repeat(300);
        assert!(code(&long).ends_with("… (300 bytes)`"));
        let e = Example {
            input: long.clone(),
            base: None,
            source: "nowhere".into(),
            reproduce: String::new(),
            case: serde_json::Value::Null,
        };
        assert_eq!(command(&e), format!("`uridiff check -- {long}`"));
    }
}
