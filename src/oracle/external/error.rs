//! [`ExternalError`]: every fault of an external oracle, one shape. The
//! oracle's name and command are common to all; what went wrong is a
//! private kind, read through accessors, so that kinds can be added
//! without breaking callers.

use std::fmt;
use std::io;
use std::process::ExitStatus;
use std::time::Duration;

use crate::oracle::Outcome;

/// Where in a batch a fault happened.
#[derive(Debug)]
pub struct Position {
    /// The index, in the batch, of the first input that got no (good)
    /// answer; the batch's length when every input was answered and the
    /// fault came after the last answer.
    pub index: usize,
    /// The batch's length.
    pub batch_len: usize,
    /// That input (the batch's last one when `index == batch_len`), quoted,
    /// whole.
    pub input: String,
    /// The answers kept from before the fault, in order: the first `index`
    /// under protocol v2 (their ids matched), none under v1 (see
    /// [`discarded`](Self::discarded)).
    pub answered: Vec<Outcome<'static>>,
    /// Protocol v1 has no ids: the answers that came before the fault
    /// cannot be shown to belong to their inputs, so the whole batch is
    /// dropped.
    pub discarded: bool,
}

impl fmt::Display for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (index, len, input) = (self.index, self.batch_len, &self.input);
        if index >= len {
            write!(
                f,
                "the batch of {len} ending with input {input} (every input answered)"
            )?;
        } else if index == 0 {
            write!(f, "input {input} (batch of {len} starting there)")?;
        } else {
            write!(
                f,
                "input {input} (input {} of a batch of {len}; the first {index} answered)",
                index.saturating_add(1),
            )?;
        }
        if self.discarded && index > 0 {
            write!(
                f,
                "; that batch's answers are discarded: protocol v1 has no ids to align them"
            )?;
        }
        Ok(())
    }
}

/// A fault of an external oracle: its `Display` names the oracle, its
/// command and, where known, the input, never shortened (whoever shows it
/// may shorten it for display).
#[derive(Debug)]
pub struct ExternalError {
    oracle: String,
    command: String,
    kind: Kind,
}

/// What went wrong.
#[derive(Debug)]
pub(super) enum Kind {
    /// The command (or the runtime or library of a shipped adapter) was not
    /// found or is not executable; `detail` says which, with an install
    /// hint where one is known.
    Missing { detail: String },
    /// It exited (or closed its output) before its hello line (`at` is
    /// `None`) or before answering every input of a batch.
    Exited {
        status: Option<ExitStatus>,
        stderr: String,
        at: Option<Box<Position>>,
    },
    /// No hello line (`at` is `None`), or not every answer of a batch,
    /// within the timeout.
    Timeout {
        after: Duration,
        at: Option<Box<Position>>,
    },
    /// An answer that is not a JSON object of the protocol.
    NotJson {
        version: u64,
        line: String,
        reason: String,
        at: Option<Box<Position>>,
    },
    /// Protocol v1: more answer lines than inputs.
    WrongCount {
        expected: usize,
        got: usize,
        first_input: String,
        /// Noticed only after that batch's answers were returned.
        earlier: bool,
    },
    /// Protocol v2: an answer whose id is not the oldest unanswered
    /// request's (`expected` is `None` when every request was answered).
    WrongId {
        expected: Option<u64>,
        got: Option<u64>,
        at: Option<Box<Position>>,
    },
    /// A line longer than the limit (the hello line when `at` is `None`).
    LineTooLong {
        limit: usize,
        at: Option<Box<Position>>,
    },
    /// A hello line that is not one of the protocol.
    BadHello { line: String, reason: String },
    /// An I/O error talking to it.
    Io {
        doing: &'static str,
        source: io::Error,
    },
    /// It stopped after an earlier fault.
    Stopped { reason: String },
    /// Every input answered, then it did not exit after its input closed.
    NoExit { after: Duration },
    /// Every input answered, then it exited with a failure status.
    FailedAtEnd { status: ExitStatus, stderr: String },
}

impl ExternalError {
    pub(super) fn new(oracle: &str, command: &str, kind: Kind) -> Self {
        ExternalError {
            oracle: oracle.to_owned(),
            command: command.to_owned(),
            kind,
        }
    }

    /// The oracle's name.
    pub fn oracle(&self) -> &str {
        &self.oracle
    }

    /// Its command, as shown in the message.
    pub fn command(&self) -> &str {
        &self.command
    }

    /// A stable one-word kind: `missing`, `exited`, `timeout`, `not-json`,
    /// `wrong-count`, `wrong-id`, `line-too-long`, `bad-hello`, `io`,
    /// `stopped`, `no-exit`, `failed-at-end`.
    pub fn kind(&self) -> &'static str {
        match self.kind {
            Kind::Missing { .. } => "missing",
            Kind::Exited { .. } => "exited",
            Kind::Timeout { .. } => "timeout",
            Kind::NotJson { .. } => "not-json",
            Kind::WrongCount { .. } => "wrong-count",
            Kind::WrongId { .. } => "wrong-id",
            Kind::LineTooLong { .. } => "line-too-long",
            Kind::BadHello { .. } => "bad-hello",
            Kind::Io { .. } => "io",
            Kind::Stopped { .. } => "stopped",
            Kind::NoExit { .. } => "no-exit",
            Kind::FailedAtEnd { .. } => "failed-at-end",
        }
    }

    /// Its exit status, when the fault is that it exited.
    pub fn exit_status(&self) -> Option<ExitStatus> {
        match &self.kind {
            Kind::Exited { status, .. } => *status,
            Kind::FailedAtEnd { status, .. } => Some(*status),
            _ => None,
        }
    }

    /// Where in the batch it happened, when known.
    pub fn position(&self) -> Option<&Position> {
        match &self.kind {
            Kind::Exited { at, .. }
            | Kind::Timeout { at, .. }
            | Kind::NotJson { at, .. }
            | Kind::WrongId { at, .. }
            | Kind::LineTooLong { at, .. } => at.as_deref(),
            _ => None,
        }
    }

    /// The answers of the failed batch that are kept, in order: the
    /// outcomes of its first inputs (see [`Position::answered`]).
    pub fn answered(&self) -> &[Outcome<'static>] {
        self.position().map_or(&[], |p| &p.answered)
    }

    /// Moves the kept answers out (the error keeps its message).
    pub(crate) fn take_answered(&mut self) -> Vec<Outcome<'static>> {
        self.kind
            .at_mut()
            .map(|at| std::mem::take(&mut at.answered))
            .unwrap_or_default()
    }
}

impl Kind {
    /// The place of a fault that happens in a batch.
    fn at_mut(&mut self) -> Option<&mut Position> {
        match self {
            Kind::Exited { at, .. }
            | Kind::Timeout { at, .. }
            | Kind::NotJson { at, .. }
            | Kind::WrongId { at, .. }
            | Kind::LineTooLong { at, .. } => at.as_deref_mut(),
            _ => None,
        }
    }

    /// This fault, placed at `position` in a batch (a kind that happens
    /// outside batches stays as it is).
    pub(super) fn at(mut self, position: Position) -> Kind {
        match &mut self {
            Kind::Exited { at, .. }
            | Kind::Timeout { at, .. }
            | Kind::NotJson { at, .. }
            | Kind::WrongId { at, .. }
            | Kind::LineTooLong { at, .. } => *at = Some(Box::new(position)),
            _ => {}
        }
        self
    }
}

impl fmt::Display for ExternalError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "external oracle '{}' ({}): ", self.oracle, self.command)?;
        match &self.kind {
            Kind::Missing { detail } => write!(f, "{detail}"),
            Kind::Exited { status, stderr, at } => {
                match status {
                    Some(s) => write!(f, "exited ({s})")?,
                    None => write!(f, "closed its output")?,
                }
                match at {
                    Some(at) => write!(f, " before answering {at}")?,
                    None => write!(f, " before its hello line")?,
                }
                write_stderr(f, stderr)
            }
            Kind::Timeout { after, at } => match at {
                Some(at) => write!(f, "no answer within {} for {at}", seconds(*after)),
                None => write!(f, "no hello line within {}", seconds(*after)),
            },
            Kind::NotJson {
                version,
                line,
                reason,
                at,
            } => {
                match at {
                    Some(at) => write!(f, "the answer to {at}")?,
                    None => write!(f, "an answer")?,
                }
                write!(f, " is not a protocol v{version} object ({reason}): {line}")
            }
            Kind::WrongCount {
                expected,
                got,
                first_input,
                earlier,
            } => wrong_count(f, *expected, *got, first_input, *earlier),
            Kind::WrongId { expected, got, at } => wrong_id(f, *expected, *got, at.as_deref()),
            Kind::LineTooLong { limit, at } => {
                write!(
                    f,
                    "wrote a line longer than {limit} bytes without a newline"
                )?;
                match at {
                    Some(at) => write!(f, " in answer to {at}"),
                    None => write!(f, " for its hello line"),
                }?;
                write!(f, "; it was stopped there")
            }
            Kind::BadHello { line, reason } => write!(f, "bad hello line ({reason}): {line}"),
            Kind::Io { doing, source } => write!(f, "{doing}: {source}"),
            Kind::Stopped { reason } => write!(f, "stopped after an earlier fault: {reason}"),
            Kind::NoExit { after } => write!(
                f,
                "answered every input but did not exit within {} after its input closed (it was killed)",
                seconds(*after)
            ),
            Kind::FailedAtEnd { status, stderr } => {
                match status.code() {
                    Some(code) => write!(f, "exited with status {code} after its last answer")?,
                    None => write!(f, "ended ({status}) after its last answer")?,
                }
                write_stderr(f, stderr)
            }
        }
    }
}

/// A v1 batch answered with the wrong number of lines: how many, and what
/// became of the answers.
fn wrong_count(
    f: &mut fmt::Formatter<'_>,
    expected: usize,
    got: usize,
    first_input: &str,
    earlier: bool,
) -> fmt::Result {
    write!(
        f,
        "{got} answer lines for a batch of {expected} inputs starting with input {first_input}"
    )?;
    if earlier {
        write!(
            f,
            " (the surplus came after that batch's answers were taken: they may be misaligned)"
        )
    } else {
        write!(
            f,
            " (the batch's answers are discarded: protocol v1 has no ids to align them)"
        )
    }
}

/// A v2 answer out of step: the id expected (none once every request was
/// answered), the one that came, and where.
fn wrong_id(
    f: &mut fmt::Formatter<'_>,
    expected: Option<u64>,
    got: Option<u64>,
    at: Option<&Position>,
) -> fmt::Result {
    let got = match got {
        Some(id) => format!("an answer with id {id}"),
        None => "an answer without an id".to_owned(),
    };
    match (expected, at) {
        (Some(expected), Some(at)) => write!(
            f,
            "expected the answer with id {expected}, got {got}, for {at}"
        ),
        (Some(expected), None) => {
            write!(f, "expected the answer with id {expected}, got {got}")
        }
        (None, Some(at)) => {
            write!(f, "expected no more answers, got {got}, after {at}")
        }
        (None, None) => write!(
            f,
            "expected no more answers (every request was answered), got {got}"
        ),
    }
}

impl std::error::Error for ExternalError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match &self.kind {
            Kind::Io { source, .. } => Some(source),
            _ => None,
        }
    }
}

fn write_stderr(f: &mut fmt::Formatter<'_>, stderr: &str) -> fmt::Result {
    if stderr.is_empty() {
        write!(f, "; no standard error")
    } else {
        write!(f, "; standard error ends: {}", stderr.trim_end())
    }
}

fn seconds(d: Duration) -> String {
    if d.subsec_nanos() == 0 {
        format!("{} s", d.as_secs())
    } else {
        format!("{:.1} s", d.as_secs_f64())
    }
}

/// A mistake in what was asked for, found before any process starts: a
/// bad oracle name, an unknown shipped adapter, a malformed
/// `NAME=COMMAND`. Its `Display` names the bad name or argument.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UsageError {
    name: String,
    message: String,
}

impl UsageError {
    pub(super) fn new(name: &str, message: String) -> Self {
        UsageError {
            name: name.to_owned(),
            message,
        }
    }

    /// The name (or argument) at fault.
    pub fn name(&self) -> &str {
        &self.name
    }
}

impl fmt::Display for UsageError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for UsageError {}
