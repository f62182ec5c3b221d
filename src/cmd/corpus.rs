//! `uridiff corpus`: the saved corpus's recorded expectations.

use std::fs;
use std::io;
use std::path::{Path, PathBuf};

use uridiff::bypass::known::{BYPASSES, known_bypasses, render_known};
use uridiff::corpus::{
    EXPECTATIONS, SIGNATURES, audit, bless_signatures, diff_text, expectations, is_corpus, load,
    load_signatures, render_signatures,
};

use super::error::{Failure, Status, diagnostic};
use super::io::{context, write_atomically};
use super::targets::AddTarget;
use super::text::path as shown_path;
use uridiff::text::visible_lines;

#[derive(Debug, clap::Args)]
pub(crate) struct Args {
    #[command(subcommand)]
    action: Action,
}

#[derive(Debug, clap::Subcommand)]
enum Action {
    /// Record new signatures (one minimal input each) in corpus/signatures.txt
    /// and rewrite corpus/expectations.txt for the regression set (review the diff!).
    Bless(Root),
    /// Check the saved corpus: no new, stale or unexplained signature, and
    /// the regression set as recorded; exit 1 with a line per problem or a
    /// diff.
    Check(Root),
    /// Add inputs to a target's corpus directory, named by SHA-1 as libFuzzer
    /// names them: `corpus add TARGET INPUT...` (for resolve and
    /// resolve-differential, BASE REFERENCE pairs; structured inputs are
    /// models, which no string turns back into).
    Add(Add),
    /// Follow a running campaign with the shipped adapters: save each new
    /// input whose new signature involves one.
    ///
    /// Checks each input the campaign adds to the corpus directories with
    /// every shipped adapter that is installed (`--oracle all` unless told
    /// otherwise) and the in-process oracles, and saves an
    /// input whose unexplained or defect signature involves an external
    /// oracle and is new (not in corpus/signatures.txt, not saved before)
    /// as fuzz/artifacts/TARGET/external-HASH, with its `check --json` in
    /// external-HASH.json. Ends when the process --pid ends (after
    /// checking what is queued) or on SIGINT/SIGTERM (130, 143), its
    /// adapters ended. Exit status: 0 nothing saved, 1 findings saved, 2
    /// usage or I/O error, or an external oracle failed.
    Follow(super::follow::Args),
}

#[derive(Debug, clap::Args)]
struct Add {
    #[command(flatten)]
    root: Root,
    /// The fuzz target whose corpus gets the inputs.
    #[arg(value_enum)]
    target: AddTarget,
    /// Inputs (for resolve and resolve-differential: base, reference, base,
    /// reference, ...).
    #[arg(required = true)]
    inputs: Vec<String>,
}

#[derive(Debug, clap::Args)]
struct Root {
    /// The saved corpus directory.
    #[arg(long, default_value = "corpus")]
    root: PathBuf,
}

/// Makes the target's directory under the corpus root, refusing a
/// symbolic link or anything else that is no directory where it belongs:
/// what `corpus add` names itself is never followed elsewhere.
fn target_dir(dir: &Path) -> Result<(), Failure> {
    match fs::symlink_metadata(dir) {
        Ok(m) if m.is_dir() => Ok(()),
        Ok(_) => Err(Failure::Usage(format!(
            "{} is not a directory (a symbolic link, file, FIFO or device); corpus add writes only into a target's own directory",
            dir.display()
        ))),
        Err(e) if e.kind() == io::ErrorKind::NotFound => fs::create_dir(dir).map_err(|e| {
            context(
                &e,
                format_args!("cannot create the corpus directory {}", dir.display()),
            )
            .into()
        }),
        Err(e) => Err(context(&e, format_args!("cannot read {}", dir.display())).into()),
    }
}

/// Creates `path` holding `bytes`, never opening what is already there
/// (`O_EXCL`: no link is followed, no FIFO waited on). The name is the
/// bytes' SHA-1, so a regular file of that name with those bytes is the
/// same input, already added; anything else there is refused.
fn add_file(path: &Path, bytes: &[u8]) -> Result<(), Failure> {
    let created = fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(path);
    match created {
        Ok(mut file) => {
            let written = io::Write::write_all(&mut file, bytes).and_then(|()| file.sync_all());
            if let Err(e) = written {
                // Leave no half-written input under its final name.
                let _ = fs::remove_file(path);
                return Err(context(&e, format_args!("cannot write {}", path.display())).into());
            }
            Ok(())
        }
        Err(e) if e.kind() == io::ErrorKind::AlreadyExists => {
            let regular = fs::symlink_metadata(path).is_ok_and(|m| m.file_type().is_file());
            if regular && uridiff::input::holds_exactly(path, bytes) {
                return Ok(());
            }
            Err(Failure::Usage(format!(
                "{} already exists and is not this input (a symbolic link, FIFO, device or other file); \
                 corpus add never writes through or over it",
                path.display()
            )))
        }
        Err(e) => Err(context(&e, format_args!("cannot create {}", path.display())).into()),
    }
}

/// The refusal of a directory that holds no saved corpus, so that a
/// mistyped --root is not blessed into a new corpus.
fn no_corpus(root: &std::path::Path) -> Failure {
    Failure::Usage(format!(
        "{} holds no saved corpus (no curated.txt, no target directory); give --root",
        root.display()
    ))
}

/// The refusal to record or check the regression set with a build that
/// lacks some built-in oracle: corpus/expectations.txt and signatures.txt
/// hold every oracle's outcomes and findings, so such a build would drop
/// the missing oracles' lines (a bless) or report them all as changed (a
/// check).
fn every_oracle_built(action: &str) -> Result<(), Failure> {
    let missing: Vec<&str> = uridiff::oracle::OracleId::ALL
        .iter()
        .filter(|id| uridiff::oracle::info(**id).is_none())
        .map(|id| id.as_str())
        .collect();
    if missing.is_empty() {
        return Ok(());
    }
    Err(Failure::Usage(format!(
        "corpus {action} needs every built-in oracle, and this build lacks {}: the saved corpus \
         records them all; build with the default features and `--features uriparser` \
         (bash scripts/setup-oracles.sh installs the library it links)",
        missing.join(", ")
    )))
}

pub(crate) fn run(args: &Args, sandbox: &super::fetch::Sandbox) -> Result<Status, Failure> {
    match &args.action {
        Action::Follow(f) => super::follow::run(f, sandbox),
        Action::Bless(r) => bless(r),
        Action::Add(a) => add(a),
        Action::Check(r) => check(r),
    }
}

/// `corpus bless`: records the signatures, the expectations and the known
/// bypasses of the saved corpus anew.
fn bless(r: &Root) -> Result<Status, Failure> {
    if !is_corpus(&r.root) {
        return Err(no_corpus(&r.root));
    }
    every_oracle_built("bless")?;
    let corpus = load(&r.root)?;
    let old = load_signatures(&r.root)?;
    let set = bless_signatures(&corpus, &old);
    let added = set.keys().filter(|s| !old.contains_key(*s)).count();
    let dropped = old.keys().filter(|s| !set.contains_key(*s)).count();
    let sig_path = r.root.join(SIGNATURES);
    let sig_text = render_signatures(&set);
    write_atomically(&sig_path, |w| io::Write::write_all(w, sig_text.as_bytes()))?;
    let text = expectations(&corpus, &set);
    let path = r.root.join(EXPECTATIONS);
    let old_text = std::fs::read_to_string(&path).unwrap_or_default();
    write_atomically(&path, |w| io::Write::write_all(w, text.as_bytes()))?;
    let changed = similar::TextDiff::from_lines(&old_text, &text)
        .ops()
        .iter()
        .filter(|op| op.tag() != similar::DiffTag::Equal)
        .count();
    let known = known_bypasses(&corpus);
    let bypass_path = r.root.join(BYPASSES);
    let bypass_text = render_known(&known);
    write_atomically(&bypass_path, |w| {
        io::Write::write_all(w, bypass_text.as_bytes())
    })?;
    println!(
        "wrote {}: {} known bypasses (validator, fetcher, shape)",
        shown_path(&bypass_path),
        known.len()
    );
    println!(
        "wrote {}: {} signatures ({added} new, {dropped} dropped); {}: {changed} changed hunks; \
         {} inputs and {} resolve pairs in the coverage corpus, {} undecodable files",
        shown_path(&sig_path),
        set.len(),
        shown_path(&path),
        corpus.inputs.len(),
        corpus.pairs.len(),
        corpus.undecodable.len()
    );
    Ok(Status::Clean)
}

/// `corpus add`: writes inputs into a target's corpus directory.
fn add(a: &Add) -> Result<Status, Failure> {
    // The same root `bless` and `check` accept: a mistyped --root,
    // or a command run outside a checkout, makes no new corpus.
    if !is_corpus(&a.root.root) {
        return Err(no_corpus(&a.root.root));
    }
    let target = a.target.0;
    let files: Vec<Vec<u8>> = if target.holds_pairs() {
        if !a.inputs.len().is_multiple_of(2) {
            return Err(Failure::Usage(format!(
                "{target} inputs come in BASE REFERENCE pairs"
            )));
        }
        let mut files = Vec::new();
        for pair in a.inputs.chunks(2) {
            let [base, reference] = pair else { continue };
            match uridiff::fuzzing::encode_resolve_pair(base, reference) {
                Some(bytes) => files.push(bytes),
                None => {
                    return Err(Failure::Usage(format!(
                        "cannot encode the pair \"{base}\" \"{reference}\" (too long)"
                    )));
                }
            }
        }
        files
    } else {
        a.inputs.iter().map(|i| i.as_bytes().to_vec()).collect()
    };
    // Every input is encoded before the directory is made, so that a
    // refused command leaves nothing behind.
    let dir = a.root.root.join(target.as_str());
    target_dir(&dir)?;
    for bytes in files {
        let path = dir.join(uridiff::corpus::file_name(&bytes));
        add_file(&path, &bytes)?;
        println!("{}", shown_path(&path));
    }
    Ok(Status::Clean)
}

/// `corpus check`: compares the saved corpus with what it records.
fn check(r: &Root) -> Result<Status, Failure> {
    if !is_corpus(&r.root) {
        return Err(no_corpus(&r.root));
    }
    every_oracle_built("check")?;
    let corpus = load(&r.root)?;
    let set = load_signatures(&r.root)?;
    let found = audit(&corpus, &set);
    let path = r.root.join(EXPECTATIONS);
    let recorded = std::fs::read_to_string(&path)
        .map_err(|e| io::Error::new(e.kind(), format!("cannot read {}: {e}", path.display())))?;
    let text = expectations(&corpus, &set);
    let bypass_path = r.root.join(BYPASSES);
    let recorded_bypasses = std::fs::read_to_string(&bypass_path).unwrap_or_default();
    let bypass_text = render_known(&known_bypasses(&corpus));
    if recorded_bypasses != bypass_text {
        print!(
            "{}",
            visible_lines(
                &similar::TextDiff::from_lines(&recorded_bypasses, &bypass_text)
                    .unified_diff()
                    .context_radius(1)
                    .header("recorded (corpus/bypasses.txt)", "current")
                    .to_string()
            )
        );
        diagnostic("the saved corpus's bypasses changed; review, then run `uridiff corpus bless`");
        return Ok(Status::Found);
    }
    if found.is_clean() && recorded == text {
        println!(
            "{}: {} signatures, the regression set as recorded; {} inputs and {} resolve pairs checked",
            shown_path(&r.root),
            set.len(),
            corpus.inputs.len(),
            corpus.pairs.len()
        );
        return Ok(Status::Clean);
    }
    // Both quote inputs as JSON, which leaves bidirectional and
    // invisible characters raw.
    print!("{}", visible_lines(&found.summary()));
    if recorded != text {
        print!("{}", visible_lines(&diff_text(&recorded, &text)));
    }
    diagnostic("the saved corpus changed; review, then run `uridiff corpus bless`");
    Ok(Status::Found)
}
