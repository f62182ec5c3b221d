//! `uridiff report`: replay a corpus and write a disagreement report.

use std::fs;
use std::io::{self, BufRead, BufReader, BufWriter, Seek, Write};
use std::path::{Path, PathBuf};

use indicatif::{ProgressBar, ProgressStyle};
use uridiff::Harness;
use uridiff::fuzzing::{CorpusFormat, FuzzTarget};
use uridiff::report::read::{Layout, read_into};
use uridiff::report::{Builder, Report, html, jsonl, md};

use super::error::{Failure, Status, diagnostic};
use super::io::{Labeled, Output, not_a_file, spool, stdout};
use super::text::path as shown_path;

#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub(crate) enum Format {
    /// Markdown.
    Md,
    /// JSON Lines: a summary, then one object per distinct input (in the
    /// order read), then one per input not checked.
    Jsonl,
    /// One self-contained HTML page.
    Html,
}

#[derive(Debug, clap::Args)]
pub(crate) struct Args {
    /// Report format.
    #[arg(long, value_enum, default_value_t = Format::Md)]
    format: Format,
    /// Write the report here (atomically: a temporary file renamed into
    /// place) instead of standard output.
    #[arg(long, value_name = "PATH")]
    out: Option<PathBuf>,
    /// Read files as one input per line instead of one input per file
    /// (libFuzzer corpus format).
    #[arg(long, conflicts_with = "structured")]
    lines: bool,
    /// Decode each file as a `structured` fuzz-target input (an arbitrary
    /// URI model) and report on the URI it renders (`--target structured`).
    #[arg(long, conflicts_with = "target")]
    structured: bool,
    /// Decode each file as a corpus file of this fuzz target (`uridiff
    /// targets` lists them): `resolve` and `resolve-differential` files are
    /// (base, reference) pairs, `structured` files URI models, `curl_url`
    /// files a URL or a base and a reference split at a NUL.
    #[arg(long, value_name = "NAME", conflicts_with_all = ["lines", "pairs"])]
    target: Option<FuzzTarget>,
    /// Resolve every input as a reference against BASE, each parser with its
    /// own algorithm, and report on the resolved URIs.
    #[arg(long, value_name = "BASE", conflicts_with = "pairs")]
    base: Option<String>,
    /// Read files as one pair per line, `BASE<TAB>REFERENCE` (split at the
    /// first TAB), and resolve each reference against its base (implies
    /// --lines). A line without a TAB is listed as not checked.
    #[arg(long, conflicts_with = "structured")]
    pairs: bool,
    /// Confirm the Bypasses section's cells with real HTTP clients on
    /// loopback, as `uridiff bypass --confirm` does (allowed.example on
    /// 127.0.0.2, evil.example on 127.0.0.3, mapped in each client's own
    /// resolver hook; nothing outside loopback is dialled).
    #[arg(long)]
    confirm: bool,
    /// Observe the Bypasses section's cells (the default): its candidates
    /// go through the real clients of each fetcher's parser in a network
    /// namespace where only loopback exists (as root, as `uridiff bypass`
    /// does); a cell is a bypass only where a client was observed reaching
    /// evil.example. Where no namespace can be entered the section keeps
    /// the model's cells and says they were not observed. Kept for the
    /// command lines that gave it before it was the default.
    #[arg(long, conflicts_with_all = ["confirm", "model"])]
    observe: bool,
    /// Keep the Bypasses section's cells as the parser model predicts
    /// them, sending nothing (a report that is the same on every machine,
    /// for regression files).
    #[arg(long, conflicts_with = "confirm")]
    model: bool,
    #[command(flatten)]
    externals: super::externals::ExternalArgs,
    /// Corpus directories (read recursively) or files.
    #[arg(required = true, value_name = "PATH")]
    paths: Vec<PathBuf>,
}

/// The files under `paths`, sorted, or the first path that does not exist.
///
/// A corpus directory is walked without following symbolic links: a corpus
/// from a pull request or a download may hold a link to
/// `/proc/self/environ` or `~/.ssh`, and the report would quote what it
/// points at. A link is read only when its target is a file inside the
/// directory given; any other link is listed as not checked, never opened.
fn files(paths: &[PathBuf], not_checked: &mut Vec<(String, String)>) -> io::Result<Vec<PathBuf>> {
    let mut files = Vec::new();
    for path in paths {
        let meta = fs::metadata(path).map_err(|e| {
            io::Error::new(e.kind(), format!("cannot read {}: {e}", path.display()))
        })?;
        if meta.is_file() {
            files.push(path.clone());
            continue;
        }
        if !meta.is_dir() {
            not_checked.push(not_a_file(path));
            continue;
        }
        let inside = fs::canonicalize(path)?;
        for entry in walkdir::WalkDir::new(path)
            .follow_links(false)
            .sort_by_file_name()
        {
            match entry {
                Ok(e) if e.file_type().is_file() => files.push(e.into_path()),
                Ok(e) if e.file_type().is_dir() => {}
                Ok(e) if e.path_is_symlink() => match link_in(e.path(), &inside) {
                    Ok(()) => files.push(e.into_path()),
                    Err(why) => not_checked.push((e.path().display().to_string(), why)),
                },
                Ok(e) => not_checked.push(not_a_file(e.path())),
                Err(e) => {
                    let where_ = e
                        .path()
                        .map_or_else(|| path.display().to_string(), |p| p.display().to_string());
                    not_checked.push((where_, format!("unreadable: {e}")));
                }
            }
        }
    }
    files.sort();
    files.dedup();
    Ok(files)
}

/// Whether the symbolic link `link` may be read as a corpus file: its
/// target, all links resolved, is a regular file under `inside` (a
/// canonical directory); else why it is not read.
fn link_in(link: &Path, inside: &Path) -> Result<(), String> {
    let target = fs::canonicalize(link)
        .map_err(|e| format!("a symbolic link whose target cannot be read ({e}): not read"))?;
    if !target.starts_with(inside) {
        // Named as the link says (`/proc/self/environ`), not resolved.
        let written = fs::read_link(link).unwrap_or(target);
        return Err(format!(
            "a symbolic link that leaves the corpus (to {}): not read",
            written.display()
        ));
    }
    match fs::metadata(&target) {
        Ok(m) if m.is_file() => Ok(()),
        // A link to a directory inside is walked already, or would loop.
        Ok(m) if m.is_dir() => Err("a symbolic link to a directory: not followed".to_owned()),
        _ => Err(format!(
            "a symbolic link to {}, which is no regular file: not read",
            target.display()
        )),
    }
}

fn write_report(
    report: &Report,
    format: Format,
    spool: Option<&mut fs::File>,
    out: &mut impl Write,
) -> io::Result<()> {
    match format {
        Format::Md => md::write(report, out),
        Format::Html => html::write(report, out),
        Format::Jsonl => {
            let mut empty = io::empty();
            let mut spooled;
            let source: &mut dyn BufRead = match spool {
                Some(file) => {
                    file.rewind()?;
                    spooled = BufReader::new(file);
                    &mut spooled
                }
                None => &mut empty,
            };
            jsonl::write(report, source, out)
        }
    }
}

pub(crate) fn run(args: &Args, sandbox: super::fetch::Sandbox) -> Result<Status, Failure> {
    let mut walk = Vec::new();
    let files = files(&args.paths, &mut walk)?;
    // Refuse a bad --out (or one that is an input) before reading anything.
    let output = args
        .out
        .as_deref()
        .map(|path| Output::prepare(path, &files))
        .transpose()?;
    let walk_errors = walk.len();
    for (path, why) in &walk {
        diagnostic(format_args!("{path}: {why}"));
    }
    let mut harness = start_harness(args)?;
    // JSON Lines go to a spool as inputs are checked: the summary, which
    // comes first, is known only at the end.
    let (mut spool, mut spool_writer) = match args.format {
        Format::Jsonl => {
            let file = spool(output.as_ref(), "the JSON Lines report")?;
            let what = "the temporary file that holds the JSON Lines report";
            (
                Some(file.try_clone()?),
                Some(BufWriter::new(Labeled::new(file, what))),
            )
        }
        _ => (None, None),
    };
    let mut builder = match spool_writer.as_mut() {
        Some(w) => Builder::with_jsonl(w),
        None => Builder::new(),
    };
    for (path, why) in walk {
        builder.not_checked(path, why);
    }
    // indicatif hides the bar when stderr is not a terminal.
    let bar = ProgressBar::new_spinner();
    if let Ok(style) = ProgressStyle::with_template("{spinner} checked {pos} inputs ({per_sec})") {
        bar.set_style(style);
    }
    let reading = read_into(
        &files,
        &layout(args),
        args.base.as_deref(),
        &mut builder,
        &mut harness,
        &mut || bar.inc(1),
        &mut |warning| diagnostic(warning),
    )?;
    bar.finish_and_clear();
    let confirm_failed = bypass_section(args, &mut harness, &mut builder, sandbox);
    builder.missing_references(harness.missing_references());
    let external_errors = harness.finish();
    for error in &external_errors {
        diagnostic(error);
        builder.external_error(error.clone());
    }
    let report = builder.finish();
    if let Some(w) = spool_writer {
        w.into_inner().map_err(io::IntoInnerError::into_error)?;
    }
    deliver(&report, args.format, output, spool.as_mut())?;
    Ok(status(
        &report,
        args,
        reading.failed + reading.too_large + walk_errors,
        confirm_failed,
    ))
}

/// Writes the report to `--out` (and says so on standard output) or to
/// standard output.
fn deliver(
    report: &Report,
    format: Format,
    output: Option<Output>,
    spool: Option<&mut fs::File>,
) -> Result<(), Failure> {
    let t = &report.totals;
    match output {
        Some(output) => {
            let path = shown_path(output.path());
            output.write(|w| write_report(report, format, spool, w))?;
            writeln!(
                stdout(),
                "report written to {path}: {} inputs ({} distinct), {} with findings, {} unexplained, {} not UTF-8, {} not checked",
                t.inputs,
                t.distinct,
                t.with_findings,
                t.unexplained,
                t.non_utf8,
                report.not_checked.len()
            )?;
        }
        None => {
            let mut out = BufWriter::new(stdout());
            write_report(report, format, spool, &mut out)?;
            out.flush()?;
        }
    }
    Ok(())
}

/// The exit status: an error when nothing was checked or something failed
/// (`failures`: inputs unread, too large, paths that could not be walked),
/// else whether anything is unexplained.
fn status(report: &Report, args: &Args, failures: usize, confirm_failed: bool) -> Status {
    let t = &report.totals;
    if t.distinct == 0 {
        diagnostic(format_args!(
            "nothing was checked: {} inputs read in {} path(s), {} not UTF-8, {} not checked",
            t.inputs,
            args.paths.len(),
            t.non_utf8,
            report.not_checked.len()
        ));
        return Status::Error;
    }
    if failures > 0 || !report.external_errors.is_empty() || confirm_failed {
        return Status::Error;
    }
    if t.unexplained > 0 {
        Status::Found
    } else {
        Status::Clean
    }
}

/// The harness a report checks with: annotated, with the WHATWG reference
/// (started now, so that Node's start overlaps the first checks: a report
/// of more than a few inputs needs it) and the external oracles asked for.
/// Bases come with each item (`--base`, or a pair's own).
fn start_harness(args: &Args) -> Result<Harness<'static>, Failure> {
    let externals = super::externals::start_if_asked(&args.externals).map_err(Failure::Usage)?;
    let mut harness = Harness::builder()
        .annotate(true)
        .whatwg_reference(args.externals.timeout());
    if let Some(externals) = externals {
        harness = harness.externals(Box::new(externals));
    }
    let mut harness = harness.build();
    harness.prestart();
    Ok(harness)
}

/// How the paths are read: pairs, lines, or one input per file in the
/// format of a fuzz target's corpus.
fn layout(args: &Args) -> Layout {
    if args.pairs {
        Layout::Pairs
    } else if args.lines {
        Layout::Lines
    } else if args.structured {
        Layout::PerFile(CorpusFormat::Structured)
    } else {
        Layout::PerFile(
            args.target
                .map_or(CorpusFormat::Reference, FuzzTarget::format),
        )
    }
}

/// The bypass section: the report's own host confusions and the built-in
/// seeds made templates, checked by the same oracles, confirmed on
/// loopback with `--confirm`, left as the model's predictions with
/// `--model`, else observed through the real clients (issue "Where the
/// request really goes": a parser's reading predicts a request, a client
/// makes it). Whether a confirmation or a client failed.
fn bypass_section(
    args: &Args,
    harness: &mut Harness,
    builder: &mut Builder<'_>,
    sandbox: super::fetch::Sandbox,
) -> bool {
    let observing = !args.model && !args.confirm;
    let mut matrix =
        uridiff::bypass::report_matrix_with(harness, builder.bypass_templates(), observing);
    let mut confirm_failed = false;
    if args.confirm {
        let summary = uridiff::bypass::confirm::confirm(
            &mut matrix,
            uridiff::bypass::confirm::Budget::default(),
        );
        for e in summary.not_confirmable.iter().chain(&summary.errors) {
            diagnostic(format_args!("--confirm: {e}"));
            confirm_failed = true;
        }
    }
    if observing {
        let unobserved = match sandbox {
            super::fetch::Sandbox::Unavailable(why) => {
                Some(format!("no network namespace ({why})"))
            }
            sandbox => super::bypass::observe_report(&mut matrix, OBSERVE_BUDGET, sandbox)
                .map(|failed| confirm_failed |= failed)
                .err()
                .map(|e| e.to_string()),
        };
        // The report is still written: its section says the cells are the
        // model's, not observations, and standard error says why.
        if let Some(why) = unobserved {
            diagnostic(format_args!(
                "report: the Bypasses section is not observed: {why}; its cells are the parser model's predictions (run as root to observe, or give --model)"
            ));
            matrix.observation = uridiff::bypass::Confirmation::DidNotRun(why);
        }
    }
    builder.bypass(matrix);
    confirm_failed
}

/// The most requests an observed report sends: above what the built-in
/// seeds' matrix needs (1638 for `bypass --oracle all`).
const OBSERVE_BUDGET: usize = 10_000;
