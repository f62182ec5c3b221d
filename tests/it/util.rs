//! What the integration tests share: running the built binary, and what an
//! oracle of the registry gives for an input or a pair.

use std::ffi::OsStr;
use std::io::Write;
use std::path::Path;
use std::process::{Command, Output, Stdio};

/// The `uridiff` binary cargo built for these tests.
pub(crate) const BIN: &str = env!("CARGO_BIN_EXE_uridiff");

/// The repository root (the saved corpus, the scripts, test data).
pub(crate) fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// Runs `uridiff ARGS` and waits for it.
pub(crate) fn uridiff<S: AsRef<OsStr>>(args: &[S]) -> Output {
    Command::new(BIN).args(args).output().expect("run uridiff")
}

/// Runs `uridiff ARGS` in `dir`.
pub(crate) fn uridiff_in<S: AsRef<OsStr>>(dir: &Path, args: &[S]) -> Output {
    Command::new(BIN)
        .args(args)
        .current_dir(dir)
        .output()
        .expect("run uridiff")
}

/// Runs `uridiff ARGS` with `stdin` on its standard input.
pub(crate) fn uridiff_stdin<S: AsRef<OsStr>>(args: &[S], stdin: &[u8]) -> Output {
    let mut child = Command::new(BIN)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run uridiff");
    let mut pipe = child.stdin.take().expect("piped");
    // The command may stop reading early (a refused line): a closed pipe is
    // its answer, not a test failure.
    let _ = pipe.write_all(stdin);
    drop(pipe);
    child.wait_with_output().expect("wait for uridiff")
}

/// What `oracle` gives for `input`, resolved against `base` when there is
/// one, as uridiff runs it (src/check.rs `check_pair`: the registry row's
/// `resolve`, then `run` on the resolved text): the serialization of what
/// it accepted (its own, or the text it read when it changed nothing), or
/// its message when it refused, rejected, or found the input out of its
/// domain.
pub(crate) fn serialization(
    oracle: uridiff::OracleId,
    input: &str,
    base: Option<&str>,
) -> Result<String, String> {
    let text = match base {
        Some(base) => {
            let row = uridiff::oracle::info(oracle).expect("an oracle of this build");
            (row.resolve)(base, input).map_err(|refusal| refusal.message)?
        }
        None => input.to_owned(),
    };
    let outcome = oracle.run(&text);
    if !outcome.accepted() {
        return Err(outcome.message.unwrap_or_default());
    }
    Ok(outcome
        .serialization
        .map_or_else(|| text.clone(), |s| s.into_owned()))
}

/// Fails, with the setup command, unless every shipped adapter can run here
/// (as `scripts/setup-oracles.sh` leaves them): a test of the adapters
/// never skips one silently.
pub(crate) fn assert_every_adapter_ready() {
    let missing: Vec<String> = uridiff::oracle::external::shipped_status()
        .into_iter()
        .filter_map(|s| s.missing.map(|m| format!("{}: {m}", s.name)))
        .collect();
    assert!(
        missing.is_empty(),
        "run bash scripts/setup-oracles.sh: {missing:?}"
    );
}

/// The names in `dir`, sorted.
pub(crate) fn names(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}
