//! External oracles: a parser in any language, behind a pipe.
//!
//! # Protocol v1
//!
//! An external oracle is a command that uridiff starts once (through
//! `sh -c COMMAND`, so it may be a whole shell command line) and keeps alive
//! for the whole run, feeding it inputs in batches over a pipe.
//!
//! 1. **Hello.** Before reading anything, the command writes one line to its
//!    standard output:
//!
//!    ```json
//!    {"uridiff_protocol": 1, "parser": "CPython 3.11.7 urllib.parse.urlsplit", "standard": "RFC 3986"}
//!    ```
//!
//!    `parser` names the parser with its version, `standard` what it
//!    implements (both strings). A missing `uridiff_protocol`, or a version
//!    other than 1, is an error: uridiff stops that oracle.
//! 2. **Inputs.** Each line of its standard input is then one input, written
//!    as one JSON string (UTF-8; JSON escapes keep NULs, newlines, control
//!    characters and any other text exact; a raw newline never occurs inside
//!    a line).
//! 3. **Answers.** For each input line, in order, the command writes exactly
//!    one line to its standard output: one JSON object with the keys
//!    - `verdict`: `"accept"`, `"reject"` or `"out-of-domain"` (an input the
//!      parser does not claim to handle);
//!    - `scheme`, `authority`, `userinfo`, `host`, `port`, `path`, `query`,
//!      `fragment`: the raw component as a string, `""` when present but
//!      empty, `null` when absent (`http://h/?` has query `""`, `http://h/`
//!      query `null`). A key left out means "this parser does not report
//!      this component" (it is then neither absent nor empty, just unknown);
//!      components are read only from an `accept`;
//!    - `message`: the parser's own message (a string, or `null`), used for
//!      `reject` and `out-of-domain`.
//!
//!    Keys uridiff does not know are ignored, so the protocol can grow
//!    without breaking adapters.
//! 4. **End.** When its standard input closes, the command exits. uridiff
//!    may also kill it (and its process group) at any time.
//!
//! The hello line, and all the answers to each batch, must come within a
//! timeout the caller sets (per batch, not per input).
//!
//! Answers may be buffered: uridiff writes a whole batch before it expects
//! the first answer, and reads while it writes, so an adapter should flush
//! when it has answered every input it has read (flushing per line works,
//! only slower). Standard error is free-form; its last lines are shown when
//! the command fails.
//!
//! # Faults
//!
//! Every fault gives an [`ExternalError`] that names the oracle, its command
//! and, where known, the input: a command that is not found ([`Missing`]),
//! exits ([`Exited`]), does not answer a batch within the timeout
//! ([`Timeout`]; an adapter that skips an input looks like this too), answers
//! with something that is not a protocol object ([`NotJson`]), writes more
//! lines than inputs ([`WrongCount`]) or a bad hello ([`BadHello`]). The
//! answers received before the fault come with the error
//! ([`ExternalError::answered`]). After a fault the process is killed and
//! every later batch fails at once ([`Stopped`]).
//!
//! A surplus line is noticed when it arrives with the batch's answers, at the
//! start of the next batch, or at [`External::finish`]; in the last two cases
//! the previous batch's answers may have been misaligned, and the error says
//! so.
//!
//! The process runs in its own process group, so killing it also ends what
//! `sh -c` started under it.
//!
//! [`Missing`]: ExternalError::Missing
//! [`Exited`]: ExternalError::Exited
//! [`Timeout`]: ExternalError::Timeout
//! [`NotJson`]: ExternalError::NotJson
//! [`WrongCount`]: ExternalError::WrongCount
//! [`BadHello`]: ExternalError::BadHello
//! [`Stopped`]: ExternalError::Stopped

use std::collections::VecDeque;
use std::fmt;
use std::io::{self, Read, Write};
use std::os::unix::fs::PermissionsExt;
use std::os::unix::process::CommandExt;
use std::path::Path;
use std::process::{Child, ChildStderr, ChildStdin, ChildStdout, Command, ExitStatus, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender, TryRecvError};
use std::sync::{Arc, Mutex, PoisonError};
use std::thread;
use std::time::{Duration, Instant};

use serde::{Deserialize, Deserializer};

use super::Outcome;
use crate::components::{Component, ComponentSet, Components};

/// The protocol version this client speaks.
pub const PROTOCOL_VERSION: u64 = 1;

/// How much of the command's standard error is kept for error messages.
const STDERR_TAIL: usize = 2048;

/// How long to wait, after the command closed its output, for its exit
/// status and the rest of its standard error.
const EXIT_GRACE: Duration = Duration::from_millis(1000);

/// What the command said about itself in its hello line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Hello {
    /// The parser, with its version.
    pub parser: String,
    /// The standard it implements.
    pub standard: String,
}

/// An adapter shipped with uridiff.
struct Shipped {
    name: &'static str,
    file: &'static str,
    source: &'static str,
    /// The program that runs it, looked up on `PATH` first.
    runtime: &'static str,
    /// Options before the file.
    options: &'static str,
    hint: &'static str,
}

const SHIPPED: &[Shipped] = &[
    Shipped {
        name: "python-urllib",
        file: "python-urllib.py",
        source: include_str!("../../adapters/python-urllib.py"),
        runtime: "python3",
        options: "-I",
        hint: "python3 not found: install python3 (apt-get install python3)",
    },
    Shipped {
        name: "java-uri",
        file: "JavaUri.java",
        source: include_str!("../../adapters/JavaUri.java"),
        runtime: "java",
        options: "-XX:+UseSerialGC -XX:TieredStopAtLevel=1",
        hint: "java not found: install a JDK 17 or later (apt-get install openjdk-17-jdk-headless)",
    },
];

const SHIPPED_NAMES: &[&str] = &["python-urllib", "java-uri"];

/// What the reader and writer threads report.
#[derive(Debug)]
enum Event {
    /// Complete lines of standard output, as they arrived.
    Lines(Vec<Vec<u8>>),
    /// Standard output closed.
    Eof,
    /// Reading standard output failed.
    ReadFailed(io::Error),
    /// Writing standard input failed.
    WriteFailed(io::Error),
}

/// Where in a batch a fault happened.
#[derive(Debug)]
pub struct Position {
    /// The index, in the batch, of the first input that got no (good)
    /// answer.
    pub index: usize,
    /// The batch's length.
    pub batch_len: usize,
    /// That input, quoted (shortened when long).
    pub input: String,
    /// The answers received before it, in order (`index` of them).
    pub answered: Vec<Outcome<'static>>,
}

impl fmt::Display for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.index == 0 {
            write!(
                f,
                "input {} (batch of {} starting there)",
                self.input, self.batch_len
            )
        } else {
            write!(
                f,
                "input {} (input {} of a batch of {}; the first {} answered)",
                self.input,
                self.index.saturating_add(1),
                self.batch_len,
                self.index
            )
        }
    }
}

/// A fault of an external oracle. Its `Display` names the oracle, its
/// command and, where known, the input.
#[derive(Debug)]
#[non_exhaustive]
pub enum ExternalError {
    /// The command (or the runtime of a shipped adapter) was not found or is
    /// not executable.
    Missing {
        /// The oracle's name.
        oracle: String,
        /// Its command.
        command: String,
        /// What is missing, with an install hint where one is known.
        detail: String,
    },
    /// The command exited (or closed its output) before answering.
    Exited {
        /// The oracle's name.
        oracle: String,
        /// Its command.
        command: String,
        /// Its exit status, when it exited.
        status: Option<ExitStatus>,
        /// The end of its standard error.
        stderr: String,
        /// The input it did not answer; `None` before the hello line.
        at: Option<Box<Position>>,
    },
    /// No answer (or no hello line) within the timeout.
    Timeout {
        /// The oracle's name.
        oracle: String,
        /// Its command.
        command: String,
        /// The timeout.
        after: Duration,
        /// The first input without an answer; `None` for the hello line.
        at: Option<Box<Position>>,
    },
    /// An answer that is not a JSON object of the protocol.
    NotJson {
        /// The oracle's name.
        oracle: String,
        /// Its command.
        command: String,
        /// The line, shortened when long.
        line: String,
        /// What is wrong with it.
        reason: String,
        /// The input it answered.
        at: Box<Position>,
    },
    /// More answer lines than inputs.
    WrongCount {
        /// The oracle's name.
        oracle: String,
        /// Its command.
        command: String,
        /// The number of inputs in the batch.
        expected: usize,
        /// The number of lines seen for it.
        got: usize,
        /// The batch's first input, quoted.
        first_input: String,
        /// Noticed only after that batch's answers were returned (they may
        /// be misaligned).
        earlier: bool,
    },
    /// A hello line that is missing or not protocol v1.
    BadHello {
        /// The oracle's name.
        oracle: String,
        /// Its command.
        command: String,
        /// The line, shortened when long.
        line: String,
        /// What is wrong with it.
        reason: String,
    },
    /// An I/O error talking to the command.
    Io {
        /// The oracle's name.
        oracle: String,
        /// Its command.
        command: String,
        /// What was being done.
        doing: &'static str,
        /// The error.
        source: io::Error,
    },
    /// The oracle stopped after an earlier fault.
    Stopped {
        /// The oracle's name.
        oracle: String,
        /// Its command.
        command: String,
        /// The earlier fault.
        reason: String,
    },
}

impl ExternalError {
    /// The oracle's name.
    pub fn oracle(&self) -> &str {
        match self {
            ExternalError::Missing { oracle, .. }
            | ExternalError::Exited { oracle, .. }
            | ExternalError::Timeout { oracle, .. }
            | ExternalError::NotJson { oracle, .. }
            | ExternalError::WrongCount { oracle, .. }
            | ExternalError::BadHello { oracle, .. }
            | ExternalError::Io { oracle, .. }
            | ExternalError::Stopped { oracle, .. } => oracle,
        }
    }

    /// A stable one-word kind: `missing`, `exited`, `timeout`, `not-json`,
    /// `wrong-count`, `bad-hello`, `io`, `stopped`.
    pub fn kind(&self) -> &'static str {
        match self {
            ExternalError::Missing { .. } => "missing",
            ExternalError::Exited { .. } => "exited",
            ExternalError::Timeout { .. } => "timeout",
            ExternalError::NotJson { .. } => "not-json",
            ExternalError::WrongCount { .. } => "wrong-count",
            ExternalError::BadHello { .. } => "bad-hello",
            ExternalError::Io { .. } => "io",
            ExternalError::Stopped { .. } => "stopped",
        }
    }

    /// Where in the batch it happened, when known.
    pub fn position(&self) -> Option<&Position> {
        match self {
            ExternalError::Exited { at: Some(at), .. }
            | ExternalError::Timeout { at: Some(at), .. }
            | ExternalError::NotJson { at, .. } => Some(at),
            _ => None,
        }
    }

    /// The answers of the failed batch received before the fault, in order
    /// (they are good: the fault came after them).
    pub fn answered(&self) -> &[Outcome<'static>] {
        self.position().map_or(&[], |p| &p.answered)
    }

    /// Like [`answered`](Self::answered), by value.
    pub fn into_answered(self) -> Vec<Outcome<'static>> {
        match self {
            ExternalError::Exited { at: Some(at), .. }
            | ExternalError::Timeout { at: Some(at), .. }
            | ExternalError::NotJson { at, .. } => at.answered,
            _ => Vec::new(),
        }
    }
}

impl fmt::Display for ExternalError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (oracle, command) = match self {
            ExternalError::Missing {
                oracle, command, ..
            }
            | ExternalError::Exited {
                oracle, command, ..
            }
            | ExternalError::Timeout {
                oracle, command, ..
            }
            | ExternalError::NotJson {
                oracle, command, ..
            }
            | ExternalError::WrongCount {
                oracle, command, ..
            }
            | ExternalError::BadHello {
                oracle, command, ..
            }
            | ExternalError::Io {
                oracle, command, ..
            }
            | ExternalError::Stopped {
                oracle, command, ..
            } => (oracle, command),
        };
        write!(f, "external oracle '{oracle}' ({command}): ")?;
        match self {
            ExternalError::Missing { detail, .. } => write!(f, "{detail}"),
            ExternalError::Exited {
                status, stderr, at, ..
            } => {
                match status {
                    Some(s) => write!(f, "exited ({s})")?,
                    None => write!(f, "closed its output")?,
                }
                match at {
                    Some(at) => write!(f, " before answering {at}")?,
                    None => write!(f, " before its hello line")?,
                }
                if stderr.is_empty() {
                    write!(f, "; no standard error")
                } else {
                    write!(f, "; standard error ends: {}", stderr.trim_end())
                }
            }
            ExternalError::Timeout { after, at, .. } => match at {
                Some(at) => write!(f, "no answer within {} for {at}", seconds(*after)),
                None => write!(f, "no hello line within {}", seconds(*after)),
            },
            ExternalError::NotJson {
                line, reason, at, ..
            } => write!(
                f,
                "the answer to {at} is not a protocol v1 object ({reason}): {line}"
            ),
            ExternalError::WrongCount {
                expected,
                got,
                first_input,
                earlier,
                ..
            } => {
                write!(
                    f,
                    "{got} answer lines for a batch of {expected} inputs starting with input {first_input}"
                )?;
                if *earlier {
                    write!(
                        f,
                        " (the surplus came after that batch's answers were taken: they may be misaligned)"
                    )?;
                }
                Ok(())
            }
            ExternalError::BadHello { line, reason, .. } => {
                write!(f, "bad hello line ({reason}): {line}")
            }
            ExternalError::Io { doing, source, .. } => write!(f, "{doing}: {source}"),
            ExternalError::Stopped { reason, .. } => {
                write!(f, "stopped after an earlier fault: {reason}")
            }
        }
    }
}

impl std::error::Error for ExternalError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            ExternalError::Io { source, .. } => Some(source),
            _ => None,
        }
    }
}

/// A long-lived external oracle process speaking protocol v1.
#[derive(Debug)]
pub struct External {
    name: String,
    command: String,
    hello: Hello,
    timeout: Duration,
    child: Child,
    /// Batches for the writer thread; `None` once standard input is closed.
    to_child: Option<Sender<Vec<u8>>>,
    events: Receiver<Event>,
    stderr: Arc<Mutex<VecDeque<u8>>>,
    /// Disconnects when the standard-error thread ends.
    stderr_done: Receiver<()>,
    /// Standard output has closed (seen between batches).
    eof: bool,
    /// The previous batch: its length and first input, quoted.
    last_batch: Option<(usize, String)>,
    /// Why this oracle stopped, after a fault.
    stopped: Option<String>,
    reaped: bool,
    /// The directory holding a shipped adapter's source.
    dir: Option<tempfile::TempDir>,
}

impl External {
    /// Starts `command` through `sh -c` (so it may use the shell's syntax),
    /// in its own process group, and reads its hello line, waiting at most
    /// `timeout` for it. `timeout` is also the time each batch may take (see
    /// [`set_timeout`](Self::set_timeout)). `name` is the oracle's name in
    /// errors and reports.
    pub fn spawn(name: &str, command: &str, timeout: Duration) -> Result<External, ExternalError> {
        let mut child = Command::new("sh")
            .arg("-c")
            .arg(command)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .process_group(0)
            .spawn()
            .map_err(|source| {
                if source.kind() == io::ErrorKind::NotFound {
                    ExternalError::Missing {
                        oracle: name.to_owned(),
                        command: command.to_owned(),
                        detail: "sh not found: the command runs through `sh -c`".to_owned(),
                    }
                } else {
                    ExternalError::Io {
                        oracle: name.to_owned(),
                        command: command.to_owned(),
                        doing: "starting it",
                        source,
                    }
                }
            })?;
        let pipes = (child.stdin.take(), child.stdout.take(), child.stderr.take());
        let (events_tx, events) = mpsc::channel();
        let (to_child, batches) = mpsc::channel();
        let stderr = Arc::new(Mutex::new(VecDeque::with_capacity(STDERR_TAIL)));
        let (done_tx, stderr_done) = mpsc::channel();
        let mut ext = External {
            name: name.to_owned(),
            command: command.to_owned(),
            hello: Hello {
                parser: String::new(),
                standard: String::new(),
            },
            timeout,
            child,
            to_child: Some(to_child),
            events,
            stderr: Arc::clone(&stderr),
            stderr_done,
            eof: false,
            last_batch: None,
            stopped: None,
            reaped: false,
            dir: None,
        };
        let (Some(stdin), Some(stdout), Some(stderr_pipe)) = pipes else {
            return Err(ext.io("opening its pipes", io::Error::other("a pipe is missing")));
        };
        let writer_events = events_tx.clone();
        let started = thread::Builder::new()
            .name(format!("uridiff-{name}-stdin"))
            .spawn(move || write_batches(stdin, &batches, &writer_events))
            .and_then(|_| {
                thread::Builder::new()
                    .name(format!("uridiff-{name}-stdout"))
                    .spawn(move || read_lines(stdout, &events_tx))
            })
            .and_then(|_| {
                thread::Builder::new()
                    .name(format!("uridiff-{name}-stderr"))
                    .spawn(move || keep_tail(stderr_pipe, &stderr, &done_tx))
            });
        if let Err(e) = started {
            return Err(ext.io("starting its threads", e));
        }
        ext.read_hello()?;
        Ok(ext)
    }

    /// A shipped adapter by name (see [`shipped_names`](Self::shipped_names)):
    /// its source, embedded in uridiff, is written to a private temporary
    /// directory and run with its runtime (`python3` or `java`), which must be
    /// on `PATH` (else [`ExternalError::Missing`] with an install hint).
    /// `None` for an unknown name.
    pub fn shipped(name: &str, timeout: Duration) -> Option<Result<External, ExternalError>> {
        let shipped = SHIPPED.iter().find(|s| s.name == name)?;
        Some(spawn_shipped(shipped, timeout))
    }

    /// The names of the shipped adapters.
    pub fn shipped_names() -> &'static [&'static str] {
        SHIPPED_NAMES
    }

    /// The source of a shipped adapter, as embedded.
    pub fn shipped_source(name: &str) -> Option<&'static str> {
        SHIPPED.iter().find(|s| s.name == name).map(|s| s.source)
    }

    /// The oracle's name.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The command it runs.
    pub fn command(&self) -> &str {
        &self.command
    }

    /// What the command said about itself.
    pub fn hello(&self) -> &Hello {
        &self.hello
    }

    /// The time a batch may take.
    pub fn timeout(&self) -> Duration {
        self.timeout
    }

    /// Sets the time a batch may take.
    pub fn set_timeout(&mut self, timeout: Duration) {
        self.timeout = timeout;
    }

    /// Sends the batch (one JSON string per line), then reads exactly
    /// `inputs.len()` answers, all within the timeout (for the whole batch).
    /// Writing happens on another thread while this one reads, so a batch of
    /// any size cannot deadlock on full pipes. After an error the process is
    /// killed and every later call fails with [`ExternalError::Stopped`].
    pub fn run_batch(&mut self, inputs: &[&str]) -> Result<Vec<Outcome<'static>>, ExternalError> {
        if let Some(reason) = &self.stopped {
            return Err(ExternalError::Stopped {
                oracle: self.name.clone(),
                command: self.command.clone(),
                reason: reason.clone(),
            });
        }
        let result = self.exchange(inputs);
        if let Err(e) = &result {
            self.stopped = Some(e.to_string());
            self.kill();
        }
        result
    }

    /// Closes the command's input and waits (within the timeout) for it to
    /// end: an error when it wrote more answers than it had inputs, or exited
    /// with a failure status.
    pub fn finish(mut self) -> Result<(), ExternalError> {
        if let Some(reason) = self.stopped.take() {
            return Err(ExternalError::Stopped {
                oracle: self.name.clone(),
                command: self.command.clone(),
                reason,
            });
        }
        self.to_child = None;
        let deadline = Instant::now().checked_add(self.timeout);
        let mut surplus = 0usize;
        while !self.eof {
            match self.next_event(deadline) {
                Ok(Event::Lines(lines)) => surplus = surplus.saturating_add(lines.len()),
                Ok(Event::Eof) => self.eof = true,
                Ok(Event::WriteFailed(_)) => {}
                Ok(Event::ReadFailed(e)) => return Err(self.io("reading its output", e)),
                Err(RecvTimeoutError::Timeout) => {
                    return Err(ExternalError::Timeout {
                        oracle: self.name.clone(),
                        command: self.command.clone(),
                        after: self.timeout,
                        at: None,
                    });
                }
                Err(RecvTimeoutError::Disconnected) => self.eof = true,
            }
        }
        if surplus > 0 {
            return Err(self.surplus_after_batch(surplus));
        }
        let status = self.wait_exit(deadline);
        match status {
            Some(s) if s.success() => Ok(()),
            _ => Err(self.exited(status, None)),
        }
    }

    fn exchange(&mut self, inputs: &[&str]) -> Result<Vec<Outcome<'static>>, ExternalError> {
        // Anything that arrived since the previous batch is a surplus of it.
        let mut late = 0usize;
        loop {
            match self.events.try_recv() {
                Ok(Event::Lines(lines)) => late = late.saturating_add(lines.len()),
                Ok(Event::Eof) => self.eof = true,
                Ok(Event::WriteFailed(_)) => {}
                Ok(Event::ReadFailed(e)) => return Err(self.io("reading its output", e)),
                Err(TryRecvError::Empty) => break,
                Err(TryRecvError::Disconnected) => {
                    self.eof = true;
                    break;
                }
            }
        }
        if late > 0 {
            return Err(self.surplus_after_batch(late));
        }
        if inputs.is_empty() {
            return Ok(Vec::new());
        }
        let first = quote(inputs.first().copied().unwrap_or_default());
        self.last_batch = Some((inputs.len(), first.clone()));
        if self.eof {
            let status = self.wait_exit(Instant::now().checked_add(EXIT_GRACE));
            return Err(self.exited(status, Some(position(inputs, Vec::new()))));
        }

        let mut buf = Vec::with_capacity(inputs.iter().map(|i| i.len() + 3).sum());
        for input in inputs {
            if let Err(e) = serde_json::to_writer(&mut buf, input) {
                return Err(self.io("encoding an input", io::Error::other(e)));
            }
            buf.push(b'\n');
        }
        let sent = self
            .to_child
            .as_ref()
            .is_some_and(|tx| tx.send(buf).is_ok());
        if !sent {
            // The writer is gone: the command's input is closed, so an
            // end of output is on its way (or already here).
            let e = io::Error::new(io::ErrorKind::BrokenPipe, "its input is closed");
            return Err(self.io("sending a batch", e));
        }

        let deadline = Instant::now().checked_add(self.timeout);
        let mut answers: Vec<Outcome<'static>> = Vec::with_capacity(inputs.len());
        let mut surplus = 0usize;
        while answers.len() < inputs.len() {
            match self.next_event(deadline) {
                Ok(Event::Lines(lines)) => {
                    for line in lines {
                        if answers.len() == inputs.len() {
                            surplus = surplus.saturating_add(1);
                            continue;
                        }
                        match parse_answer(&line) {
                            Ok(outcome) => answers.push(outcome),
                            Err(reason) => {
                                return Err(ExternalError::NotJson {
                                    oracle: self.name.clone(),
                                    command: self.command.clone(),
                                    line: quote_bytes(&line),
                                    reason,
                                    at: Box::new(position(inputs, answers)),
                                });
                            }
                        }
                    }
                }
                Ok(Event::Eof) | Err(RecvTimeoutError::Disconnected) => {
                    self.eof = true;
                    let status = self.wait_exit(Instant::now().checked_add(EXIT_GRACE));
                    return Err(self.exited(status, Some(position(inputs, answers))));
                }
                Ok(Event::ReadFailed(e)) => return Err(self.io("reading its output", e)),
                Ok(Event::WriteFailed(e)) => {
                    if e.kind() != io::ErrorKind::BrokenPipe {
                        return Err(self.io("writing its input", e));
                    }
                    // A closed pipe: the end of its output will follow.
                }
                Err(RecvTimeoutError::Timeout) => {
                    return Err(ExternalError::Timeout {
                        oracle: self.name.clone(),
                        command: self.command.clone(),
                        after: self.timeout,
                        at: Some(Box::new(position(inputs, answers))),
                    });
                }
            }
        }
        // Lines that already arrived behind the last answer are a surplus.
        loop {
            match self.events.try_recv() {
                Ok(Event::Lines(lines)) => surplus = surplus.saturating_add(lines.len()),
                Ok(Event::Eof) => {
                    self.eof = true;
                    break;
                }
                Ok(Event::WriteFailed(_) | Event::ReadFailed(_))
                | Err(TryRecvError::Empty | TryRecvError::Disconnected) => break,
            }
        }
        if surplus > 0 {
            return Err(ExternalError::WrongCount {
                oracle: self.name.clone(),
                command: self.command.clone(),
                expected: inputs.len(),
                got: inputs.len().saturating_add(surplus),
                first_input: first,
                earlier: false,
            });
        }
        Ok(answers)
    }

    fn read_hello(&mut self) -> Result<(), ExternalError> {
        let deadline = Instant::now().checked_add(self.timeout);
        loop {
            match self.next_event(deadline) {
                Ok(Event::Lines(lines)) => {
                    let mut lines = lines.into_iter();
                    let Some(line) = lines.next() else { continue };
                    self.hello = parse_hello(&line).map_err(|reason| ExternalError::BadHello {
                        oracle: self.name.clone(),
                        command: self.command.clone(),
                        line: quote_bytes(&line),
                        reason,
                    })?;
                    if let Some(extra) = lines.next() {
                        return Err(ExternalError::BadHello {
                            oracle: self.name.clone(),
                            command: self.command.clone(),
                            line: quote_bytes(&extra),
                            reason: "more than one line before any input".to_owned(),
                        });
                    }
                    return Ok(());
                }
                Ok(Event::Eof) | Err(RecvTimeoutError::Disconnected) => {
                    self.eof = true;
                    let status = self.wait_exit(Instant::now().checked_add(EXIT_GRACE));
                    // sh's "command not found" and "not executable".
                    if let Some(code @ (126 | 127)) = status.and_then(|s| s.code()) {
                        let stderr = self.stderr_tail();
                        let what = if code == 127 {
                            "command not found"
                        } else {
                            "command not executable"
                        };
                        return Err(ExternalError::Missing {
                            oracle: self.name.clone(),
                            command: self.command.clone(),
                            detail: format!("{what} (sh exited with {code}): {}", stderr.trim()),
                        });
                    }
                    return Err(self.exited(status, None));
                }
                Ok(Event::ReadFailed(e)) => return Err(self.io("reading its hello line", e)),
                Ok(Event::WriteFailed(_)) => {}
                Err(RecvTimeoutError::Timeout) => {
                    return Err(ExternalError::Timeout {
                        oracle: self.name.clone(),
                        command: self.command.clone(),
                        after: self.timeout,
                        at: None,
                    });
                }
            }
        }
    }

    fn next_event(&self, deadline: Option<Instant>) -> Result<Event, RecvTimeoutError> {
        match deadline {
            Some(d) => self
                .events
                .recv_timeout(d.saturating_duration_since(Instant::now())),
            None => self
                .events
                .recv()
                .map_err(|_| RecvTimeoutError::Disconnected),
        }
    }

    fn surplus_after_batch(&self, surplus: usize) -> ExternalError {
        let (expected, first_input) = self
            .last_batch
            .clone()
            .unwrap_or_else(|| (0, "(before any input)".to_owned()));
        ExternalError::WrongCount {
            oracle: self.name.clone(),
            command: self.command.clone(),
            expected,
            got: expected.saturating_add(surplus),
            first_input,
            earlier: true,
        }
    }

    fn io(&self, doing: &'static str, source: io::Error) -> ExternalError {
        ExternalError::Io {
            oracle: self.name.clone(),
            command: self.command.clone(),
            doing,
            source,
        }
    }

    fn exited(&self, status: Option<ExitStatus>, at: Option<Position>) -> ExternalError {
        ExternalError::Exited {
            oracle: self.name.clone(),
            command: self.command.clone(),
            status,
            stderr: self.stderr_tail(),
            at: at.map(Box::new),
        }
    }

    /// Waits until `deadline` for the process to exit; `None` when it did
    /// not (it is killed then) or its status could not be read.
    fn wait_exit(&mut self, deadline: Option<Instant>) -> Option<ExitStatus> {
        loop {
            match self.child.try_wait() {
                Ok(Some(status)) => {
                    self.reaped = true;
                    return Some(status);
                }
                Ok(None) => {}
                Err(_) => return None,
            }
            if deadline.is_some_and(|d| Instant::now() >= d) {
                self.kill();
                return None;
            }
            thread::sleep(Duration::from_millis(5));
        }
    }

    /// The end of the command's standard error, once it has closed (or after
    /// a short grace).
    fn stderr_tail(&self) -> String {
        let _ = self.stderr_done.recv_timeout(EXIT_GRACE);
        let tail = self.stderr.lock().unwrap_or_else(PoisonError::into_inner);
        let bytes: Vec<u8> = tail.iter().copied().collect();
        String::from_utf8_lossy(&bytes).into_owned()
    }

    /// Kills the process group and reaps the process.
    fn kill(&mut self) {
        self.to_child = None;
        if self.reaped {
            return;
        }
        if let Ok(None) = self.child.try_wait() {
            // The process group first (what `sh -c` started), while the
            // unreaped leader keeps the group id from being reused.
            let pgid = self.child.id();
            let _ = Command::new("sh")
                .arg("-c")
                .arg(format!("kill -9 -{pgid} 2>/dev/null"))
                .stdin(Stdio::null())
                .stdout(Stdio::null())
                .stderr(Stdio::null())
                .status();
            let _ = self.child.kill();
        }
        let _ = self.child.wait();
        self.reaped = true;
    }
}

impl Drop for External {
    fn drop(&mut self) {
        self.kill();
        // The adapter's directory (if any) goes after the process.
        self.dir.take();
    }
}

fn spawn_shipped(shipped: &Shipped, timeout: Duration) -> Result<External, ExternalError> {
    let missing = |detail: &str| ExternalError::Missing {
        oracle: shipped.name.to_owned(),
        command: format!("{} {}", shipped.runtime, shipped.file),
        detail: detail.to_owned(),
    };
    if !on_path(shipped.runtime) {
        return Err(missing(shipped.hint));
    }
    let io_error = |doing: &'static str, source: io::Error| ExternalError::Io {
        oracle: shipped.name.to_owned(),
        command: format!("{} {}", shipped.runtime, shipped.file),
        doing,
        source,
    };
    let dir = tempfile::Builder::new()
        .prefix("uridiff-adapter-")
        .tempdir()
        .map_err(|e| io_error("creating a temporary directory", e))?;
    let path = dir.path().join(shipped.file);
    std::fs::write(&path, shipped.source).map_err(|e| io_error("writing the adapter", e))?;
    let Some(path) = path.to_str() else {
        return Err(io_error(
            "writing the adapter",
            io::Error::other("the temporary path is not UTF-8"),
        ));
    };
    let command = format!(
        "{} {} {}",
        shipped.runtime,
        shipped.options,
        shell_quote(path)
    );
    let mut ext = External::spawn(shipped.name, &command, timeout)?;
    ext.dir = Some(dir);
    Ok(ext)
}

/// Is `program` an executable file in a directory of `PATH`?
fn on_path(program: &str) -> bool {
    std::env::var_os("PATH").is_some_and(|paths| {
        std::env::split_paths(&paths).any(|dir| is_executable(&dir.join(program)))
    })
}

fn is_executable(path: &Path) -> bool {
    std::fs::metadata(path).is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
}

/// `s` quoted for `sh`.
fn shell_quote(s: &str) -> String {
    format!("'{}'", s.replace('\'', r"'\''"))
}

fn seconds(d: Duration) -> String {
    if d.subsec_nanos() == 0 {
        format!("{} s", d.as_secs())
    } else {
        format!("{:.1} s", d.as_secs_f64())
    }
}

/// An input for a message: Rust-quoted, shortened past 200 characters.
fn quote(input: &str) -> String {
    const KEEP: usize = 200;
    match input.char_indices().nth(KEEP) {
        None => format!("{input:?}"),
        Some((end, _)) => {
            let head = input.get(..end).unwrap_or_default();
            format!("{head:?}… ({} bytes)", input.len())
        }
    }
}

fn quote_bytes(line: &[u8]) -> String {
    quote(&String::from_utf8_lossy(line))
}

fn position(inputs: &[&str], answered: Vec<Outcome<'static>>) -> Position {
    let index = answered.len();
    Position {
        index,
        batch_len: inputs.len(),
        input: quote(inputs.get(index).copied().unwrap_or_default()),
        answered,
    }
}

/// The writer thread: writes each batch, flushing after it.
fn write_batches(mut stdin: ChildStdin, batches: &Receiver<Vec<u8>>, events: &Sender<Event>) {
    for batch in batches {
        if let Err(e) = stdin.write_all(&batch).and_then(|()| stdin.flush()) {
            let _ = events.send(Event::WriteFailed(e));
            return;
        }
    }
    // The sender is gone: dropping `stdin` closes the command's input.
}

/// The reader thread: sends the complete lines of each read, then the end.
fn read_lines(mut stdout: ChildStdout, events: &Sender<Event>) {
    let mut buf = vec![0u8; 1 << 16];
    let mut partial: Vec<u8> = Vec::new();
    loop {
        let n = match stdout.read(&mut buf) {
            Ok(0) => break,
            Ok(n) => n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => {
                let _ = events.send(Event::ReadFailed(e));
                return;
            }
        };
        let chunk = buf.get(..n).unwrap_or_default();
        let mut lines = Vec::new();
        let mut pieces = chunk.split(|&b| b == b'\n').peekable();
        while let Some(piece) = pieces.next() {
            partial.extend_from_slice(piece);
            if pieces.peek().is_some() {
                lines.push(std::mem::take(&mut partial));
            }
        }
        if !lines.is_empty() && events.send(Event::Lines(lines)).is_err() {
            return;
        }
    }
    if !partial.is_empty() {
        // A last line without its newline still counts.
        let _ = events.send(Event::Lines(vec![partial]));
    }
    let _ = events.send(Event::Eof);
}

/// The standard-error thread: keeps the last [`STDERR_TAIL`] bytes.
fn keep_tail(mut stderr: ChildStderr, tail: &Mutex<VecDeque<u8>>, _done: &Sender<()>) {
    let mut buf = [0u8; 4096];
    loop {
        match stderr.read(&mut buf) {
            Ok(0) => return,
            Ok(n) => {
                let mut tail = tail.lock().unwrap_or_else(PoisonError::into_inner);
                tail.extend(buf.get(..n).unwrap_or_default());
                let excess = tail.len().saturating_sub(STDERR_TAIL);
                tail.drain(..excess);
            }
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(_) => return,
        }
    }
}

fn parse_hello(line: &[u8]) -> Result<Hello, String> {
    let value: serde_json::Value =
        serde_json::from_slice(line).map_err(|e| format!("not JSON: {e}"))?;
    let object = value
        .as_object()
        .ok_or_else(|| "not a JSON object".to_owned())?;
    match object.get("uridiff_protocol") {
        None => return Err("no \"uridiff_protocol\" key".to_owned()),
        Some(v) if v.as_u64() == Some(PROTOCOL_VERSION) => {}
        Some(v) => {
            return Err(format!(
                "protocol version {v}; this uridiff speaks {PROTOCOL_VERSION}"
            ));
        }
    }
    let text = |key: &str| match object.get(key) {
        Some(serde_json::Value::String(s)) => Ok(s.clone()),
        Some(_) => Err(format!("\"{key}\" is not a string")),
        None => Err(format!("no \"{key}\" key")),
    };
    Ok(Hello {
        parser: text("parser")?,
        standard: text("standard")?,
    })
}

#[derive(Deserialize)]
#[serde(rename_all = "kebab-case")]
enum WireVerdict {
    Accept,
    Reject,
    OutOfDomain,
}

/// One answer line. A component is `None` when its key is missing (not
/// reported), `Some(None)` when it is `null` (absent).
#[derive(Deserialize)]
struct Answer {
    verdict: WireVerdict,
    #[serde(default, deserialize_with = "present")]
    scheme: Option<Option<String>>,
    #[serde(default, deserialize_with = "present")]
    authority: Option<Option<String>>,
    #[serde(default, deserialize_with = "present")]
    userinfo: Option<Option<String>>,
    #[serde(default, deserialize_with = "present")]
    host: Option<Option<String>>,
    #[serde(default, deserialize_with = "present")]
    port: Option<Option<String>>,
    #[serde(default, deserialize_with = "present")]
    path: Option<Option<String>>,
    #[serde(default, deserialize_with = "present")]
    query: Option<Option<String>>,
    #[serde(default, deserialize_with = "present")]
    fragment: Option<Option<String>>,
    #[serde(default)]
    message: Option<String>,
}

/// A key that is there: its value is a string or `null`.
fn present<'de, D: Deserializer<'de>>(d: D) -> Result<Option<Option<String>>, D::Error> {
    Option::<String>::deserialize(d).map(Some)
}

fn parse_answer(line: &[u8]) -> Result<Outcome<'static>, String> {
    // serde would take a JSON array for the struct too, field by field.
    if line.trim_ascii_start().first() != Some(&b'{') {
        return Err(
            match serde_json::from_slice::<serde::de::IgnoredAny>(line) {
                Ok(_) => "JSON, but not an object".to_owned(),
                Err(e) => e.to_string(),
            },
        );
    }
    let answer: Answer = serde_json::from_slice(line).map_err(|e| e.to_string())?;
    Ok(match answer.verdict {
        WireVerdict::Reject => Outcome::reject(answer.message.unwrap_or_default()),
        WireVerdict::OutOfDomain => Outcome::out_of_domain(answer.message.unwrap_or_default()),
        WireVerdict::Accept => {
            let fields = [
                (Component::Scheme, answer.scheme),
                (Component::Authority, answer.authority),
                (Component::Userinfo, answer.userinfo),
                (Component::Host, answer.host),
                (Component::Port, answer.port),
                (Component::Path, answer.path),
                (Component::Query, answer.query),
                (Component::Fragment, answer.fragment),
            ];
            let reported = fields
                .iter()
                .filter(|(_, v)| v.is_some())
                .fold(ComponentSet::EMPTY, |set, (c, _)| set.with(*c));
            let mut components = Components::new(reported);
            for (c, value) in fields {
                if let Some(value) = value {
                    components.set(c, value);
                }
            }
            Outcome::accept(components)
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::oracle::Verdict;

    #[test]
    fn answers_map_keys_to_reported_components() {
        let o = parse_answer(
            br#"{"verdict": "accept", "scheme": "http", "authority": null, "query": "", "extra": 1}"#,
        )
        .unwrap();
        assert_eq!(o.verdict, Verdict::Accept);
        let reported = o.components.reported();
        assert!(reported.contains(Component::Scheme));
        assert!(reported.contains(Component::Authority));
        assert!(reported.contains(Component::Query));
        assert!(!reported.contains(Component::Host));
        assert_eq!(o.components.get(Component::Scheme), Some("http"));
        assert_eq!(o.components.get(Component::Authority), None);
        assert_eq!(o.components.get(Component::Query), Some(""));
    }

    #[test]
    fn reject_and_out_of_domain_keep_the_message() {
        let o = parse_answer(br#"{"verdict": "reject", "message": "bad port"}"#).unwrap();
        assert_eq!(o.verdict, Verdict::Reject);
        assert_eq!(o.message.as_deref(), Some("bad port"));
        let o = parse_answer(br#"{"verdict": "out-of-domain", "message": null}"#).unwrap();
        assert_eq!(o.verdict, Verdict::OutOfDomain);
    }

    #[test]
    fn bad_answers_are_refused() {
        assert!(parse_answer(b"not json").is_err());
        assert!(parse_answer(br#"{"verdict": "maybe"}"#).is_err());
        assert!(parse_answer(br#"{"scheme": "http"}"#).is_err());
        assert!(parse_answer(br#"{"verdict": "accept", "host": 3}"#).is_err());
        assert!(parse_answer(br#"["accept"]"#).is_err());
    }

    #[test]
    fn hello_needs_version_1() {
        let ok = parse_hello(br#"{"uridiff_protocol": 1, "parser": "p 1", "standard": "s"}"#);
        assert_eq!(
            ok,
            Ok(Hello {
                parser: "p 1".into(),
                standard: "s".into()
            })
        );
        assert!(
            parse_hello(br#"{"uridiff_protocol": 2, "parser": "p", "standard": "s"}"#).is_err()
        );
        assert!(parse_hello(br#"{"parser": "p", "standard": "s"}"#).is_err());
        assert!(
            parse_hello(br#"{"uridiff_protocol": "1", "parser": "p", "standard": "s"}"#).is_err()
        );
        assert!(parse_hello(b"hello").is_err());
    }

    #[test]
    fn long_inputs_are_shortened_in_messages() {
        let long = "a".repeat(1000);
        let q = quote(&long);
        assert!(q.len() < 300, "{q}");
        assert!(q.ends_with("(1000 bytes)"), "{q}");
        assert_eq!(quote("a\"b"), r#""a\"b""#);
    }

    #[test]
    fn shell_quoting() {
        assert_eq!(shell_quote("/tmp/a b"), "'/tmp/a b'");
        assert_eq!(shell_quote("it's"), r"'it'\''s'");
    }
}
