//! `uridiff check`: one input through every oracle, side by side.

use std::io::{self, Write};

use uridiff::components::{Component, component_name};
use uridiff::diff::diff;
use uridiff::oracle::Verdict;
use uridiff::{Case, check_with, check_with_base_and};

use super::error::{Failure, Status, diagnostic};
use super::io::{read_file, stdin_lines};
use super::text::visible;

#[derive(Debug, clap::Args)]
pub struct Args {
    /// One JSON object per input per line instead of the table.
    #[arg(long)]
    json: bool,
    /// Resolve each input as a reference against BASE, each parser with its
    /// own algorithm, and compare the resolved URIs (the hosts a request
    /// would go to).
    #[arg(long, value_name = "BASE")]
    base: Option<String>,
    #[command(flatten)]
    externals: super::externals::ExternalArgs,
    /// Check the bytes of this file as one input, exactly (NULs and a
    /// trailing newline included).
    #[arg(long, value_name = "PATH", conflicts_with = "inputs")]
    file: Option<std::path::PathBuf>,
    /// URI references to check; read one per line from standard input when
    /// none are given (each answered as soon as its line arrives; a line
    /// that is not UTF-8 is listed, not checked).
    inputs: Vec<String>,
}

/// A table cell: the value, `-` when absent, blank when not reported.
fn cell(case: &Case<'_>, column: usize, row: Option<Component>) -> String {
    let Some((_, outcome)) = case.outcomes.get(column) else {
        return String::new();
    };
    match row {
        None => outcome.verdict.as_str().to_owned(),
        Some(_) if outcome.verdict != Verdict::Accept => String::new(),
        Some(c) if !outcome.components.reported().contains(c) => "·".to_owned(),
        Some(c) => match outcome.components.get(c) {
            Some(v) => format!("\"{}\"", visible(&truncate(v, 40))),
            None => "-".to_owned(),
        },
    }
}

fn truncate(v: &str, max: usize) -> String {
    if v.chars().count() <= max {
        v.to_owned()
    } else {
        let head: String = v.chars().take(max - 1).collect();
        format!("{head}…")
    }
}

/// Writes the side-by-side table: one row per field, one column per oracle;
/// a cell that differs from rfc2396 is marked with `*`.
fn write_table(out: &mut impl Write, case: &Case<'_>) -> io::Result<()> {
    writeln!(out, "input: \"{}\"", visible(case.input))?;
    if let Some(base) = case.base {
        writeln!(
            out,
            "base:  \"{}\" (each column: the resolved URI)",
            visible(base)
        )?;
    }
    let Some((_, reference)) = case.outcomes.first() else {
        return Ok(());
    };
    let rows: Vec<Option<Component>> = std::iter::once(None)
        .chain(Component::ALL.into_iter().map(Some))
        .collect();
    let mut grid: Vec<Vec<String>> = Vec::new();
    let mut header = vec![String::new()];
    header.extend(case.outcomes.iter().map(|(id, _)| id.as_str().to_owned()));
    grid.push(header);
    for row in &rows {
        let mut line = vec![row.map_or("verdict", component_name).to_owned()];
        for (column, (_, outcome)) in case.outcomes.iter().enumerate() {
            let d = diff(reference, outcome);
            let marked = match row {
                None => d.verdict,
                Some(c) => d.fields.contains(*c),
            };
            let mut text = cell(case, column, *row);
            if marked {
                text.push_str(" *");
            }
            line.push(text);
        }
        grid.push(line);
    }
    let columns = grid.first().map_or(0, Vec::len);
    let widths: Vec<usize> = (0..columns)
        .map(|i| {
            grid.iter()
                .map(|r| r.get(i).map_or(0, |s| s.chars().count()))
                .max()
                .unwrap_or(0)
        })
        .collect();
    for line in &grid {
        let mut text = String::new();
        for (cell, width) in line.iter().zip(&widths) {
            text.push_str(&format!("{cell:<width$}  ", width = width));
        }
        writeln!(out, "  {}", text.trim_end())?;
    }
    if case.findings.is_empty() {
        writeln!(out, "findings: none (all oracles agree with rfc2396)")?;
    } else {
        writeln!(out, "findings:")?;
        for f in &case.findings {
            writeln!(
                out,
                "  {:<22} {:<6} {:<6} {:<10} {:<24} {}",
                f.class.id(),
                f.basis.as_str(),
                f.severity.as_str(),
                f.oracle.as_str(),
                f.field_names().join(","),
                visible(&case.effect(f))
            )?;
        }
    }
    if !case.host_confusions.is_empty() {
        writeln!(
            out,
            "host confusions (accepting parsers that see different hosts):"
        )?;
        for h in &case.host_confusions {
            let show = |host: &Option<String>| {
                host.as_deref()
                    .map_or_else(|| "none".to_owned(), |h| format!("\"{}\"", visible(h)))
            };
            writeln!(
                out,
                "  {:<10} {:<10} {} vs {}{}",
                h.oracles[0].as_str(),
                h.oracles[1].as_str(),
                show(&h.hosts[0]),
                show(&h.hosts[1]),
                if h.same_address {
                    "  (same address, other spelling)"
                } else {
                    ""
                }
            )?;
        }
    }
    for (id, outcome) in &case.outcomes {
        if let Some(message) = &outcome.message {
            writeln!(out, "  {id}: {}", visible(message))?;
        }
    }
    Ok(())
}

/// How many inputs go to the external oracles at a time.
const EXTERNAL_BATCH: usize = 512;

/// One input to check, or a line that is none.
enum Next {
    Input(String),
    NotUtf8 { line: usize, reason: String },
}

pub fn run(args: &Args) -> Result<Status, Failure> {
    let mut externals =
        super::externals::start_if_asked(&args.externals).map_err(Failure::Usage)?;
    // Arguments, a file, or standard input line by line.
    let mut from_stdin = false;
    let source: Box<dyn Iterator<Item = io::Result<Next>>> = if let Some(path) = &args.file {
        match read_file(path)? {
            Ok(text) => Box::new(std::iter::once(Ok(Next::Input(text)))),
            Err(reason) => Box::new(std::iter::once(Ok(Next::NotUtf8 { line: 1, reason }))),
        }
    } else if !args.inputs.is_empty() {
        Box::new(args.inputs.clone().into_iter().map(|i| Ok(Next::Input(i))))
    } else {
        from_stdin = true;
        Box::new(stdin_lines().map(|r| {
            r.map(|(line, text)| match text {
                Ok(t) => Next::Input(t),
                Err(reason) => Next::NotUtf8 { line, reason },
            })
        }))
    };
    // With external oracles, inputs go in batches; without, each is answered
    // as soon as it is read.
    let batch = if externals.is_some() {
        EXTERNAL_BATCH
    } else {
        1
    };
    let stdout = io::stdout();
    let mut out = io::BufWriter::new(stdout.lock());
    let mut status = Status::Clean;
    let mut printed = 0usize;
    let mut pending: Vec<Next> = Vec::new();
    let mut source = source.peekable();
    while source.peek().is_some() {
        pending.clear();
        while pending.len() < batch {
            match source.next() {
                Some(next) => pending.push(next?),
                None => break,
            }
        }
        let texts: Vec<&str> = pending
            .iter()
            .filter_map(|n| match n {
                Next::Input(t) => Some(t.as_str()),
                Next::NotUtf8 { .. } => None,
            })
            .collect();
        let mut extra = match externals.as_mut() {
            Some(e) => {
                let queries: Vec<_> = texts.iter().map(|t| (*t, args.base.as_deref())).collect();
                e.run(&queries)
            }
            None => Vec::new(),
        };
        extra.reverse();
        for next in &pending {
            let input = match next {
                Next::Input(t) => t,
                Next::NotUtf8 { line, reason } => {
                    // Fuzz corpora hold raw bytes: listed, not an error.
                    let label = if from_stdin {
                        format!("standard input line {line}")
                    } else {
                        "the file".to_owned()
                    };
                    if args.json {
                        let value = serde_json::json!({"line": line, "error": reason});
                        writeln!(out, "{value}")?;
                    } else {
                        writeln!(out, "{label}: {reason}: not checked")?;
                    }
                    continue;
                }
            };
            let own = extra.pop().unwrap_or_default();
            let mut case = match &args.base {
                Some(base) => check_with_base_and(base, input, own),
                None => check_with(input, own),
            };
            case.annotate();
            if case.has_unexplained() {
                status = status.max(Status::Found);
            }
            if args.json {
                serde_json::to_writer(&mut out, &case)?;
                writeln!(out)?;
            } else {
                if printed > 0 {
                    writeln!(out)?;
                }
                write_table(&mut out, &case)?;
            }
            printed += 1;
        }
        out.flush()?;
    }
    if let Some(externals) = externals {
        for error in externals.finish() {
            diagnostic(error.to_string());
            status = Status::Error;
        }
    }
    Ok(status)
}
