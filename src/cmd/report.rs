//! `uridiff report`: replay a corpus and write a disagreement report.

use std::fs;
use std::io::{self, BufRead, BufReader, BufWriter, Read, Seek, Write};
use std::path::PathBuf;

use indicatif::{ProgressBar, ProgressStyle};
use uridiff::report::{Builder, Item, Report, html, jsonl, md};

use super::error::{Failure, Status, diagnostic};
use super::io::{out_target, write_atomically};

/// The largest input checked; a larger file or line is listed as not checked.
const MAX_INPUT_BYTES: usize = 1 << 20;

#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    /// Markdown.
    Md,
    /// JSON Lines: a summary, then one object per distinct input (in the
    /// order read), then one per input not checked.
    Jsonl,
    /// One self-contained HTML page.
    Html,
}

#[derive(Debug, clap::Args)]
pub struct Args {
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
    /// URI model) and report on the URI it renders.
    #[arg(long)]
    structured: bool,
    /// Resolve every input as a reference against BASE, each parser with its
    /// own algorithm, and report on the resolved URIs.
    #[arg(long, value_name = "BASE", conflicts_with = "pairs")]
    base: Option<String>,
    /// Read files as one pair per line, `BASE<TAB>REFERENCE` (split at the
    /// first TAB), and resolve each reference against its base (implies
    /// --lines). A line without a TAB is listed as not checked.
    #[arg(long, conflicts_with = "structured")]
    pairs: bool,
    #[command(flatten)]
    externals: super::externals::ExternalArgs,
    /// Corpus directories (read recursively) or files.
    #[arg(required = true, value_name = "PATH")]
    paths: Vec<PathBuf>,
}

/// The files under `paths`, sorted, or the first path that does not exist.
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
            not_checked.push((
                path.display().to_string(),
                "not a regular file or directory (a device, FIFO or socket)".to_owned(),
            ));
            continue;
        }
        for entry in walkdir::WalkDir::new(path)
            .follow_links(true)
            .sort_by_file_name()
        {
            match entry {
                Ok(e) if e.file_type().is_file() => files.push(e.into_path()),
                Ok(_) => {}
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

/// How many inputs are read before they are checked together (and sent to
/// the external oracles as one batch).
const CHUNK: usize = 4096;

/// What reading the corpus found wrong, beside the inputs themselves.
#[derive(Debug, Default)]
struct Reading {
    /// Named paths (or lines) that could not be read or used.
    failed: usize,
    /// Inputs over the size limit.
    too_large: usize,
}

/// Reads every file (whole, or line by line) and feeds the builder in
/// chunks, so that memory holds one chunk of inputs, not the corpus.
fn read_into(
    files: &[PathBuf],
    args: &Args,
    builder: &mut Builder<'_>,
    extra: &mut uridiff::report::ExtraOutcomes<'_>,
    progress: &mut dyn FnMut(),
) -> io::Result<Reading> {
    let mut reading = Reading::default();
    let mut chunk: Vec<Item> = Vec::new();
    let mut flush = |chunk: &mut Vec<Item>, builder: &mut Builder<'_>| -> io::Result<()> {
        builder.add(std::mem::take(chunk), extra, progress)
    };
    for file in files {
        let name = file.display().to_string();
        let opened = fs::File::open(file);
        let mut reader = match opened {
            Ok(f) => BufReader::new(f),
            Err(e) => {
                diagnostic(format_args!("cannot read {name}: {e}"));
                builder.not_checked(name, format!("unreadable: {e}"));
                reading.failed += 1;
                continue;
            }
        };
        let per_line = args.lines || args.pairs;
        if !per_line {
            let mut bytes = Vec::new();
            let limit = (MAX_INPUT_BYTES + 1) as u64;
            if let Err(e) = reader.by_ref().take(limit).read_to_end(&mut bytes) {
                diagnostic(format_args!("cannot read {name}: {e}"));
                builder.not_checked(name, format!("unreadable: {e}"));
                reading.failed += 1;
                continue;
            }
            if bytes.len() > MAX_INPUT_BYTES {
                builder.not_checked(name, format!("over the {MAX_INPUT_BYTES}-byte input limit"));
                reading.too_large += 1;
                continue;
            }
            let bytes = if args.structured {
                match uridiff::fuzzing::render_structured(&bytes) {
                    Some(input) => input.into_bytes(),
                    None => {
                        builder.not_checked(name, "does not decode as a structured input".into());
                        continue;
                    }
                }
            } else {
                bytes
            };
            chunk.push(Item {
                source: name,
                bytes,
                base: args.base.clone(),
            });
        } else {
            let mut line = Vec::new();
            let mut n = 0usize;
            loop {
                line.clear();
                match reader.read_until(b'\n', &mut line) {
                    Ok(0) => break,
                    Ok(_) => {}
                    Err(e) => {
                        diagnostic(format_args!("cannot read {name}: {e}"));
                        builder.not_checked(name.clone(), format!("unreadable: {e}"));
                        reading.failed += 1;
                        break;
                    }
                }
                n += 1;
                if line.last() == Some(&b'\n') {
                    line.pop();
                    if line.last() == Some(&b'\r') {
                        line.pop();
                    }
                }
                let source = format!("{name}:{n}");
                if line.len() > MAX_INPUT_BYTES {
                    builder.not_checked(
                        source,
                        format!(
                            "{} bytes, over the {MAX_INPUT_BYTES}-byte input limit",
                            line.len()
                        ),
                    );
                    reading.too_large += 1;
                    continue;
                }
                if args.pairs {
                    let Some(tab) = line.iter().position(|&b| b == b'\t') else {
                        builder.not_checked(source, "no TAB between base and reference".into());
                        reading.failed += 1;
                        continue;
                    };
                    let base = line.get(..tab).map(|b| String::from_utf8(b.to_vec()));
                    let reference = line.get(tab + 1..).unwrap_or_default().to_vec();
                    match base {
                        Some(Ok(base)) => chunk.push(Item {
                            source,
                            bytes: reference,
                            base: Some(base),
                        }),
                        _ => {
                            builder.not_checked(source, "the base is not UTF-8".into());
                            reading.failed += 1;
                        }
                    }
                } else {
                    chunk.push(Item {
                        source,
                        bytes: line.clone(),
                        base: args.base.clone(),
                    });
                }
                if chunk.len() >= CHUNK {
                    flush(&mut chunk, builder)?;
                }
            }
        }
        if chunk.len() >= CHUNK {
            flush(&mut chunk, builder)?;
        }
    }
    flush(&mut chunk, builder)?;
    Ok(reading)
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

pub fn run(args: &Args) -> Result<Status, Failure> {
    // Refuse a bad --out before reading anything.
    if let Some(path) = &args.out {
        out_target(path)?;
    }
    let mut walk = Vec::new();
    let files = files(&args.paths, &mut walk)?;
    let walk_errors = walk.len();
    for (path, why) in &walk {
        diagnostic(format_args!("{path}: {why}"));
    }
    let mut externals =
        super::externals::start_if_asked(&args.externals).map_err(Failure::Usage)?;
    let mut extra = |batch: &[uridiff::oracle::external::Query<'_>]| match externals.as_mut() {
        Some(e) => e.run(batch),
        None => Vec::new(),
    };
    // JSON Lines go to a spool as inputs are checked: the summary, which
    // comes first, is known only at the end.
    let (mut spool, mut spool_writer) = match args.format {
        Format::Jsonl => {
            let file = tempfile::tempfile()?;
            (Some(file.try_clone()?), Some(BufWriter::new(file)))
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
    let reading = read_into(&files, args, &mut builder, &mut extra, &mut || bar.inc(1))?;
    bar.finish_and_clear();
    let external_errors: Vec<String> = externals
        .map(|e| e.finish().iter().map(ToString::to_string).collect())
        .unwrap_or_default();
    for error in &external_errors {
        diagnostic(error);
        builder.external_error(error.clone());
    }
    let report = builder.finish();
    if let Some(w) = spool_writer {
        w.into_inner().map_err(io::IntoInnerError::into_error)?;
    }
    let t = &report.totals;
    match &args.out {
        Some(path) => {
            write_atomically(path, |w| {
                write_report(&report, args.format, spool.as_mut(), w)
            })?;
            println!(
                "report written to {}: {} inputs ({} distinct), {} with findings, {} unexplained, {} not UTF-8, {} not checked",
                path.display(),
                t.inputs,
                t.distinct,
                t.with_findings,
                t.unexplained,
                t.non_utf8,
                report.not_checked.len()
            );
        }
        None => {
            let stdout = io::stdout();
            let mut out = BufWriter::new(stdout.lock());
            write_report(&report, args.format, spool.as_mut(), &mut out)?;
            out.flush()?;
        }
    }
    if t.inputs == 0 {
        diagnostic(format_args!(
            "nothing was checked: no input in {} path(s)",
            args.paths.len()
        ));
        return Ok(Status::Error);
    }
    if reading.failed + reading.too_large + walk_errors > 0 || !report.external_errors.is_empty() {
        return Ok(Status::Error);
    }
    Ok(if t.unexplained > 0 {
        Status::Found
    } else {
        Status::Clean
    })
}
