//! `uridiff check`: one input through every oracle, side by side.

use std::io::{self, Write};
use std::sync::mpsc;

use uridiff::components::{Component, component_name};
use uridiff::diff::diff;
use uridiff::oracle::{Outcome, Verdict};
use uridiff::{Case, Harness};

use super::error::{Failure, Status, diagnostic};
use super::io::{read_file, stdin_lines};
use super::text::visible;

#[derive(Debug, clap::Args)]
pub(crate) struct Args {
    /// One JSON object per input per line instead of the table.
    #[arg(long)]
    json: bool,
    /// Resolve each input as a reference against BASE, each parser with its
    /// own algorithm, and compare the resolved URIs (the hosts a request
    /// would go to).
    #[arg(long, value_name = "BASE", conflicts_with = "base_file")]
    base: Option<String>,
    /// Read BASE from this file (standard input for `-`), byte for byte:
    /// for a base no argument can carry (one that holds a NUL).
    #[arg(long, value_name = "PATH")]
    base_file: Option<std::path::PathBuf>,
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
    write_grid(out, case, reference)?;
    write_findings(out, case)?;
    write_hosts(out, case)?;
    for (id, outcome) in &case.outcomes {
        if let Some(message) = &outcome.message {
            writeln!(out, "  {id}: {}", visible(message))?;
        }
    }
    Ok(())
}

/// The grid: one row per field (the verdict first), one column per oracle,
/// columns as wide as their widest cell.
fn write_grid(out: &mut impl Write, case: &Case<'_>, reference: &Outcome<'_>) -> io::Result<()> {
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
    Ok(())
}

/// The findings, one line each, with the documented deviation a known one
/// is.
fn write_findings(out: &mut impl Write, case: &Case<'_>) -> io::Result<()> {
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
            if let Some(k) = f.known.and_then(uridiff::known::by_id) {
                writeln!(out, "  {:<22} known: {} ({})", "", k.id, k.source)?;
            }
        }
    }
    Ok(())
}

/// The references that could not answer, and the host confusions.
fn write_hosts(out: &mut impl Write, case: &Case<'_>) -> io::Result<()> {
    // A reference that was needed and could not answer, said once.
    for (id, o) in case.outcomes.iter().filter(|(id, _)| id.is_reference()) {
        if o.is_missing() {
            writeln!(
                out,
                "reference {id} missing: {}",
                visible(o.message.as_deref().unwrap_or("no answer"))
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
    Ok(())
}

/// One input to check, or a line that is none.
enum Next {
    Input(String),
    NotUtf8 { line: usize, reason: String },
}

fn stdin_next(r: io::Result<(usize, Result<String, String>)>) -> io::Result<Next> {
    r.map(|(line, text)| match text {
        Ok(t) => Next::Input(t),
        Err(reason) => Next::NotUtf8 { line, reason },
    })
}

/// Where inputs come from, a batch at a time.
enum Source {
    /// Arguments, a file, or standard input read as it is asked for.
    Iter(Box<dyn Iterator<Item = io::Result<Next>>>),
    /// Standard input read by a thread as lines arrive: a batch is what has
    /// arrived (at least one line), so external oracles answer an
    /// interactive user line by line and a pipe in full batches.
    Background(mpsc::Receiver<io::Result<Next>>),
}

impl Source {
    fn stdin_in_background(batch: usize) -> Source {
        let (lines, received) = mpsc::sync_channel(batch);
        // The thread ends with standard input, or when nobody listens; the
        // process does not wait for it.
        let _ = std::thread::Builder::new()
            .name("stdin".into())
            .spawn(move || {
                for next in stdin_lines().map(stdin_next) {
                    if lines.send(next).is_err() {
                        break;
                    }
                }
            });
        Source::Background(received)
    }

    /// Appends up to `max` inputs to `batch`; none at the end of input.
    fn next_batch(&mut self, max: usize, batch: &mut Vec<Next>) -> io::Result<()> {
        match self {
            Source::Iter(items) => {
                for next in items.by_ref().take(max) {
                    batch.push(next?);
                }
            }
            Source::Background(received) => {
                let Ok(first) = received.recv() else {
                    return Ok(());
                };
                batch.push(first?);
                while batch.len() < max {
                    match received.try_recv() {
                        Ok(next) => batch.push(next?),
                        Err(_) => break,
                    }
                }
            }
        }
        Ok(())
    }
}

pub(crate) fn run(args: &Args) -> Result<Status, Failure> {
    let base = super::io::base(
        args.base.as_deref(),
        args.base_file.as_deref(),
        args.file.as_deref(),
    )?;
    let externals = super::externals::start_if_asked(&args.externals).map_err(Failure::Usage)?;
    let mut builder = Harness::builder()
        .base(base.as_deref())
        .annotate(true)
        .whatwg_reference(args.externals.timeout());
    if let Some(externals) = externals {
        builder = builder.externals(Box::new(externals));
    }
    let mut harness = builder.build();
    // Arguments, a file, or standard input line by line.
    let from_stdin = args.file.is_none() && args.inputs.is_empty();
    let batch = harness.batch_size();
    let mut source = if let Some(path) = &args.file {
        Source::Iter(Box::new(std::iter::once(Ok(match read_file(path)? {
            Ok(text) => Next::Input(text),
            Err(reason) => Next::NotUtf8 { line: 1, reason },
        }))))
    } else if !from_stdin {
        Source::Iter(Box::new(
            args.inputs.clone().into_iter().map(|i| Ok(Next::Input(i))),
        ))
    } else if batch > 1 {
        Source::stdin_in_background(batch)
    } else {
        Source::Iter(Box::new(stdin_lines().map(stdin_next)))
    };
    let mut out = io::BufWriter::new(super::io::stdout());
    let mut status = Status::Clean;
    let mut printed = 0usize;
    let mut read = 0usize;
    let mut pending: Vec<Next> = Vec::new();
    loop {
        pending.clear();
        source.next_batch(batch, &mut pending)?;
        if pending.is_empty() {
            break;
        }
        read += pending.len();
        let texts: Vec<&str> = pending
            .iter()
            .filter_map(|n| match n {
                Next::Input(t) => Some(t.as_str()),
                Next::NotUtf8 { .. } => None,
            })
            .collect();
        let mut cases = harness.check_batch(&texts).into_iter();
        for next in &pending {
            if let Next::NotUtf8 { line, reason } = next {
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
            let Some(case) = cases.next() else {
                break;
            };
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
    for error in harness.finish() {
        diagnostic(error);
        status = Status::Error;
    }
    if printed == 0 {
        super::io::nothing_checked(read);
        return Ok(Status::Error);
    }
    Ok(status)
}
