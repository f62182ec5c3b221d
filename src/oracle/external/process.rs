//! An external oracle's process: spawned in its own process group, fed by
//! a writer thread, read by a reader thread that splits its output into
//! lines of bounded length, its standard error's end kept by a third; a
//! command run to its end in a group of its own ([`run_to_end`]: builds);
//! and the registry of live process groups that [`kill_all`] ends on a
//! signal.

use std::collections::VecDeque;
use std::io::{self, Read, Write};
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{
    Child, ChildStderr, ChildStdin, ChildStdout, Command, ExitStatus, Output, Stdio,
};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender, SyncSender, TryRecvError};
use std::sync::{Arc, Mutex, PoisonError};
use std::thread;
use std::time::{Duration, Instant};

use rustix::process::{Pid, Signal, WaitId, WaitIdOptions, kill_process_group, waitid};

use super::error::Kind;
use super::wire::HELLO_LINE_LIMIT;

/// How much of the command's standard error is kept for error messages.
const STDERR_TAIL: usize = 2048;

/// How many reads of standard output may wait for the client. Each holds
/// at most one read's worth of lines ([`READ_SIZE`]), so the queue stays a
/// few hundred KiB however much an adapter writes between batches.
const QUEUED_READS: usize = 4;

/// The size of one read of standard output.
const READ_SIZE: usize = 1 << 16;

/// What the reader and writer threads report.
#[derive(Debug)]
pub(crate) enum Event {
    /// Complete lines of standard output, as they arrived.
    Lines(Vec<Vec<u8>>),
    /// Standard output closed.
    Eof,
    /// A line grew past the limit before its newline; the reader stopped.
    TooLong { limit: usize },
    /// Reading standard output failed.
    ReadFailed(io::Error),
    /// Writing standard input failed.
    WriteFailed(io::Error),
}

/// Starts `command` through `sh -c`.
pub(super) fn spawn_shell(command: &str, name: &str) -> Result<Process, Kind> {
    let mut sh = Command::new("sh");
    sh.arg("-c").arg(command);
    Process::spawn(sh, None, name, HELLO_LINE_LIMIT).map_err(|source| {
        if source.kind() == io::ErrorKind::NotFound {
            Kind::Missing {
                detail: "sh not found: the command runs through `sh -c`".to_owned(),
            }
        } else {
            Kind::Io {
                doing: "starting it",
                source,
            }
        }
    })
}

/// Starts `command` as [`Process::spawn`] does, for the other users of
/// this machinery (`crate::fetch`'s client processes).
pub(crate) fn spawn_command(
    command: Command,
    dir: Option<tempfile::TempDir>,
    name: &str,
    line_limit: usize,
) -> io::Result<Process> {
    Process::spawn(command, dir, name, line_limit)
}

/// A running external command and its three pipe threads.
#[derive(Debug)]
pub(crate) struct Process {
    child: Child,
    /// Its process group (it leads it): `None` if the id does not fit.
    group: Option<Pid>,
    /// Bytes for the writer thread; `None` once standard input is closed.
    to_child: Option<Sender<Vec<u8>>>,
    events: Receiver<Event>,
    /// The longest line the reader accepts, set per batch.
    line_limit: Arc<AtomicUsize>,
    stderr: Arc<Mutex<VecDeque<u8>>>,
    /// Disconnects when the standard-error thread ends.
    stderr_done: Receiver<()>,
    /// Standard output has closed.
    pub eof: bool,
    reaped: bool,
    /// The directory holding a shipped adapter's files, removed after it.
    dir: Option<tempfile::TempDir>,
}

impl Process {
    /// Starts `command` with piped standard streams, in a new process group
    /// (`process_group(0)`: what it starts in turn stays in that group, so
    /// killing the group ends all of it, and a terminal's Ctrl-C reaches
    /// uridiff alone, which then ends the group itself), and registers the
    /// group for [`kill_all`]. `line_limit` is the longest line accepted
    /// until [`set_line_limit`](Self::set_line_limit).
    fn spawn(
        mut command: Command,
        dir: Option<tempfile::TempDir>,
        name: &str,
        line_limit: usize,
    ) -> io::Result<Process> {
        command
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        let (mut child, group) =
            spawn_registered(&mut command, dir.as_ref().map(|d| d.path().to_owned()))?;
        let pipes = (child.stdin.take(), child.stdout.take(), child.stderr.take());
        let (events_tx, events) = mpsc::sync_channel(QUEUED_READS);
        let (to_child, batches) = mpsc::channel();
        let stderr = Arc::new(Mutex::new(VecDeque::with_capacity(STDERR_TAIL)));
        let (done_tx, stderr_done) = mpsc::channel();
        let line_limit = Arc::new(AtomicUsize::new(line_limit));
        let mut process = Process {
            child,
            group,
            to_child: Some(to_child),
            events,
            line_limit: Arc::clone(&line_limit),
            stderr: Arc::clone(&stderr),
            stderr_done,
            eof: false,
            reaped: false,
            dir,
        };
        let (Some(stdin), Some(stdout), Some(stderr_pipe)) = pipes else {
            process.kill();
            return Err(io::Error::other("a pipe is missing"));
        };
        let writer_events = events_tx.clone();
        let started = thread::Builder::new()
            .name(format!("uridiff-{name}-stdin"))
            .spawn(move || write_batches(stdin, &batches, &writer_events))
            .and_then(|_| {
                thread::Builder::new()
                    .name(format!("uridiff-{name}-stdout"))
                    .spawn(move || read_lines(stdout, &line_limit, &events_tx))
            })
            .and_then(|_| {
                thread::Builder::new()
                    .name(format!("uridiff-{name}-stderr"))
                    .spawn(move || keep_tail(stderr_pipe, &stderr, &done_tx))
            });
        if let Err(e) = started {
            process.kill();
            return Err(e);
        }
        Ok(process)
    }

    /// Sets the longest line the reader accepts from now on.
    pub(super) fn set_line_limit(&self, limit: usize) {
        self.line_limit.store(limit, Ordering::Relaxed);
    }

    /// Hands bytes to the writer thread; `false` when its input is closed.
    pub(crate) fn send(&self, bytes: Vec<u8>) -> bool {
        self.to_child
            .as_ref()
            .is_some_and(|tx| tx.send(bytes).is_ok())
    }

    /// Closes its standard input (once the writer has written what it has).
    pub(crate) fn close_input(&mut self) {
        self.to_child = None;
    }

    /// The next event, waiting until `deadline` (forever when `None`).
    pub(crate) fn next_event(&self, deadline: Option<Instant>) -> Result<Event, RecvTimeoutError> {
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

    /// The next event if one is there.
    pub(super) fn try_event(&self) -> Result<Event, TryRecvError> {
        self.events.try_recv()
    }

    /// Waits until `deadline` for the process to exit; `None` when it did
    /// not (it is killed then) or its status could not be read.
    pub(crate) fn wait_exit(&mut self, deadline: Option<Instant>) -> Option<ExitStatus> {
        loop {
            match self.try_reap() {
                Ok(Some(status)) => return Some(status),
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

    /// The end of the command's standard error, once it has closed (or
    /// after `grace`).
    pub(crate) fn stderr_tail(&self, grace: Duration) -> String {
        let _ = self.stderr_done.recv_timeout(grace);
        let tail = self.stderr.lock().unwrap_or_else(PoisonError::into_inner);
        let bytes: Vec<u8> = tail.iter().copied().collect();
        String::from_utf8_lossy(&bytes).into_owned()
    }

    /// Kills the process group and reaps the process.
    pub(crate) fn kill(&mut self) {
        self.to_child = None;
        if self.reaped {
            return;
        }
        if let Ok(None) = self.try_reap() {
            // The group first (what the command started), while the
            // unreaped leader keeps the group id from being reused.
            if let Some(group) = self.group {
                let _ = kill_process_group(group, Signal::KILL);
            }
            let _ = self.child.kill();
        }
        self.forget();
        let _ = self.child.wait();
        self.reaped = true;
    }

    /// Reaps the process if it has exited, leaving the registry of live
    /// groups under the same lock, so that [`kill_all`] never signals a
    /// group id that may have been reused.
    fn try_reap(&mut self) -> io::Result<Option<ExitStatus>> {
        let mut live = LIVE.lock().unwrap_or_else(PoisonError::into_inner);
        let status = self.child.try_wait()?;
        if status.is_some() {
            self.reaped = true;
            if let Some(group) = self.group {
                live.groups.retain(|(g, _)| *g != group);
            }
        }
        Ok(status)
    }

    /// Leaves the registry of live groups: before the leader is reaped,
    /// so [`kill_all`] never signals a group id that may have been reused.
    fn forget(&self) {
        let mut live = LIVE.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some(group) = self.group {
            live.groups.retain(|(g, _)| *g != group);
        }
    }
}

impl Drop for Process {
    fn drop(&mut self) {
        self.kill();
        // The adapter's directory (if any) goes after the process.
        self.dir.take();
    }
}

/// The process groups of this process's live external oracles, clients
/// and builds, and the temporary directories they work in. Process-wide because a
/// signal is: [`kill_all`] runs on the signal thread while the oracles
/// belong to whichever code started them.
struct Live {
    groups: Vec<(Pid, Option<PathBuf>)>,
    /// Set by [`kill_all`]: no process starts after it.
    closed: bool,
}

static LIVE: Mutex<Live> = Mutex::new(Live {
    groups: Vec::new(),
    closed: false,
});

/// Starts `command` in a new process group and registers the group (with
/// `dir`) for [`kill_all`], both under the registry's lock: a signal's
/// handler either sees the group or has already ended the run, in which
/// case nothing starts. Otherwise a process started between the handler's
/// kill and its exit would outlive uridiff.
fn spawn_registered(
    command: &mut Command,
    dir: Option<PathBuf>,
) -> io::Result<(Child, Option<Pid>)> {
    let mut live = LIVE.lock().unwrap_or_else(PoisonError::into_inner);
    if live.closed {
        return Err(io::Error::new(
            io::ErrorKind::Interrupted,
            "uridiff is ending on a signal",
        ));
    }
    let child = command.process_group(0).spawn()?;
    let group = i32::try_from(child.id()).ok().and_then(Pid::from_raw);
    if let Some(group) = group {
        live.groups.push((group, dir));
    }
    Ok((child, group))
}

/// Runs `command` to its end, its standard input null and its output
/// collected, in a process group of its own registered for [`kill_all`]
/// with `dir` (the temporary directory it works in, if any) while it
/// runs: a signal to uridiff ends the command and all it started (cargo's
/// rustc and cc, go's compiler) and removes `dir`, instead of leaving them
/// running under init. For builds and short queries of a toolchain.
pub(crate) fn run_to_end(mut command: Command, dir: Option<&Path>) -> io::Result<Output> {
    command
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let (mut child, pid) = spawn_registered(&mut command, dir.map(Path::to_owned))?;
    let collected = collect_output(&mut child);
    if collected.is_err()
        && let Some(group) = pid
    {
        let _ = kill_process_group(group, Signal::KILL);
    }
    // The leader is reaped under the registry's lock, after it leaves it:
    // kill_all never signals a group id that may have been reused.
    let exited = match pid {
        Some(pid) => wait_unreaped(pid),
        None => Ok(()),
    };
    let (status, ended_by_signal) = {
        let mut live = LIVE.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some(group) = pid {
            live.groups.retain(|(g, _)| *g != group);
        }
        if exited.is_err() {
            let _ = child.kill();
        }
        (child.wait(), live.closed)
    };
    if ended_by_signal {
        // uridiff is exiting on a signal: its caller must not go on to
        // judge the build (or write anything) in the moment left.
        return Err(io::Error::new(
            io::ErrorKind::Interrupted,
            "ended by a signal to uridiff",
        ));
    }
    let (stdout, stderr) = collected?;
    Ok(Output {
        status: status?,
        stdout,
        stderr,
    })
}

/// Both output pipes read to their end at once (one on another thread),
/// so that neither fills while the other is read.
fn collect_output(child: &mut Child) -> io::Result<(Vec<u8>, Vec<u8>)> {
    let stderr_pipe = child.stderr.take();
    let reader = thread::Builder::new()
        .name("uridiff-build-stderr".to_owned())
        .spawn(move || {
            let mut buf = Vec::new();
            stderr_pipe.map_or(Ok(0), |mut pipe| pipe.read_to_end(&mut buf))?;
            Ok::<_, io::Error>(buf)
        })?;
    let mut stdout = Vec::new();
    let read = child
        .stdout
        .take()
        .map_or(Ok(0), |mut pipe| pipe.read_to_end(&mut stdout));
    let stderr = reader
        .join()
        .unwrap_or_else(|_| Err(io::Error::other("the standard-error reader panicked")));
    read?;
    Ok((stdout, stderr?))
}

/// Waits for the child `pid` to exit without reaping it (`WNOWAIT`): its
/// id stays its own until [`Child::wait`] reaps it.
fn wait_unreaped(pid: Pid) -> io::Result<()> {
    loop {
        match waitid(
            WaitId::Pid(pid),
            WaitIdOptions::EXITED | WaitIdOptions::NOWAIT,
        ) {
            Ok(_) => return Ok(()),
            Err(rustix::io::Errno::INTR) => {}
            Err(e) => return Err(e.into()),
        }
    }
}

/// Kills the process group of every live external oracle and build and
/// removes their temporary directories; nothing starts after this. For a signal handler that is about to exit the
/// process: the oracles' own values are not dropped then.
pub fn kill_all() {
    let mut live = LIVE.lock().unwrap_or_else(PoisonError::into_inner);
    live.closed = true;
    for (group, dir) in live.groups.drain(..) {
        let _ = kill_process_group(group, Signal::KILL);
        if let Some(dir) = dir {
            let _ = std::fs::remove_dir_all(dir);
        }
    }
}

/// The writer thread: writes each batch, flushing after it.
fn write_batches(mut stdin: ChildStdin, batches: &Receiver<Vec<u8>>, events: &SyncSender<Event>) {
    for batch in batches {
        if let Err(e) = stdin.write_all(&batch).and_then(|()| stdin.flush()) {
            let _ = events.send(Event::WriteFailed(e));
            return;
        }
    }
    // The sender is gone: dropping `stdin` closes the command's input.
}

/// The reader thread: sends the complete lines of each read, then the end.
/// A line that grows past the limit before its newline stops it: the
/// client kills the process, and memory never holds more than the limit
/// plus one read of a line.
fn read_lines(mut stdout: ChildStdout, limit: &AtomicUsize, events: &SyncSender<Event>) {
    let mut buf = vec![0u8; READ_SIZE];
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
        let limit = limit.load(Ordering::Relaxed);
        let mut lines = Vec::new();
        let mut pieces = buf
            .get(..n)
            .unwrap_or_default()
            .split(|&b| b == b'\n')
            .peekable();
        let mut too_long = false;
        while let Some(piece) = pieces.next() {
            if partial.len().saturating_add(piece.len()) > limit {
                too_long = true;
                break;
            }
            partial.extend_from_slice(piece);
            if pieces.peek().is_some() {
                lines.push(std::mem::take(&mut partial));
            }
        }
        if !lines.is_empty() && events.send(Event::Lines(lines)).is_err() {
            return;
        }
        if too_long {
            let _ = events.send(Event::TooLong { limit });
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
