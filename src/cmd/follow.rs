//! `uridiff corpus follow`: the inputs a running campaign writes, checked
//! as they arrive by the shipped adapters (and the in-process oracles), so
//! that a campaign reaches the parsers services run; a new signature that
//! involves an external oracle is saved as a finding.
//!
//! libFuzzer (and atheris, and the Go fuzzer's converted inputs) add one
//! file per input to a corpus directory. The directories are polled (a
//! listing every interval; no watcher library): a file is taken once its
//! size is the same on two polls in a row, so a half-written one is not
//! read, and every name is taken once. The queue between the listing and
//! the checks has a cap: what arrives while it is full is counted and
//! dropped (the report at the end of `scripts/fuzz.sh` replays every input
//! anyway), so the follower keeps up with a campaign that writes faster
//! than the adapters answer instead of falling ever further behind.

use std::collections::{BTreeSet, HashMap, HashSet, VecDeque};
use std::fmt::Write as _;
use std::fs;
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use uridiff::corpus::read::{Decoded, decode};
use uridiff::corpus::{is_corpus, load_signatures};
use uridiff::fuzzing::{CorpusFormat, FuzzTarget, external_signatures};
use uridiff::input::read_limited;
use uridiff::oracle::OracleId;
use uridiff::signature::Signature;
use uridiff::{Case, Harness, Query};

mod clients;

use super::error::{Failure, Status, diagnostic};
use super::externals::{ExternalArgs, end_gracefully, signal_exit_status};
use super::fetch::Sandbox;
use super::io::{Output, context};
use super::text::path as shown_path;

#[derive(Debug, clap::Args)]
pub(crate) struct Args {
    /// The fuzz target whose corpus format the files are in (`uridiff
    /// targets`); findings go to its artifacts directory.
    #[arg(long, value_name = "NAME", default_value = "differential")]
    target: FuzzTarget,
    /// Where findings are saved [default: fuzz/artifacts/TARGET].
    #[arg(long, value_name = "DIR")]
    artifacts: Option<PathBuf>,
    /// The saved corpus: a signature its signatures.txt lists is known, not
    /// a finding.
    #[arg(long, value_name = "DIR", default_value = "corpus")]
    root: PathBuf,
    /// Follow while the process PID runs (the campaign's); then check
    /// what is left (every file, settled or not, within the queue's cap)
    /// and end. Without it, follow until SIGINT or SIGTERM.
    #[arg(long, value_name = "PID")]
    pid: Option<u32>,
    /// Check the files already in the directories when the follower starts
    /// too (by default only those added later).
    #[arg(long)]
    existing: bool,
    /// Milliseconds between two listings of the directories.
    #[arg(long, value_name = "MS", default_value_t = 500)]
    interval_ms: u64,
    /// At most this many inputs wait to be checked; new files that arrive
    /// while the queue is full are counted and not checked.
    #[arg(long, value_name = "N", default_value_t = 10_000)]
    queue: usize,
    /// Files larger than this many bytes are counted and not checked (the
    /// campaigns' -max_len).
    #[arg(long, value_name = "BYTES", default_value_t = 4096)]
    max_len: usize,
    /// Send each input through the HTTP clients too (`uridiff fetch`'s,
    /// every one whose parser an oracle followed reads with; Chromium has
    /// none), and save an input on which a client goes elsewhere than its
    /// parser says (`client-HASH`, with `client-HASH.json`; signature
    /// `client-elsewhere/observed/CLIENT/host|port|no-host`). As root in a
    /// network namespace whose only interface is `lo`; elsewhere only the
    /// clients with an in-client guard.
    #[arg(long)]
    clients: bool,
    /// Only this HTTP client (repeatable; implies --clients).
    #[arg(long = "client", value_name = "NAME")]
    client: Vec<String>,
    /// Each client request's time limit, in seconds.
    #[arg(long, value_name = "SECONDS", default_value_t = 2.0)]
    client_timeout: f64,
    /// After the campaign ends (or the follower is told to), the clients
    /// go on with the inputs queued for them for at most this many seconds;
    /// what is left is counted.
    #[arg(long, value_name = "SECONDS", default_value_t = 30.0)]
    client_grace: f64,
    /// External oracles, as for `check` [default: --oracle all].
    #[command(flatten)]
    externals: ExternalArgs,
    /// The corpus directories the campaign writes (libFuzzer format: one
    /// input per file).
    #[arg(required = true, value_name = "DIR")]
    dirs: Vec<PathBuf>,
}

/// What happened to the files the follower saw.
#[derive(Debug, Default)]
struct Counts {
    /// Inputs checked.
    checked: usize,
    /// Files over `--max-len`.
    too_large: usize,
    /// Files that arrived while the queue was full.
    dropped: usize,
    /// Files that hold no input of the target's format (not UTF-8, say).
    undecodable: usize,
    /// Files that vanished or could not be read, and entries that are no
    /// regular file (links, FIFOs, directories).
    unreadable: usize,
    /// Findings saved.
    saved: usize,
    /// New signatures among them.
    signatures: usize,
}

/// The directories, and which of their files are taken.
struct Watch {
    dirs: Vec<PathBuf>,
    /// Every path taken (queued, dropped, or skipped): each once.
    taken: HashSet<PathBuf>,
    /// Files seen on the last listing, with their size then, not yet taken:
    /// a file is taken when its size has not changed since.
    growing: HashMap<PathBuf, u64>,
    queue: VecDeque<PathBuf>,
    cap: usize,
    max_len: usize,
}

impl Watch {
    /// A watch over `args.dirs`, nothing taken or queued yet.
    fn new(args: &Args) -> Watch {
        Watch {
            dirs: args.dirs.clone(),
            taken: HashSet::new(),
            growing: HashMap::new(),
            queue: VecDeque::new(),
            cap: args.queue,
            max_len: args.max_len,
        }
    }

    /// Lists the directories and takes the files that are ready: settled
    /// (the same size as on the last listing) unless `all`, when every file
    /// is (the campaign has ended: nothing is being written).
    fn poll(&mut self, all: bool, counts: &mut Counts) -> io::Result<()> {
        let mut listed = HashSet::new();
        for dir in &self.dirs {
            let entries = fs::read_dir(dir)
                .map_err(|e| context(&e, format_args!("cannot list {}", dir.display())))?;
            for entry in entries {
                let entry = entry
                    .map_err(|e| context(&e, format_args!("cannot list {}", dir.display())))?;
                let path = entry.path();
                // Hidden names are temporary files (the Go converter's,
                // an editor's), renamed into place when complete.
                if entry.file_name().to_string_lossy().starts_with('.')
                    || self.taken.contains(&path)
                {
                    continue;
                }
                // The entry itself, not what a link points at: a link
                // may lead out of the directory or to a FIFO.
                let regular = entry.file_type().is_ok_and(|t| t.is_file());
                let Some(size) = entry.metadata().ok().filter(|_| regular).map(|m| m.len()) else {
                    counts.unreadable += 1;
                    self.taken.insert(path);
                    continue;
                };
                if !all && self.growing.get(&path) != Some(&size) {
                    listed.insert(path.clone());
                    self.growing.insert(path, size);
                    continue;
                }
                self.growing.remove(&path);
                if usize::try_from(size).map_or(true, |s| s > self.max_len) {
                    counts.too_large += 1;
                } else if self.queue.len() >= self.cap {
                    counts.dropped += 1;
                } else {
                    self.queue.push_back(path.clone());
                }
                self.taken.insert(path);
            }
        }
        // A file that was removed before it settled is forgotten.
        self.growing.retain(|path, _| listed.contains(path));
        Ok(())
    }

    /// Takes every file there is now without checking it: the follower
    /// checks only what is added later.
    fn skip_existing(&mut self) -> io::Result<usize> {
        let mut skipped = 0;
        for dir in &self.dirs {
            let entries = fs::read_dir(dir)
                .map_err(|e| context(&e, format_args!("cannot list {}", dir.display())))?;
            for entry in entries.flatten() {
                if self.taken.insert(entry.path()) {
                    skipped += 1;
                }
            }
        }
        Ok(skipped)
    }
}

/// Is process `pid` still running (a zombie is not)?
fn alive(pid: u32) -> bool {
    let Some(raw) = i32::try_from(pid)
        .ok()
        .and_then(rustix::process::Pid::from_raw)
    else {
        return false;
    };
    match rustix::process::test_kill_process(raw) {
        Ok(()) | Err(rustix::io::Errno::PERM) => {}
        Err(_) => return false,
    }
    // "pid (comm) state ...": a process that has ended but not been
    // reaped yet is `Z`.
    match fs::read_to_string(format!("/proc/{pid}/stat")) {
        Ok(stat) => !matches!(
            stat.rsplit_once(") ")
                .and_then(|(_, tail)| tail.chars().next()),
            Some('Z' | 'X')
        ),
        Err(_) => true,
    }
}

/// The lines (JSON values) of every `PREFIX*.json` report a follower saved
/// in `dir` (none when `dir` does not exist): what earlier runs found.
fn saved_reports(dir: &Path, prefix: &str) -> io::Result<Vec<serde_json::Value>> {
    let mut lines = Vec::new();
    let entries = match fs::read_dir(dir) {
        Ok(entries) => entries,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(lines),
        Err(e) => return Err(context(&e, format_args!("cannot list {}", dir.display()))),
    };
    for entry in entries.flatten() {
        let name = entry.file_name().to_string_lossy().into_owned();
        let report = name.starts_with(prefix) && name.ends_with(".json");
        if !(report && entry.file_type().is_ok_and(|t| t.is_file())) {
            continue;
        }
        // A report this follower wrote; one it cannot read is no reason to
        // stop, only to say so.
        let Ok(text) = fs::read_to_string(entry.path()) else {
            diagnostic(format_args!("cannot read {}", entry.path().display()));
            continue;
        };
        lines.extend(text.lines().filter_map(|l| serde_json::from_str(l).ok()));
    }
    Ok(lines)
}

/// The signatures saved in `dir` by earlier runs (read back from the
/// `external-*.json` beside each input), so that a second run does not
/// save them again.
fn saved_signatures(dir: &Path) -> io::Result<BTreeSet<Signature>> {
    let mut found = BTreeSet::new();
    for case in saved_reports(dir, "external-")? {
        let findings = case.get("findings").and_then(|f| f.as_array());
        for f in findings.into_iter().flatten() {
            if let Some(signature) = signature_of_json(f) {
                found.insert(signature);
            }
        }
    }
    Ok(found)
}

/// A finding of `check --json` back to its signature, when it is one a
/// follower saves ([`external_signatures`]).
fn signature_of_json(f: &serde_json::Value) -> Option<Signature> {
    let text = |key: &str| f.get(key).and_then(|v| v.as_str());
    let external = |id: Option<&str>| {
        id.and_then(OracleId::from_id)
            .is_some_and(|id| matches!(id, OracleId::External(_)))
    };
    if text("basis") == Some("spec") || !(external(text("oracle")) || external(text("peer"))) {
        return None;
    }
    let fields: Vec<&str> = f
        .get("fields")?
        .as_array()?
        .iter()
        .filter_map(|v| v.as_str())
        .collect();
    format!(
        "{}/{}/{}/{}",
        text("class")?,
        text("basis")?,
        text("oracle")?,
        fields.join(",")
    )
    .parse()
    .ok()
}

/// Writes `bytes` to `path` atomically (a temporary file renamed into
/// place): a signal or a reader never meets half a finding.
fn save(path: &Path, bytes: &[u8]) -> Result<(), Failure> {
    Output::prepare(path, &[])?.write(|w| w.write_all(bytes))?;
    Ok(())
}

/// Saves `case` (from the file bytes `raw`) as a finding in `dir`: the
/// input as `external-<hash>`, byte for byte, and its `check --json` line
/// beside it as `external-<hash>.json`. Returns the input's path.
fn save_finding(dir: &Path, raw: &[u8], case: &Case<'_>) -> Result<PathBuf, Failure> {
    let hash = uridiff::corpus::file_name(raw);
    let name = format!("external-{}", hash.get(..16).unwrap_or(&hash));
    let input = dir.join(&name);
    let mut json = serde_json::to_vec(case)?;
    json.push(b'\n');
    save(&dir.join(format!("{name}.json")), &json)?;
    save(&input, raw)?;
    Ok(input)
}

/// Starts the harness with the external oracles asked for (`--oracle all`
/// when none are), as `check` does: annotated, with the WHATWG reference.
/// Also the external oracles' ids.
fn start(args: &ExternalArgs) -> Result<(Harness<'static>, Vec<OracleId>), Failure> {
    let externals = super::externals::start_if_asked(args)
        .map_err(Failure::Usage)?
        .ok_or_else(|| Failure::Usage("no external oracle to follow with".to_owned()))?;
    let ids = externals.ids();
    let mut harness = Harness::builder()
        .annotate(true)
        .whatwg_reference(args.timeout())
        .externals(Box::new(externals))
        .build();
    harness.prestart();
    Ok((harness, ids))
}

/// How often the external oracles are started again after one stopped
/// answering (a crash, a timeout) before the follower goes on without it.
const RESTARTS: usize = 3;

/// Did an external oracle give no answer in these cases?
fn lost_an_external(cases: &[Case<'_>]) -> bool {
    cases.iter().any(|case| {
        case.outcomes
            .iter()
            .any(|(id, o)| matches!(id, OracleId::External(_)) && o.is_missing())
    })
}

/// Checks the arguments before anything starts, and makes the artifacts
/// directory (`--artifacts`, else `fuzz/artifacts/TARGET`).
fn artifacts_dir(args: &Args) -> Result<PathBuf, Failure> {
    if !is_corpus(&args.root) {
        return Err(Failure::Usage(format!(
            "{} holds no saved corpus (no curated.txt, no target directory); give --root",
            args.root.display()
        )));
    }
    for dir in &args.dirs {
        if !fs::metadata(dir).is_ok_and(|m| m.is_dir()) {
            return Err(Failure::Usage(format!(
                "{} is not a directory: give the corpus directories the campaign writes",
                dir.display()
            )));
        }
    }
    if args.queue == 0 {
        return Err(Failure::Usage("--queue must be at least 1".to_owned()));
    }
    let artifacts = args.artifacts.clone().unwrap_or_else(|| {
        Path::new("fuzz")
            .join("artifacts")
            .join(args.target.as_str())
    });
    fs::create_dir_all(&artifacts).map_err(|e| {
        context(
            &e,
            format_args!(
                "cannot create the artifacts directory {}",
                artifacts.display()
            ),
        )
    })?;
    Ok(artifacts)
}

/// Up to `batch` queued files, read (at most `max_len` bytes) and decoded
/// as `format`; those that are not are counted.
fn read_batch(
    watch: &mut Watch,
    batch: usize,
    format: CorpusFormat,
    max_len: usize,
    counts: &mut Counts,
) -> Vec<(Vec<u8>, Decoded)> {
    let mut items: Vec<(Vec<u8>, Decoded)> = Vec::new();
    while items.len() < batch {
        let Some(path) = watch.queue.pop_front() else {
            break;
        };
        let read = fs::File::open(&path).and_then(|f| read_limited(f, max_len));
        match read {
            Ok(Ok(bytes)) => match decode(format, bytes.clone()) {
                Some(decoded) => items.push((bytes, decoded)),
                None => counts.undecodable += 1,
            },
            // Grown past the cap since it was listed.
            Ok(Err(_)) => counts.too_large += 1,
            Err(_) => counts.unreadable += 1,
        }
    }
    items
}

/// Saves `case` (its input `raw`) in `artifacts` when it shows a signature
/// neither known nor seen in this run, and says so.
fn save_if_new(
    out: &mut impl Write,
    artifacts: &Path,
    raw: &[u8],
    case: &Case<'_>,
    known: &BTreeSet<Signature>,
    seen: &mut BTreeSet<Signature>,
    counts: &mut Counts,
) -> Result<(), Failure> {
    let new: Vec<Signature> = external_signatures(case)
        .into_iter()
        .filter(|s| !known.contains(s) && !seen.contains(s))
        .collect();
    if new.is_empty() {
        return Ok(());
    }
    let path = save_finding(artifacts, raw, case)?;
    counts.saved += 1;
    counts.signatures += new.len();
    let mut line = format!("saved {}:", shown_path(&path));
    for s in &new {
        let _ = write!(line, " {s}");
    }
    writeln!(out, "{line}")?;
    out.flush()?;
    seen.extend(new);
    Ok(())
}

/// The first line: what is followed, with which oracles, against how many
/// known signatures (`known`: listed in the saved corpus, saved earlier in
/// `artifacts`).
fn announce(
    out: &mut impl Write,
    args: &Args,
    ids: &[OracleId],
    (listed, earlier_count): (usize, usize),
    artifacts: &Path,
    existing: &str,
) -> io::Result<()> {
    let names: Vec<&str> = ids.iter().map(OracleId::as_str).collect();
    let dirs: Vec<String> = args.dirs.iter().map(|d| shown_path(d)).collect();
    writeln!(
        out,
        "following {} ({} files) with {} external oracles ({}); known signatures: {listed} in {}, {earlier_count} saved earlier in {}; existing files {existing}",
        dirs.join(", "),
        args.target,
        ids.len(),
        names.join(", "),
        shown_path(&args.root.join(uridiff::corpus::SIGNATURES)),
        shown_path(artifacts),
    )?;
    out.flush()?;
    Ok(())
}

pub(crate) fn run(args: &Args, sandbox: &Sandbox) -> Result<Status, Failure> {
    let artifacts = artifacts_dir(args)?;
    let client_timeout = clients::timeout(args)?;
    let (known, known_counts) = known_signatures(args, &artifacts)?;

    // From here a signal ends the loop below, not the process: a finding
    // is never left half-written, and the summary is said.
    end_gracefully();
    let externals = args.externals.or_all();
    let (mut harness, ids) = start(&externals)?;
    let mut clients = client_timeout
        .map(|timeout| clients::start(args, timeout, &ids, sandbox, &artifacts))
        .transpose()?;
    let mut watch = Watch::new(args);
    let existing = if args.existing {
        "checked".to_owned()
    } else {
        format!("{} skipped", watch.skip_existing()?)
    };
    let mut out = io::stdout().lock();
    announce(&mut out, args, &ids, known_counts, &artifacts, &existing)?;
    if let Some(clients) = &clients {
        clients.announce(&mut out)?;
    }

    let interval = Duration::from_millis(args.interval_ms.max(1));
    let format = args.target.format();
    let batch = harness.batch_size();
    let mut counts = Counts::default();
    let mut seen: BTreeSet<Signature> = BTreeSet::new();
    let mut last_poll: Option<Instant> = None;
    let mut restarts = 0;
    let mut errors: Vec<String> = Vec::new();
    let why_ended = loop {
        if signal_exit_status().is_some() {
            break "a signal".to_owned();
        }
        let over = args.pid.is_some_and(|pid| !alive(pid));
        if over || last_poll.is_none_or(|t| t.elapsed() >= interval) {
            watch.poll(over, &mut counts)?;
            last_poll = Some(Instant::now());
        }
        if watch.queue.is_empty() {
            if over {
                break format!("process {} ended", args.pid.unwrap_or_default());
            }
            // Idle: the clients' turn, until the next listing.
            let sent = match &mut clients {
                Some(c) => c.idle(&mut out, &artifacts, interval)?,
                None => false,
            };
            if !sent {
                std::thread::sleep(interval.min(Duration::from_millis(50)));
            }
            continue;
        }
        let batch_started = Instant::now();
        // One batch: the files read (size-capped) and decoded.
        let items = read_batch(&mut watch, batch, format, args.max_len, &mut counts);
        let queries = queries_of(&items);
        let cases = harness.check_queries(&queries);
        // A signal killed the adapters mid-batch: their missing answers
        // are no finding.
        if signal_exit_status().is_some() {
            break "a signal".to_owned();
        }
        counts.checked += cases.len();
        for ((raw, _), case) in items.iter().zip(&cases) {
            save_if_new(
                &mut out,
                &artifacts,
                raw,
                case,
                &known,
                &mut seen,
                &mut counts,
            )?;
            if let Some(clients) = &mut clients {
                clients.offer(raw, case)?;
            }
        }
        if let Some(c) = &mut clients {
            c.take_turn(&mut out, &artifacts, batch_started.elapsed())?;
        }
        if lost_an_external(&cases) && restarts < RESTARTS {
            restarts += 1;
            drop(cases);
            drop(queries);
            for error in harness.finish() {
                diagnostic(&error);
                errors.push(error);
            }
            diagnostic(format_args!(
                "an external oracle stopped answering: starting them again ({restarts} of {RESTARTS})"
            ));
            harness = start(&externals)?.0;
        }
    };
    // The adapters a signal killed say so; that is no error of theirs.
    keep_errors(harness.finish(), &mut errors);
    let client_findings = match clients {
        Some(clients) => clients::end(&mut out, (clients, &artifacts), args, &mut errors)?,
        None => 0,
    };
    let status = summary(&mut out, args, &why_ended, &counts, &artifacts, &errors)?;
    // A client's departure saved is a finding as an adapter's is.
    Ok(if status == Status::Clean && client_findings > 0 {
        Status::Found
    } else {
        status
    })
}

/// The signatures a follower does not save: those `signatures.txt` lists
/// and those saved earlier in `artifacts`; and how many of each.
fn known_signatures(
    args: &Args,
    artifacts: &Path,
) -> Result<(BTreeSet<Signature>, (usize, usize)), Failure> {
    let mut known: BTreeSet<Signature> = load_signatures(&args.root)?.into_keys().collect();
    let listed = known.len();
    let earlier = saved_signatures(artifacts)?;
    let earlier_count = earlier.len();
    known.extend(earlier);
    Ok((known, (listed, earlier_count)))
}

/// Says each of `found` and keeps it in `errors`, unless a signal ended
/// the run (the processes it killed say so; that is no error of theirs).
fn keep_errors(found: Vec<String>, errors: &mut Vec<String>) {
    if signal_exit_status().is_some() {
        return;
    }
    for error in found {
        diagnostic(&error);
        errors.push(error);
    }
}

/// The queries of a batch: each input, with its base when it has one.
fn queries_of(items: &[(Vec<u8>, Decoded)]) -> Vec<Query<'_>> {
    items
        .iter()
        .map(|(_, d)| match &d.base {
            Some(base) => Query::with_base(base, &d.input),
            None => Query::new(&d.input),
        })
        .collect()
}

/// The last line: why the follower ended and what it did; the status.
fn summary(
    out: &mut impl Write,
    args: &Args,
    why_ended: &str,
    counts: &Counts,
    artifacts: &Path,
    errors: &[String],
) -> Result<Status, Failure> {
    writeln!(
        out,
        "follow ended ({why_ended}): {} inputs checked; {} findings saved in {} ({} new signatures); not checked: {} over {} bytes, {} dropped with the queue full, {} undecodable, {} unreadable or not a file",
        counts.checked,
        counts.saved,
        shown_path(artifacts),
        counts.signatures,
        counts.too_large,
        args.max_len,
        counts.dropped,
        counts.undecodable,
        counts.unreadable,
    )?;
    out.flush()?;
    Ok(if !errors.is_empty() {
        Status::Error
    } else if counts.saved > 0 {
        Status::Found
    } else {
        Status::Clean
    })
}
