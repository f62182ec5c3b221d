//! [`External`]: one external oracle, speaking the protocol (v1 or v2, as
//! its hello says) over its [`Process`]. A batch is sent whole, its
//! answers collected against one deadline, and any surplus drained; a fault
//! stops the oracle.

use std::io;
use std::sync::mpsc::{RecvTimeoutError, TryRecvError};
use std::time::{Duration, Instant};

use super::error::{ExternalError, Kind, Position};
use super::process::{self, Event, Process};
use super::shipped::{self, Prepare, Shipped};
use super::wire::{self, HELLO_LINE_LIMIT, Hello};
use crate::oracle::Outcome;

/// How long to wait, after the command closed its output, for its exit
/// status and the rest of its standard error.
const EXIT_GRACE: Duration = Duration::from_millis(1000);

/// The longest answer line is this plus [`ANSWER_LINE_PER_BYTE`] times the
/// longest input (with its base) of the batch.
pub const ANSWER_LINE_BASE: usize = 1 << 20;

/// An answer may repeat its input several times (authority, host, path,
/// the resolved URI) and JSON writes a control character in six bytes
/// (`\u0000`): 24 bytes per input byte covers four escaped copies.
pub const ANSWER_LINE_PER_BYTE: usize = 24;

/// One query: an input, and the base to resolve it against (v2 only).
pub type Query<'a> = (&'a str, Option<&'a str>);

/// The outcome of a v1 oracle's query with a base, which it cannot get.
pub const V1_NO_BASE: &str = "the pipe protocol (v1) has no base URL";

/// A batch sent with [`External::submit`] whose answers are not read yet.
#[derive(Debug)]
#[must_use = "the answers must be read with External::receive"]
pub struct Submitted {
    first_id: u64,
    count: usize,
}

/// A long-lived external oracle process.
#[derive(Debug)]
pub struct External {
    name: String,
    command: String,
    hello: Hello,
    timeout: Duration,
    process: Process,
    /// The id of the next request (v2): strictly increasing for the life
    /// of the process.
    next_id: u64,
    /// The previous batch (v1): its length and first input, quoted.
    last_batch: Option<(usize, String)>,
    /// Why this oracle stopped, after a fault.
    stopped: Option<String>,
}

/// A started process whose hello line is still to be read: starting many
/// oracles, then reading their hellos, takes the longest start, not the sum.
#[derive(Debug)]
pub(super) struct Starting(External);

/// Lines that came after every answer was taken.
#[derive(Default)]
struct Surplus {
    count: usize,
    first: Option<Vec<u8>>,
}

impl Surplus {
    fn add(&mut self, line: Vec<u8>) {
        self.count = self.count.saturating_add(1);
        self.first.get_or_insert(line);
    }

    fn extend(&mut self, other: Surplus) {
        self.count = self.count.saturating_add(other.count);
        if let Some(line) = other.first {
            self.first.get_or_insert(line);
        }
    }
}

/// Whether [`External::drain`] waits for the end of the output.
#[derive(Clone, Copy)]
enum Wait {
    /// Only what is there already.
    No,
    /// Until the end of the output or the deadline.
    Until(Option<Instant>),
}

impl Starting {
    /// Reads its hello line, waiting at most the timeout.
    pub(super) fn hello(self) -> Result<External, ExternalError> {
        let mut ext = self.0;
        ext.read_hello()?;
        Ok(ext)
    }
}

impl External {
    /// Starts `command` through `sh -c` (so it may use the shell's syntax),
    /// in its own process group, and reads its hello line, waiting at most
    /// `timeout` for it. `timeout` is also the time each batch may take (see
    /// [`set_timeout`](Self::set_timeout)). `name` is the oracle's name in
    /// errors and reports.
    pub fn spawn(name: &str, command: &str, timeout: Duration) -> Result<External, ExternalError> {
        External::launch(name, command, timeout)?.hello()
    }

    /// [`spawn`](Self::spawn) without waiting for the hello line.
    pub(super) fn launch(
        name: &str,
        command: &str,
        timeout: Duration,
    ) -> Result<Starting, ExternalError> {
        External::starting(name, command, timeout, process::spawn_shell(command, name))
    }

    /// A shipped adapter by name (see [`shipped_names`](super::shipped_names)):
    /// its source, embedded in uridiff, is written to a private temporary
    /// directory and run with its runtime, which must be on `PATH` (else a
    /// `missing` error with the command that installs it). `None` for an
    /// unknown name.
    pub fn shipped(name: &str, timeout: Duration) -> Option<Result<External, ExternalError>> {
        let row = shipped::find(name)?;
        Some(External::launch_shipped(row, timeout).and_then(Starting::hello))
    }

    /// [`shipped`](Self::shipped) without waiting for the hello line.
    pub(super) fn launch_shipped(
        row: &Shipped,
        timeout: Duration,
    ) -> Result<Starting, ExternalError> {
        let spawned = spawn_shipped(row);
        External::starting(row.name, &row.display(), timeout, spawned)
    }

    fn starting(
        name: &str,
        command: &str,
        timeout: Duration,
        spawned: Result<Process, Kind>,
    ) -> Result<Starting, ExternalError> {
        match spawned {
            Ok(process) => Ok(Starting(External::new(name, command, timeout, process))),
            Err(kind) => Err(ExternalError::new(name, command, kind)),
        }
    }

    fn new(name: &str, command: &str, timeout: Duration, process: Process) -> External {
        External {
            name: name.to_owned(),
            command: command.to_owned(),
            hello: Hello {
                protocol: 0,
                parser: String::new(),
                standard: String::new(),
                runtime: None,
            },
            timeout,
            process,
            next_id: 1,
            last_batch: None,
            stopped: None,
        }
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

    /// Sets the time a batch may take.
    pub fn set_timeout(&mut self, timeout: Duration) {
        self.timeout = timeout;
    }

    /// [`run_queries`](Self::run_queries) on inputs without a base.
    pub fn run_batch(&mut self, inputs: &[&str]) -> Result<Vec<Outcome<'static>>, ExternalError> {
        let queries: Vec<Query<'_>> = inputs.iter().map(|i| (*i, None)).collect();
        self.run_queries(&queries)
    }

    /// Sends the batch, then reads one answer per query, all within the
    /// timeout (for the whole batch). Writing happens on another thread
    /// while this one reads, so a batch of any size cannot deadlock on full
    /// pipes. Under v1 a query with a base is not sent: its outcome is
    /// missing ([`V1_NO_BASE`]). After an error the process is killed and
    /// every later call fails with a `stopped` error; the error keeps the
    /// answers that can be trusted ([`ExternalError::answered`]).
    pub fn run_queries(
        &mut self,
        queries: &[Query<'_>],
    ) -> Result<Vec<Outcome<'static>>, ExternalError> {
        if let Some(reason) = &self.stopped {
            return Err(self.error(Kind::Stopped {
                reason: reason.clone(),
            }));
        }
        let result = if self.hello.has_ids() {
            self.exchange(queries)
        } else {
            // v1: only the plain inputs go out; the others are missing.
            let plain: Vec<Query<'_>> = queries.iter().filter(|q| q.1.is_none()).copied().collect();
            self.exchange(&plain).map(|answers| {
                let mut answers = answers.into_iter();
                queries
                    .iter()
                    .map(|q| match q.1 {
                        Some(_) => Outcome::missing(V1_NO_BASE),
                        // As many answers as plain inputs: `exchange` checks.
                        None => answers.next().unwrap_or_else(|| Outcome::missing("")),
                    })
                    .collect()
            })
        };
        self.stop_on_error(&result);
        result
    }

    /// Closes the command's input and waits (within the timeout) for it to
    /// end: an error when it wrote more answers than it had inputs, did not
    /// exit, or exited with a failure status.
    pub fn finish(mut self) -> Result<(), ExternalError> {
        if let Some(reason) = self.stopped.take() {
            return Err(self.error(Kind::Stopped { reason }));
        }
        self.process.close_input();
        let deadline = Instant::now().checked_add(self.timeout);
        match self.drain(Wait::Until(deadline)) {
            Ok(surplus) if surplus.count > 0 => return Err(self.surplus_after_batch(&surplus)),
            Ok(_) => {}
            Err(e) => return Err(e),
        }
        if !self.process.eof {
            self.process.kill();
            return Err(self.error(Kind::NoExit {
                after: self.timeout,
            }));
        }
        match self.process.wait_exit(deadline) {
            Some(status) if status.success() => Ok(()),
            Some(status) => {
                let stderr = self.process.stderr_tail(EXIT_GRACE);
                Err(self.error(Kind::FailedAtEnd { status, stderr }))
            }
            None => Err(self.error(Kind::NoExit {
                after: self.timeout,
            })),
        }
    }

    /// One batch: what arrived since the last one first, then send,
    /// collect, and what arrived behind the last answer.
    fn exchange(&mut self, queries: &[Query<'_>]) -> Result<Vec<Outcome<'static>>, ExternalError> {
        if queries.is_empty() {
            let late = self.drain(Wait::No)?;
            if late.count > 0 {
                return Err(self.surplus_after_batch(&late));
            }
            return Ok(Vec::new());
        }
        let first_id = self.submit_batch(queries)?;
        self.receive_batch(queries, first_id)
    }

    /// Sends a batch (after checking nothing arrived unasked) and returns
    /// the id of its first request.
    fn submit_batch(&mut self, queries: &[Query<'_>]) -> Result<u64, ExternalError> {
        let late = self.drain(Wait::No)?;
        if late.count > 0 {
            return Err(self.surplus_after_batch(&late));
        }
        let first_id = self.next_id;
        self.send(queries)?;
        Ok(first_id)
    }

    /// Reads the answers of the batch [`submit_batch`](Self::submit_batch)
    /// sent, and checks nothing more came.
    fn receive_batch(
        &mut self,
        queries: &[Query<'_>],
        first_id: u64,
    ) -> Result<Vec<Outcome<'static>>, ExternalError> {
        let (answers, mut surplus) = self.collect(queries, first_id)?;
        surplus.extend(self.drain(Wait::No)?);
        if surplus.count > 0 {
            return Err(self.surplus_in_batch(queries, &surplus, answers));
        }
        Ok(answers)
    }

    /// Sends a batch without waiting for its answers, so that the caller
    /// works while the oracle does; [`receive`](Self::receive) reads them.
    /// One batch at a time: receive it before the next `submit`. A v1
    /// adapter (no ids) is refused here: use [`run_queries`](Self::run_queries).
    pub fn submit(&mut self, queries: &[Query<'_>]) -> Result<Submitted, ExternalError> {
        if let Some(reason) = &self.stopped {
            return Err(self.error(Kind::Stopped {
                reason: reason.clone(),
            }));
        }
        if !self.hello.has_ids() {
            return Err(self.error(Kind::Stopped {
                reason: "a protocol v1 adapter answers one batch at a time (run_queries)"
                    .to_owned(),
            }));
        }
        let result = self.submit_batch(queries);
        self.stop_on_error(&result);
        result.map(|first_id| Submitted {
            first_id,
            count: queries.len(),
        })
    }

    /// The answers of the batch `submitted` sent, in order: `queries` must
    /// be the batch given to [`submit`](Self::submit).
    pub fn receive(
        &mut self,
        queries: &[Query<'_>],
        submitted: Submitted,
    ) -> Result<Vec<Outcome<'static>>, ExternalError> {
        if queries.len() != submitted.count {
            return Err(self.error(Kind::Stopped {
                reason: "receive was given another batch than submit".to_owned(),
            }));
        }
        let result = self.receive_batch(queries, submitted.first_id);
        self.stop_on_error(&result);
        result
    }

    /// After a fault the process is not trusted again.
    fn stop_on_error<T>(&mut self, result: &Result<T, ExternalError>) {
        if let Err(e) = result {
            self.stopped = Some(e.to_string());
            self.process.kill();
        }
    }

    /// Encodes the batch and hands it to the writer thread; sets the
    /// answer line limit for it.
    fn send(&mut self, queries: &[Query<'_>]) -> Result<(), ExternalError> {
        let v2 = self.hello.has_ids();
        let first = quote(queries.first().map_or("", |q| q.0));
        self.last_batch = Some((queries.len(), first));
        if self.process.eof {
            let ended = self.ended();
            let at = self.position(queries, 0, Vec::new());
            return Err(self.error(ended.at(at)));
        }
        let mut buf = Vec::with_capacity(
            queries
                .iter()
                .map(|(i, b)| {
                    i.len()
                        .saturating_add(b.map_or(0, str::len))
                        .saturating_add(40)
                })
                .sum(),
        );
        let mut longest = 0usize;
        for (input, base) in queries {
            longest = longest.max(input.len().saturating_add(base.map_or(0, str::len)));
            let id = self.next_id;
            self.next_id = self.next_id.saturating_add(1);
            if let Err(e) = wire::encode_request(&mut buf, v2, id, input, *base) {
                return Err(self.io("encoding an input", io::Error::other(e)));
            }
        }
        self.process.set_line_limit(
            ANSWER_LINE_BASE.saturating_add(longest.saturating_mul(ANSWER_LINE_PER_BYTE)),
        );
        if !self.process.send(buf) {
            // The writer is gone: the command's input is closed, so an
            // end of output is on its way (or already here).
            let e = io::Error::new(io::ErrorKind::BrokenPipe, "its input is closed");
            return Err(self.io("sending a batch", e));
        }
        Ok(())
    }

    /// Reads one answer per query, in order, until the deadline; also
    /// returns the lines that came in the same read behind the last one.
    fn collect(
        &mut self,
        queries: &[Query<'_>],
        first_id: u64,
    ) -> Result<(Vec<Outcome<'static>>, Surplus), ExternalError> {
        let deadline = Instant::now().checked_add(self.timeout);
        let mut answers: Vec<Outcome<'static>> = Vec::with_capacity(queries.len());
        let mut surplus = Surplus::default();
        while answers.len() < queries.len() {
            let fault = match self.process.next_event(deadline) {
                Ok(Event::Lines(lines)) => {
                    for line in lines {
                        if answers.len() == queries.len() {
                            surplus.add(line);
                        } else {
                            self.take(&line, queries, first_id, &mut answers)?;
                        }
                    }
                    continue;
                }
                Ok(Event::Eof) | Err(RecvTimeoutError::Disconnected) => self.ended(),
                Ok(Event::TooLong { limit }) => Kind::LineTooLong { limit, at: None },
                Ok(Event::ReadFailed(e)) => return Err(self.io("reading its output", e)),
                // A closed pipe: the end of its output will follow.
                Ok(Event::WriteFailed(e)) if e.kind() == io::ErrorKind::BrokenPipe => continue,
                Ok(Event::WriteFailed(e)) => return Err(self.io("writing its input", e)),
                Err(RecvTimeoutError::Timeout) => Kind::Timeout {
                    after: self.timeout,
                    at: None,
                },
            };
            let at = self.position(queries, answers.len(), answers);
            return Err(self.error(fault.at(at)));
        }
        Ok((answers, surplus))
    }

    /// Takes one answer line: a protocol object, and under v2 one with the
    /// id of the oldest unanswered request (`first_id` plus the answers so
    /// far).
    fn take(
        &self,
        line: &[u8],
        queries: &[Query<'_>],
        first_id: u64,
        answers: &mut Vec<Outcome<'static>>,
    ) -> Result<(), ExternalError> {
        let expected = first_id.saturating_add(answers.len() as u64);
        let fault = match wire::parse_answer(line) {
            Ok((id, outcome)) if !self.hello.has_ids() || id == Some(expected) => {
                answers.push(outcome);
                return Ok(());
            }
            Ok((got, _)) => Kind::WrongId {
                expected: Some(expected),
                got,
                at: None,
            },
            Err(reason) => Kind::NotJson {
                version: self.hello.protocol,
                line: quote_bytes(line),
                reason,
                at: None,
            },
        };
        let at = self.position(queries, answers.len(), std::mem::take(answers));
        Err(self.error(fault.at(at)))
    }

    /// The lines that arrive when no answer is due: those already there,
    /// or (at [`finish`](Self::finish)) all of them up to the end of its
    /// output or the deadline. A line too long is one more surplus line.
    fn drain(&mut self, wait: Wait) -> Result<Surplus, ExternalError> {
        let mut surplus = Surplus::default();
        while !self.process.eof {
            let event = match wait {
                Wait::No => match self.process.try_event() {
                    Ok(event) => event,
                    Err(TryRecvError::Empty) => break,
                    Err(TryRecvError::Disconnected) => Event::Eof,
                },
                Wait::Until(deadline) => match self.process.next_event(deadline) {
                    Ok(event) => event,
                    Err(RecvTimeoutError::Disconnected) => Event::Eof,
                    Err(RecvTimeoutError::Timeout) => break,
                },
            };
            match event {
                Event::Lines(lines) => lines.into_iter().for_each(|l| surplus.add(l)),
                Event::TooLong { limit } => {
                    surplus.add(format!("(a line longer than {limit} bytes)").into_bytes());
                    self.process.kill();
                    self.process.eof = true;
                }
                Event::Eof => self.process.eof = true,
                Event::WriteFailed(_) => {}
                Event::ReadFailed(e) => return Err(self.io("reading its output", e)),
            }
        }
        Ok(surplus)
    }

    fn read_hello(&mut self) -> Result<(), ExternalError> {
        let deadline = Instant::now().checked_add(self.timeout);
        loop {
            match self.process.next_event(deadline) {
                Ok(Event::Lines(lines)) => {
                    let mut lines = lines.into_iter();
                    let Some(line) = lines.next() else { continue };
                    self.hello = wire::parse_hello(&line).map_err(|reason| {
                        self.error(Kind::BadHello {
                            line: quote_bytes(&line),
                            reason,
                        })
                    })?;
                    if let Some(extra) = lines.next() {
                        return Err(self.error(Kind::BadHello {
                            line: quote_bytes(&extra),
                            reason: "more than one line before any input".to_owned(),
                        }));
                    }
                    return Ok(());
                }
                Ok(Event::Eof) | Err(RecvTimeoutError::Disconnected) => {
                    let ended = self.ended();
                    // sh's "command not found" and "not executable".
                    if let Kind::Exited {
                        status: Some(status),
                        stderr,
                        ..
                    } = &ended
                        && let Some(code @ (126 | 127)) = status.code()
                    {
                        let what = if code == 127 {
                            "command not found"
                        } else {
                            "command not executable"
                        };
                        return Err(self.error(Kind::Missing {
                            detail: format!("{what} (sh exited with {code}): {}", stderr.trim()),
                        }));
                    }
                    return Err(self.error(ended));
                }
                Ok(Event::TooLong { limit }) => {
                    return Err(self.error(Kind::LineTooLong { limit, at: None }));
                }
                Ok(Event::ReadFailed(e)) => return Err(self.io("reading its hello line", e)),
                Ok(Event::WriteFailed(_)) => {}
                Err(RecvTimeoutError::Timeout) => {
                    return Err(self.error(Kind::Timeout {
                        after: self.timeout,
                        at: None,
                    }));
                }
            }
        }
    }

    fn error(&self, kind: Kind) -> ExternalError {
        ExternalError::new(&self.name, &self.command, kind)
    }

    fn io(&self, doing: &'static str, source: io::Error) -> ExternalError {
        self.error(Kind::Io { doing, source })
    }

    /// Its output has ended: waits a moment for its exit status and the
    /// rest of its standard error.
    fn ended(&mut self) -> Kind {
        self.process.eof = true;
        let status = self
            .process
            .wait_exit(Instant::now().checked_add(EXIT_GRACE));
        Kind::Exited {
            status,
            stderr: self.process.stderr_tail(EXIT_GRACE),
            at: None,
        }
    }

    /// Where a batch failed: at `index`, with the answers before it, kept
    /// under v2 (their ids matched) and discarded under v1.
    fn position(
        &self,
        queries: &[Query<'_>],
        index: usize,
        answered: Vec<Outcome<'static>>,
    ) -> Position {
        let shown = queries
            .get(index)
            .or_else(|| queries.last())
            .map_or("", |q| q.0);
        let v2 = self.hello.has_ids();
        Position {
            index,
            batch_len: queries.len(),
            input: quote(shown),
            answered: if v2 { answered } else { Vec::new() },
            discarded: !v2,
        }
    }

    /// Lines behind a batch's last answer, seen while taking that batch.
    fn surplus_in_batch(
        &self,
        queries: &[Query<'_>],
        surplus: &Surplus,
        answers: Vec<Outcome<'static>>,
    ) -> ExternalError {
        if self.hello.has_ids() {
            let at = self.position(queries, queries.len(), answers);
            self.error(Kind::WrongId {
                expected: None,
                got: surplus_id(surplus),
                at: Some(Box::new(at)),
            })
        } else {
            self.error(Kind::WrongCount {
                expected: queries.len(),
                got: queries.len().saturating_add(surplus.count),
                first_input: quote(queries.first().map_or("", |q| q.0)),
                earlier: false,
            })
        }
    }

    /// Lines that came after a batch's answers were returned (seen at the
    /// next batch or at the end).
    fn surplus_after_batch(&self, surplus: &Surplus) -> ExternalError {
        if self.hello.has_ids() {
            return self.error(Kind::WrongId {
                expected: None,
                got: surplus_id(surplus),
                at: None,
            });
        }
        let (expected, first_input) = self
            .last_batch
            .clone()
            .unwrap_or_else(|| (0, "(before any input)".to_owned()));
        self.error(Kind::WrongCount {
            expected,
            got: expected.saturating_add(surplus.count),
            first_input,
            earlier: true,
        })
    }
}

/// The id of the first surplus line, when it has one.
fn surplus_id(surplus: &Surplus) -> Option<u64> {
    surplus
        .first
        .as_deref()
        .and_then(|l| wire::parse_answer(l).ok())
        .and_then(|(id, _)| id)
}

/// An input for a message, whole: Rust-quoted, so that control characters
/// and quotes are escaped and the text stays on one line.
fn quote(input: &str) -> String {
    format!("{input:?}")
}

fn quote_bytes(line: &[u8]) -> String {
    quote(&String::from_utf8_lossy(line))
}

/// Starts a shipped adapter: its files in a new temporary directory (which
/// goes with the process), built first if it has to be.
fn spawn_shipped(row: &Shipped) -> Result<Process, Kind> {
    row.start(|command, dir| process::spawn_command(command, Some(dir), row.name, HELLO_LINE_LIMIT))
        .map_err(|e| match e {
            Prepare::Missing(detail) => Kind::Missing { detail },
            Prepare::Io(doing, source) => Kind::Io { doing, source },
            Prepare::Cache(e) => Kind::Missing {
                detail: e.to_string(),
            },
        })
}
