//! The Markdown report: a summary, then what a person acts on first:
//! suspected parser defects, host confusions per parser pair, then spec
//! differences, each sorted by severity and count, each signature with its
//! effect, its shortest example, where it came from and how to reproduce it.

use std::io::{self, Write};

use super::{Example, Group, Report};
use crate::text::visible;
use crate::triage::Basis;

/// Shows text in Markdown inline code: hidden characters escaped
/// ([`visible`]), `|` escaped for tables, very long text cut.
pub fn code(s: &str) -> String {
    let mut shown: String = visible(s).chars().take(200).collect();
    if s.chars().count() > 200 {
        shown.push_str(&format!("… ({} bytes)", s.len()));
    }
    let escaped = shown.replace('|', "\\|");
    if escaped.contains('`') {
        format!("`` {escaped} ``")
    } else {
        format!("`{escaped}`")
    }
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
            "| {} | `{}` | {} | {} | {} | {} | {} |",
            g.severity,
            g.signature,
            g.count,
            code(&g.effect),
            example_cell(e),
            code(&e.source),
            code(&e.reproduce)
        )?;
    }
    writeln!(out)
}

/// Writes the Markdown report.
pub fn write(report: &Report, out: &mut impl Write) -> io::Result<()> {
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

    if !report.external_errors.is_empty() {
        writeln!(out, "## External oracles that failed\n")?;
        writeln!(
            out,
            "Their outcomes after the failure are missing (not compared).\n"
        )?;
        for e in &report.external_errors {
            writeln!(out, "- {}", code(e))?;
        }
        writeln!(out)?;
    }

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
                code(&e.reproduce)
            )?;
        }
        writeln!(out)?;
    }

    writeln!(out, "## Suspected parser defects\n")?;
    let defects: Vec<&Group> = report.groups_of(Basis::Defect).collect();
    if defects.is_empty() {
        writeln!(out, "None.\n")?;
    } else {
        writeln!(
            out,
            "A parser breaks its own standard: drops or invents input, accepts what it forbids, \
             changes its answer on its own output, or disagrees with a peer of the same standard.\n"
        )?;
        groups(out, &defects)?;
    }

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
                code(&p.example.reproduce)
            )?;
        }
        writeln!(out)?;
    }

    writeln!(out, "## Spec differences\n")?;
    let spec: Vec<&Group> = report.groups_of(Basis::Spec).collect();
    if spec.is_empty() {
        writeln!(out, "None.\n")?;
    } else {
        groups(out, &spec)?;
    }

    if !report.non_utf8.is_empty() || !report.not_checked.is_empty() {
        writeln!(out, "## Inputs not checked\n")?;
        for s in &report.non_utf8 {
            writeln!(out, "- {}: not UTF-8", code(s))?;
        }
        if t.non_utf8 > report.non_utf8.len() {
            writeln!(
                out,
                "- … and {} more that are not UTF-8",
                t.non_utf8 - report.non_utf8.len()
            )?;
        }
        for (s, why) in &report.not_checked {
            writeln!(out, "- {}: {}", code(s), code(why))?;
        }
        writeln!(out)?;
    }
    Ok(())
}
