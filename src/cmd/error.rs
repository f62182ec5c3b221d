//! How commands end: the one place that prints `uridiff: <message>` and
//! turns an outcome into an exit code.
//!
//! A command returns `Ok(Status)` when it ran to the end (having printed,
//! through [`diagnostic`], anything that went wrong on the way without
//! stopping it: a line that is not UTF-8, a failed external oracle) or
//! `Err(Failure)` when it stopped; `main` prints the failure.

use std::fmt;
use std::io::{self, Write};
use std::process::ExitCode;

/// How a command ended. Exit codes follow `diff`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) enum Status {
    /// Everything was fine (exit 0).
    Clean = 0,
    /// The inputs showed what was asked about (exit 1): an invalid
    /// reference, a pair that does not resolve, an unexplained disagreement.
    Found = 1,
    /// A usage or I/O error that did not stop the command (exit 2); it has
    /// been printed.
    Error = 2,
}

/// Why a command stopped (exit 2).
#[derive(Debug)]
pub(crate) enum Failure {
    /// The command line asks for what cannot be done: a bad option value,
    /// an input that is no input, a directory with no saved corpus.
    Usage(String),
    /// Reading or writing failed; the error says what (`cannot read PATH:
    /// ...`).
    Io(io::Error),
}

impl fmt::Display for Failure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Failure::Usage(message) => f.write_str(message),
            Failure::Io(e) => write!(f, "{e}"),
        }
    }
}

impl From<io::Error> for Failure {
    fn from(e: io::Error) -> Self {
        Failure::Io(e)
    }
}

/// JSON is only ever written here, so its errors are the writer's (a closed
/// pipe stays a closed pipe).
impl From<serde_json::Error> for Failure {
    fn from(e: serde_json::Error) -> Self {
        Failure::Io(e.into())
    }
}

impl Failure {
    /// The exit code, and whether the failure is worth a message: a reader
    /// that closed standard output (`uridiff ... | head`) took what it
    /// wanted, so that ends quietly and well.
    fn exit(&self) -> (ExitCode, bool) {
        match self {
            Failure::Io(e) if e.kind() == io::ErrorKind::BrokenPipe => (ExitCode::SUCCESS, false),
            _ => (ExitCode::from(Status::Error as u8), true),
        }
    }
}

/// Prints `uridiff: <message>` on standard error, every hidden character
/// escaped ([`uridiff::text::visible_lines`]): messages carry file names,
/// inputs and what external programs wrote, and none of them may move the
/// cursor, retitle the terminal or reverse the text that follows. Nothing
/// is left to report a failure to when standard error itself fails, so
/// that is ignored.
pub(crate) fn diagnostic(message: impl fmt::Display) {
    let text = uridiff::text::visible_lines(&message.to_string());
    let _ = writeln!(io::stderr().lock(), "uridiff: {text}");
}

/// The exit code of a command's outcome, with its failure printed.
pub(crate) fn exit_code(outcome: Result<Status, Failure>) -> ExitCode {
    match outcome {
        Ok(status) => ExitCode::from(status as u8),
        Err(failure) => {
            let (code, say) = failure.exit();
            if say {
                diagnostic(&failure);
            }
            code
        }
    }
}
