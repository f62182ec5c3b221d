//! `uridiff report`: replay a corpus and write a disagreement report.

use std::fs;
use std::io::{self, BufWriter, Write};
use std::path::{Path, PathBuf};

use indicatif::{ProgressBar, ProgressStyle};
use uridiff::report::{Item, Report, build_with};

use crate::Status;

/// The largest input checked; a larger file or line is listed as not checked.
const MAX_INPUT_BYTES: usize = 1 << 20;

#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    /// Markdown.
    Md,
    /// JSON Lines: a summary, then one object per input.
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

/// Splits `bytes` into lines (dropping a `\r` before `\n`).
fn lines(bytes: &[u8]) -> impl Iterator<Item = &[u8]> {
    let body = bytes.strip_suffix(b"\n").unwrap_or(bytes);
    let empty = bytes.is_empty();
    body.split(|&b| b == b'\n')
        .filter(move |_| !empty)
        .map(|l| l.strip_suffix(b"\r").unwrap_or(l))
}

fn read_items(
    files: &[PathBuf],
    args: &Args,
    not_checked: &mut Vec<(String, String)>,
) -> (Vec<Item>, usize) {
    let mut items = Vec::new();
    let mut unreadable = 0;
    for file in files {
        let name = file.display().to_string();
        let bytes = match fs::read(file) {
            Ok(b) => b,
            Err(e) => {
                eprintln!("uridiff: cannot read {name}: {e}");
                not_checked.push((name, format!("unreadable: {e}")));
                unreadable += 1;
                continue;
            }
        };
        let mut push = |source: String, input: &[u8], base: Option<String>| {
            if input.len() > MAX_INPUT_BYTES {
                not_checked.push((
                    source,
                    format!(
                        "{} bytes, over the {MAX_INPUT_BYTES}-byte input limit",
                        input.len()
                    ),
                ));
            } else {
                items.push(Item {
                    source,
                    bytes: input.to_vec(),
                    base,
                });
            }
        };
        let base = args.base.clone();
        let mut bad_pairs = Vec::new();
        if args.pairs {
            for (n, line) in lines(&bytes).enumerate() {
                let source = format!("{name}:{}", n + 1);
                let Some(tab) = line.iter().position(|&b| b == b'\t') else {
                    bad_pairs.push((source, "no TAB between base and reference".to_owned()));
                    continue;
                };
                let (base, reference) = (line.get(..tab), line.get(tab + 1..));
                match (base.map(std::str::from_utf8), reference) {
                    (Some(Ok(base)), Some(reference)) => {
                        push(source, reference, Some(base.to_owned()))
                    }
                    _ => bad_pairs.push((source, "the base is not UTF-8".to_owned())),
                }
            }
        } else if args.lines {
            for (n, line) in lines(&bytes).enumerate() {
                push(format!("{name}:{}", n + 1), line, base.clone());
            }
        } else if args.structured {
            match uridiff::fuzzing::render_structured(&bytes) {
                Some(input) => push(name, input.as_bytes(), base),
                None => not_checked.push((name, "does not decode as a structured input".into())),
            }
        } else {
            push(name, &bytes, base);
        }
        not_checked.extend(bad_pairs);
    }
    (items, unreadable)
}

fn write_report(report: &Report, format: Format, out: &mut impl Write) -> io::Result<()> {
    match format {
        Format::Md => report.write_markdown(out),
        Format::Jsonl => report.write_jsonl(out),
        Format::Html => report.write_html(out),
    }
}

/// Writes to a temporary file beside `path` and renames it into place, so a
/// reader never sees half a report.
pub fn write_atomically(
    path: &Path,
    write: impl FnOnce(&mut BufWriter<&fs::File>) -> io::Result<()>,
) -> io::Result<()> {
    let dir = match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    };
    let mut builder = tempfile::Builder::new();
    // A temporary file is private (0600); the report it becomes is an
    // ordinary file, readable like anything else the user writes. Keep the
    // mode of a file being replaced (expectations.txt, say).
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = fs::metadata(path).map_or(0o644, |m| m.permissions().mode() & 0o777);
        builder.permissions(fs::Permissions::from_mode(mode));
    }
    let tmp = builder.tempfile_in(dir).map_err(|e| {
        io::Error::new(
            e.kind(),
            format!("cannot create a file in {}: {e}", dir.display()),
        )
    })?;
    {
        let mut w = BufWriter::new(tmp.as_file());
        write(&mut w)?;
        w.flush()?;
    }
    tmp.persist(path).map_err(|e| {
        io::Error::new(
            e.error.kind(),
            format!("cannot write {}: {}", path.display(), e.error),
        )
    })?;
    Ok(())
}

pub fn run(args: &Args) -> io::Result<Status> {
    let mut not_checked = Vec::new();
    let files = files(&args.paths, &mut not_checked)?;
    let walk_errors = not_checked.len();
    for (path, why) in &not_checked {
        eprintln!("uridiff: {path}: {why}");
    }
    let (items, unreadable) = read_items(&files, args, &mut not_checked);

    // indicatif hides the bar when stderr is not a terminal.
    let bar = ProgressBar::new(items.len() as u64);
    if let Ok(style) =
        ProgressStyle::with_template("{spinner} checking {pos}/{len} inputs {wide_bar} {eta}")
    {
        bar.set_style(style);
    }
    let mut externals = if args.externals.any() {
        match super::externals::Externals::start(&args.externals) {
            Ok(e) => Some(e),
            Err(usage) => {
                eprintln!("uridiff: {usage}");
                return Ok(Status::Error);
            }
        }
    } else {
        None
    };
    let mut extra = |batch: &[&str]| match externals.as_mut() {
        Some(e) => e.run(batch),
        None => Vec::new(),
    };
    let mut report = build_with(items, not_checked, &mut extra, || bar.inc(1));
    bar.finish_and_clear();
    let external_errors = externals
        .map(super::externals::Externals::finish)
        .unwrap_or_default();
    for error in &external_errors {
        eprintln!("uridiff: {error}");
    }
    report.external_errors = external_errors;

    match &args.out {
        Some(path) => {
            write_atomically(path, |w| write_report(&report, args.format, w))?;
            let t = &report.totals;
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
            write_report(&report, args.format, &mut out)?;
            out.flush()?;
        }
    }
    if unreadable + walk_errors > 0 || !report.external_errors.is_empty() {
        return Ok(Status::Error);
    }
    Ok(if report.totals.unexplained > 0 {
        Status::Found
    } else {
        Status::Clean
    })
}
