//! The HTTP clients: [`ClientInfo`] rows, and [`Client`], which runs one.

use std::collections::{BTreeMap, VecDeque};
use std::net::IpAddr;
use std::process::Command;
use std::sync::mpsc::RecvTimeoutError;
use std::time::{Duration, Instant};

use serde::Deserialize;

use super::Mode;
use super::programs::program;
use super::rows::{ClientInfo, LIBCURL};
use super::token::Token;
use crate::oracle::external::process::{self, Event, Process};
use crate::oracle::external::shipped::Prepare;

/// Proxy settings the clients must never see (each client ignores proxies
/// in its own way too; these go so that no library reads them).
const PROXY_VARIABLES: [&str; 10] = [
    "http_proxy",
    "HTTP_PROXY",
    "https_proxy",
    "HTTPS_PROXY",
    "all_proxy",
    "ALL_PROXY",
    "no_proxy",
    "NO_PROXY",
    "NODE_OPTIONS",
    "NODE_USE_ENV_PROXY",
];

/// The longest line read from a client process.
const LINE_LIMIT: usize = 64 * 1024;

/// How much longer than a request's own timeout its answer may take (the
/// runtime's own work around the request).
const GRACE: Duration = Duration::from_secs(5);

/// One fetch: the URL, where every connection goes, and the names it may
/// use.
#[derive(Debug, Clone, Copy)]
pub struct Request<'a> {
    /// The URL, given to the client as it is.
    pub url: &'a str,
    /// The trap's port: every connection goes there, whatever the URL says.
    pub port: u16,
    /// Host names and the address each stands for; any other name is
    /// refused, never looked up.
    pub hosts: &'a [(&'a str, IpAddr)],
    /// The time limit of the request.
    pub timeout: Duration,
    /// The request's token, sent in the header [`super::TOKEN_HEADER`] (a fresh
    /// one per request: [`super::Tokens::next_token`]).
    pub token: &'a Token,
}

/// What a client did with one request.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct Answer {
    /// The address the client connected to (after the guard allowed it).
    pub dialled: Option<IpAddr>,
    /// Why the guard refused to dial (non-loopback address, unmapped name, ...).
    pub refused: Option<String>,
    /// The client's own error (refused URL, timeout, ...).
    pub error: Option<String>,
    /// The HTTP status, when a response came.
    pub status: Option<u16>,
}

/// An answer line of a client process.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct Wire {
    dialled: Option<String>,
    refused: Option<String>,
    error: Option<String>,
    status: Option<u16>,
}

/// A running client.
#[derive(Debug)]
pub struct Client {
    info: &'static ClientInfo,
    mode: Mode,
    inner: Inner,
    errors: Vec<String>,
    runtime: Option<String>,
}

#[derive(Debug)]
enum Inner {
    /// libcurl, in this process.
    #[cfg(feature = "curl")]
    Curl(Mode),
    /// A client process; `None` once it failed (and was killed).
    Process {
        process: Option<Process>,
        lines: VecDeque<Vec<u8>>,
    },
}

impl Client {
    /// Starts the client: a process for Python, Node and Go (waiting at
    /// most `timeout` for its first line, which says it loaded its
    /// library), nothing for libcurl, which runs in this process.
    ///
    /// # Errors
    /// A missing runtime or library (with the command that installs it), a
    /// build that fails, a process that exits or says nothing in time.
    pub fn start(info: &'static ClientInfo, timeout: Duration) -> Result<Client, String> {
        Client::start_in(info, timeout, Mode::Guard)
    }

    /// Starts the client for `mode`: in [`Mode::Namespace`] without its
    /// guard (the process gets `URIDIFF_FETCH_MODE=namespace`), which only
    /// a process in uridiff's network namespace may do
    /// ([`super::netns::enter`]).
    ///
    /// # Errors
    /// As [`Client::start`]; and a client without a guard
    /// ([`ClientInfo::guarded`]) in [`Mode::Guard`].
    pub fn start_in(
        info: &'static ClientInfo,
        timeout: Duration,
        mode: Mode,
    ) -> Result<Client, String> {
        if mode == Mode::Guard && !info.guarded {
            return Err(format!(
                "{}: runs only in a network namespace of its own (uridiff fetch as root): it has no in-client guard",
                info.id
            ));
        }
        #[cfg(feature = "curl")]
        if info.id == LIBCURL.id {
            return Ok(Client {
                info,
                mode,
                inner: Inner::Curl(mode),
                errors: Vec::new(),
                runtime: crate::oracle::info(crate::oracle::OracleId::Curl)
                    .map(|i| i.library.to_owned()),
            });
        }
        let Some(row) = program(info.id) else {
            return Err(format!(
                "no client {} in this build ({} needs the `curl` feature)",
                info.id, LIBCURL.id
            ));
        };
        let process = row
            .start(|mut command: Command, dir| {
                for variable in PROXY_VARIABLES {
                    command.env_remove(variable);
                }
                if mode == Mode::Namespace {
                    command.env("URIDIFF_FETCH_MODE", "namespace");
                }
                process::spawn_command(command, Some(dir), row.name, LINE_LIMIT)
            })
            .map_err(|e| match e {
                Prepare::Missing(detail) => format!("{}: {detail}", info.id),
                Prepare::Io(doing, source) => {
                    format!("{}: {doing} ({}): {source}", info.id, row.display())
                }
                Prepare::Cache(e) => format!("{}: {e}", info.id),
            })?;
        let mut client = Client {
            info,
            mode,
            inner: Inner::Process {
                process: Some(process),
                lines: VecDeque::new(),
            },
            errors: Vec::new(),
            runtime: None,
        };
        let hello = client.next_line(Instant::now() + timeout)?;
        let hello: serde_json::Value = serde_json::from_slice(&hello)
            .map_err(|e| format!("{}: its first line is not JSON: {e}", info.id))?;
        if hello
            .get("uridiff_fetch")
            .and_then(serde_json::Value::as_u64)
            != Some(1)
        {
            return Err(format!(
                "{}: its first line is no fetch hello: {hello}",
                info.id
            ));
        }
        client.runtime = hello
            .get("runtime")
            .and_then(serde_json::Value::as_str)
            .map(str::to_owned);
        Ok(client)
    }

    /// The client's runtime and library, as its hello line says (libcurl:
    /// the library this build links).
    pub fn runtime(&self) -> Option<&str> {
        self.runtime.as_deref()
    }

    /// The client's row.
    pub fn info(&self) -> &'static ClientInfo {
        self.info
    }

    /// Has its process failed (and been killed), so that every later
    /// fetch fails at once? A caller that goes on starts it again.
    pub fn failed(&self) -> bool {
        match &self.inner {
            #[cfg(feature = "curl")]
            Inner::Curl(_) => false,
            Inner::Process { process, .. } => process.is_none(),
        }
    }

    /// Fetches one URL.
    ///
    /// # Errors
    /// The client process failed: it exited, wrote something that is no
    /// answer, or did not answer within the request's timeout and a grace
    /// (it is killed then, and every later fetch fails at once).
    pub fn fetch(&mut self, request: &Request<'_>) -> Result<Answer, String> {
        match &mut self.inner {
            #[cfg(feature = "curl")]
            Inner::Curl(mode) => Ok(fetch_curl(request, *mode)),
            Inner::Process { .. } => self.fetch_process(request),
        }
    }

    fn fetch_process(&mut self, request: &Request<'_>) -> Result<Answer, String> {
        let hosts: BTreeMap<&str, String> = request
            .hosts
            .iter()
            .map(|(name, ip)| (*name, ip.to_string()))
            .collect();
        let timeout_ms = u64::try_from(request.timeout.as_millis()).unwrap_or(u64::MAX);
        let line = match self.mode {
            Mode::Guard => serde_json::json!({
                "client": self.info.id,
                "url": request.url,
                "port": request.port,
                "hosts": hosts,
                "timeout_ms": timeout_ms,
                // Sent as the X-Uridiff-Token header (adapters/fetch/*).
                "token": request.token.as_str(),
            }),
            // In the namespace the client connects where it will: no port
            // to force, no names to map.
            Mode::Namespace => serde_json::json!({
                "client": self.info.id,
                "url": request.url,
                "timeout_ms": timeout_ms,
                "token": request.token.as_str(),
            }),
        };
        let mut bytes = line.to_string().into_bytes();
        bytes.push(b'\n');
        let sent = match &self.inner {
            Inner::Process {
                process: Some(p), ..
            } => p.send(bytes),
            _ => {
                return Err(format!(
                    "{}: stopped after an earlier failure",
                    self.info.id
                ));
            }
        };
        if !sent {
            return Err(self.fail("its input is closed".to_owned()));
        }
        let deadline = Instant::now() + request.timeout + GRACE;
        let line = self.next_line(deadline)?;
        let wire: Wire = serde_json::from_slice(&line).map_err(|e| {
            self.fail(format!(
                "not an answer ({e}): {}",
                String::from_utf8_lossy(&line)
            ))
        })?;
        let dialled = match wire.dialled {
            Some(text) => Some(
                text.parse::<IpAddr>()
                    .map_err(|_| self.fail(format!("dialled is no IP address: {text:?}")))?,
            ),
            None => None,
        };
        Ok(Answer {
            dialled,
            refused: wire.refused,
            error: wire.error,
            status: wire.status,
        })
    }

    /// The next line of the client process, waiting until `deadline`; on
    /// any failure the process is killed and the error kept.
    fn next_line(&mut self, deadline: Instant) -> Result<Vec<u8>, String> {
        loop {
            let (process, lines) = match &mut self.inner {
                Inner::Process { process, lines } => (process, lines),
                #[cfg(feature = "curl")]
                Inner::Curl(_) => return Err(format!("{}: not a process", self.info.id)),
            };
            if let Some(line) = lines.pop_front() {
                return Ok(line);
            }
            let Some(p) = process else {
                return Err(format!(
                    "{}: stopped after an earlier failure",
                    self.info.id
                ));
            };
            let problem = match p.next_event(Some(deadline)) {
                Ok(Event::Lines(more)) => {
                    lines.extend(more.into_iter().filter(|l| !l.is_empty()));
                    continue;
                }
                Ok(Event::Eof) => "it exited".to_owned(),
                Ok(Event::TooLong { limit }) => format!("a line longer than {limit} bytes"),
                Ok(Event::ReadFailed(e)) => format!("reading its output: {e}"),
                Ok(Event::WriteFailed(e)) => format!("writing its input: {e}"),
                Err(RecvTimeoutError::Timeout) => "no answer in time".to_owned(),
                Err(RecvTimeoutError::Disconnected) => "its output ended".to_owned(),
            };
            return Err(self.fail(problem));
        }
    }

    /// Kills the process, keeps the error (with its standard error's end)
    /// and returns it.
    fn fail(&mut self, problem: String) -> String {
        let mut message = format!("{}: {problem}", self.info.id);
        if let Inner::Process { process, .. } = &mut self.inner
            && let Some(mut p) = process.take()
        {
            p.kill();
            let tail = p.stderr_tail(Duration::from_millis(200));
            let tail = tail.trim_end();
            if !tail.is_empty() {
                message.push_str("; its standard error ends: ");
                message.push_str(tail);
            }
        }
        self.errors.push(message.clone());
        message
    }

    /// Stops the client and returns the errors seen, with the end of its
    /// standard error when its process fails at the end.
    pub fn finish(mut self) -> Vec<String> {
        if let Inner::Process { process, .. } = &mut self.inner
            && let Some(mut p) = process.take()
        {
            p.close_input();
            let status = p.wait_exit(Some(Instant::now() + Duration::from_secs(2)));
            if !status.is_some_and(|s| s.success()) {
                let tail = p.stderr_tail(Duration::from_millis(200));
                self.errors.push(format!(
                    "{}: did not exit cleanly after its input closed ({}){}",
                    self.info.id,
                    status.map_or_else(|| "killed".to_owned(), |s| s.to_string()),
                    if tail.trim().is_empty() {
                        String::new()
                    } else {
                        format!("; its standard error ends: {}", tail.trim_end())
                    }
                ));
            }
        }
        self.errors
    }
}

#[cfg(feature = "curl")]
fn fetch_curl(request: &Request<'_>, mode: Mode) -> Answer {
    let report = match mode {
        Mode::Guard => guarded_curl(request),
        Mode::Namespace => curl_url::easy::fetch_unguarded(
            request.url,
            request.timeout,
            &[(super::TOKEN_HEADER, request.token.as_str())],
        ),
    };
    match report {
        Ok(report) => Answer {
            dialled: report.dialled,
            refused: report.refused,
            error: report.error,
            status: report.status,
        },
        Err(e) => Answer {
            error: Some(e.to_string()),
            ..Answer::default()
        },
    }
}

#[cfg(feature = "curl")]
fn guarded_curl(request: &Request<'_>) -> Result<curl_url::easy::FetchReport, curl_url::Error> {
    let options = curl_url::easy::FetchOptions {
        port: request.port,
        hosts: request.hosts,
        timeout: request.timeout,
        headers: &[(super::TOKEN_HEADER, request.token.as_str())],
    };
    curl_url::easy::fetch(request.url, &options)
}
