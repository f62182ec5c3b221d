//! `corpus follow --clients`: each input the follower checks also goes
//! through the HTTP clients (`uridiff fetch`'s), and a client that goes
//! elsewhere than its own parser reads ([`departure`]) is saved as a
//! finding the first time its signature is seen: the input as
//! `client-HASH`, and beside it `client-HASH.json`, one line per departure
//! (the signature, the client, its parser, what the parser predicts, what
//! was observed, and the whole `check --json` of the input).
//!
//! As root the follower runs in a network namespace whose only interface
//! is `lo` (entered by `fetch::prepare` at the very start, as `uridiff
//! fetch` does), so every client resolves and connects on its own and the
//! traps see where it went; elsewhere only the clients with an in-client
//! guard run, and the output says so.

use std::collections::{BTreeSet, HashSet, VecDeque};
use std::io::{self, Write};
use std::path::Path;
use std::time::{Duration, Instant};

use serde::Serialize;
use uridiff::Case;
use uridiff::bypass::{Departure, Prediction, departure, parser_of, worth_sending};
use uridiff::fetch::{self, Client, ClientInfo, Mode, Observation, Observer};
use uridiff::oracle::OracleId;

use super::super::error::{Failure, diagnostic};
use super::super::externals::signal_exit_status;
use super::super::fetch::Sandbox;
use super::super::text::path as shown_path;
use super::Args;

/// How often a client whose process failed (a crash, a timeout) is
/// started again before the follower goes on without it.
const STARTS: usize = 3;

/// How long a client may take to start (Go builds its client on first
/// use, Java compiles its source), as for `uridiff fetch`.
const START_TIMEOUT: Duration = Duration::from_secs(180);

/// At most this many inputs wait for the clients; what is offered while
/// the queue is full is counted and not sent.
const QUEUE: usize = 2000;

/// An input waiting for its clients: its text, its file's bytes, its
/// `check --json`, and the clients (their slots) with what each one's
/// parser reads.
struct Pending {
    input: String,
    raw: Vec<u8>,
    check: String,
    sends: Vec<(usize, Prediction)>,
}

/// One client and the oracle whose parser it reads URLs with.
struct Slot {
    info: &'static ClientInfo,
    parser: OracleId,
    client: Option<Client>,
    starts: usize,
}

/// What the clients did, for the follower's last lines.
#[derive(Debug, Default)]
pub(super) struct ClientCounts {
    /// Requests sent.
    pub(super) requests: usize,
    /// Departures observed (saved or not).
    pub(super) departures: usize,
    /// Findings saved.
    pub(super) saved: usize,
    /// New signatures among them.
    pub(super) signatures: usize,
    /// Requests not made: the client had been sent an input of the same
    /// shape.
    pub(super) same_shape: usize,
    /// Requests not made: the queue was full.
    pub(super) over_cap: usize,
}

/// The clients of a follower, their traps, and the departure signatures
/// known (saved by earlier runs in the artifacts directory, or in this
/// one).
pub(super) struct Clients {
    mode: Mode,
    observer: Observer,
    slots: Vec<Slot>,
    known: BTreeSet<String>,
    /// (slot, shape) pairs sent or queued.
    shapes: HashSet<(usize, u32)>,
    queue: VecDeque<Pending>,
    pub(super) counts: ClientCounts,
    errors: Vec<String>,
}

/// The clients `names` asks for (every client with a parser when empty),
/// those that can run in `mode` and whose parser the follower runs
/// (`followed`: the harness's oracles).
fn choose(
    names: &[String],
    mode: Mode,
    followed: &[OracleId],
) -> Result<Vec<(&'static ClientInfo, OracleId)>, Failure> {
    let all = fetch::clients();
    for name in names {
        super::super::fetch::client_named(name)?;
    }
    let mut chosen = Vec::new();
    let mut left_out: Vec<String> = Vec::new();
    for info in all {
        if !names.is_empty() && !names.iter().any(|n| n == info.id) {
            continue;
        }
        let why = match parser_of(info) {
            // Chromium reads with GURL, which uridiff has no oracle of.
            None => Some("no oracle reads URLs with its parser"),
            Some(p) if !followed.contains(&p) => {
                Some("its parser is not among the oracles followed")
            }
            Some(_) if mode == Mode::Guard && !info.guarded => {
                Some("no in-client guard, and no network namespace")
            }
            Some(p) => {
                chosen.push((info, p));
                None
            }
        };
        if let Some(why) = why {
            left_out.push(format!("{} ({why})", info.id));
        }
    }
    if !left_out.is_empty() {
        diagnostic(format_args!(
            "follow: clients not run: {}",
            left_out.join(", ")
        ));
    }
    if chosen.is_empty() {
        return Err(Failure::Usage(
            "--clients: no client can run here with the oracles followed".to_owned(),
        ));
    }
    Ok(chosen)
}

impl Clients {
    /// The clients asked for (`names`; every one when empty) whose parser
    /// is among `followed`, in the namespace when `sandbox` entered it,
    /// else behind their guards; `artifacts` holds the departures saved by
    /// earlier runs. Each client process starts when first needed.
    pub(super) fn start(
        names: &[String],
        timeout: Duration,
        sandbox: &Sandbox,
        followed: &[OracleId],
        artifacts: &Path,
    ) -> Result<Clients, Failure> {
        let mode = super::super::fetch::mode(sandbox, "follow: ")?;
        let slots = choose(names, mode, followed)?
            .into_iter()
            .map(|(info, parser)| Slot {
                info,
                parser,
                client: None,
                starts: 0,
            })
            .collect();
        let map = fetch::name_map(["evil.example"]);
        // The traps listen where an `http` URL goes without a port. Not on
        // 443: a trap speaks plain HTTP, so an `https` client's TLS hello
        // would wait there for its whole timeout (2 s a request) and carry
        // no token to observe; on a closed port it fails at once, and its
        // resolver question is the evidence. A client sent to any other
        // port likewise leaves only that question.
        let observer = match mode {
            Mode::Namespace => Observer::namespace(map, &[80], timeout),
            Mode::Guard => Observer::guard(map, timeout),
        }
        .map_err(Failure::Usage)?;
        Ok(Clients {
            mode,
            observer,
            slots,
            known: saved_signatures(artifacts)?,
            shapes: HashSet::new(),
            queue: VecDeque::new(),
            counts: ClientCounts::default(),
            errors: Vec::new(),
        })
    }

    /// The follower's second line: how many clients, in which mode
    /// (`namespace` or `guard`), and their ids.
    pub(super) fn announce(&self, out: &mut impl Write) -> io::Result<()> {
        let ids: Vec<&str> = self.slots.iter().map(|s| s.info.id).collect();
        writeln!(
            out,
            "with {} HTTP clients in mode {} ({})",
            ids.len(),
            self.mode.as_str(),
            ids.join(", ")
        )?;
        out.flush()
    }

    /// The client of `slot`, started if it is not (again after a failure,
    /// at most [`STARTS`] times in all); `None` when it cannot run.
    fn client<'s>(
        slot: &'s mut Slot,
        mode: Mode,
        errors: &mut Vec<String>,
    ) -> Option<&'s mut Client> {
        if slot.client.as_ref().is_some_and(Client::failed)
            && let Some(failed) = slot.client.take()
        {
            let id = slot.info.id;
            errors.extend(failed.finish().into_iter().map(|e| format!("{id}: {e}")));
        }
        if slot.client.is_none() && slot.starts < STARTS {
            slot.starts += 1;
            match Client::start_in(slot.info, START_TIMEOUT, mode) {
                Ok(c) => slot.client = Some(c),
                Err(e) => errors.push(e),
            }
        }
        slot.client.as_mut()
    }

    /// Queues `case`'s input (the file bytes `raw`) for every client whose
    /// parser fetches it or for which some parser reads it as `http` or
    /// `https` ([`worth_sending`]), unless that client was sent an input
    /// of the same shape ([`Prediction::shape`]) before, or the queue is
    /// full. The queue is what [`Clients::drain`] sends.
    pub(super) fn offer(&mut self, raw: &[u8], case: &Case<'_>) -> Result<(), Failure> {
        // A pair's input is a reference, not the URL a client would be
        // given: only inputs without a base go out.
        if case.base.is_some() {
            return Ok(());
        }
        let mut sends = Vec::new();
        let any_client = worth_sending(case);
        for (i, slot) in self.slots.iter().enumerate() {
            let Some(prediction) = Prediction::of(case, slot.parser) else {
                continue;
            };
            if !prediction.worth_sending(any_client) {
                continue;
            }
            if self.shapes.insert((i, prediction.shape(case.input))) {
                sends.push((i, prediction));
            } else {
                self.counts.same_shape += 1;
            }
        }
        if sends.is_empty() {
            return Ok(());
        }
        if self.queue.len() >= QUEUE {
            self.counts.over_cap += sends.len();
            return Ok(());
        }
        self.queue.push_back(Pending {
            input: case.input.to_owned(),
            raw: raw.to_vec(),
            check: serde_json::to_string(case)?,
            sends,
        });
        Ok(())
    }

    /// Requests not yet sent.
    pub(super) fn pending(&self) -> usize {
        self.queue.iter().map(|p| p.sends.len()).sum()
    }

    /// The clients' turn after a batch the adapters took `took` to
    /// check: as long again (at least 100 ms), so that a follower with
    /// clients keeps half its pace rather than the clients' (a request
    /// takes milliseconds where a check takes microseconds).
    pub(super) fn take_turn(
        &mut self,
        out: &mut impl Write,
        artifacts: &Path,
        took: Duration,
    ) -> Result<(), Failure> {
        let slice = took.max(Duration::from_millis(100));
        self.drain(out, artifacts, Instant::now() + slice)
    }

    /// The clients' turn while the follower waits for files: until the
    /// next listing (`interval`). Whether anything was queued to send.
    pub(super) fn idle(
        &mut self,
        out: &mut impl Write,
        artifacts: &Path,
        interval: Duration,
    ) -> Result<bool, Failure> {
        if self.queue.is_empty() {
            return Ok(false);
        }
        self.drain(out, artifacts, Instant::now() + interval)?;
        Ok(true)
    }

    /// Sends the queued inputs through their clients until the queue is
    /// empty or `deadline` has passed (an input's clients are all sent
    /// once it is begun), and saves each input that shows a departure
    /// whose signature is new.
    pub(super) fn drain(
        &mut self,
        out: &mut impl Write,
        artifacts: &Path,
        deadline: Instant,
    ) -> Result<(), Failure> {
        // A signal ends the run: no request after it (its handler has
        // killed the client processes, which would only be started again).
        while Instant::now() < deadline && signal_exit_status().is_none() {
            let Some(pending) = self.queue.pop_front() else {
                break;
            };
            let found = self.send(&pending);
            self.save_if_new(out, artifacts, &pending, &found)?;
        }
        Ok(())
    }

    /// Sends `pending`'s input through its clients; each departure, with
    /// what was observed and the client's runtime.
    fn send(&mut self, pending: &Pending) -> Vec<Found> {
        let mut found = Vec::new();
        for (i, prediction) in &pending.sends {
            let Some(slot) = self.slots.get_mut(*i) else {
                continue;
            };
            let info = slot.info;
            let Some(client) = Clients::client(slot, self.mode, &mut self.errors) else {
                continue;
            };
            self.counts.requests += 1;
            let seen = self.observer.observe(client, &pending.input);
            if let Some(departure) = departure(prediction, info, &seen, self.observer.map()) {
                let runtime = client.runtime().map(str::to_owned);
                found.push(Found {
                    departure,
                    seen,
                    runtime,
                });
            }
        }
        self.counts.departures += found.len();
        found
    }

    /// Saves `pending` in `artifacts` when one of `found`'s signatures is
    /// new, and says so on `out`.
    fn save_if_new(
        &mut self,
        out: &mut impl Write,
        artifacts: &Path,
        pending: &Pending,
        found: &[Found],
    ) -> Result<(), Failure> {
        let new: Vec<String> = found
            .iter()
            .map(|f| f.departure.signature())
            .filter(|s| !self.known.contains(s))
            .collect::<BTreeSet<String>>()
            .into_iter()
            .collect();
        if new.is_empty() {
            return Ok(());
        }
        let path = save_departures(artifacts, pending, found)?;
        self.counts.saved += 1;
        self.counts.signatures += new.len();
        writeln!(out, "saved {}: {}", shown_path(&path), new.join(" "))?;
        out.flush()?;
        self.known.extend(new);
        Ok(())
    }

    /// Stops the clients; their errors, and those of their starts.
    pub(super) fn finish(mut self) -> Vec<String> {
        for slot in std::mem::take(&mut self.slots) {
            if let Some(client) = slot.client {
                let id = slot.info.id;
                self.errors
                    .extend(client.finish().into_iter().map(|e| format!("{id}: {e}")));
            }
        }
        self.errors
    }
}

/// One departure, what was observed, and the client's runtime (its hello
/// line's words).
struct Found {
    departure: Departure,
    seen: Observation,
    runtime: Option<String>,
}

/// One line of `client-HASH.json`; field order is the output order: the
/// departure, then what was observed as `uridiff fetch --json` prints it,
/// then the input's `check --json`.
#[derive(Serialize)]
struct Record<'a> {
    signature: String,
    parser: &'a str,
    /// The in-process parser's library and version (an external one's is
    /// in its adapter's runtime): a client built on another version of the
    /// same library may depart for that alone.
    parser_library: Option<&'static str>,
    client_runtime: Option<&'a str>,
    kind: &'static str,
    predicted: &'a str,
    observed: &'a str,
    #[serde(flatten)]
    observation: super::super::fetch::Record<'a>,
    check: &'a serde_json::value::RawValue,
}

/// Saves the input (the file's bytes) as `client-HASH` in `dir`, and its
/// departures as `client-HASH.json` beside it, each file atomically.
fn save_departures(
    dir: &Path,
    pending: &Pending,
    found: &[Found],
) -> Result<std::path::PathBuf, Failure> {
    let hash = uridiff::corpus::file_name(&pending.raw);
    let name = format!("client-{}", hash.get(..16).unwrap_or(&hash));
    let check: &serde_json::value::RawValue = serde_json::from_str(&pending.check)?;
    let mut json = Vec::new();
    for Found {
        departure: d,
        seen,
        runtime,
    } in found
    {
        let record = Record {
            signature: d.signature(),
            parser: d.parser.as_str(),
            parser_library: uridiff::oracle::info(d.parser).map(|i| i.library),
            client_runtime: runtime.as_deref(),
            kind: d.kind.as_str(),
            predicted: &d.predicted,
            observed: &d.observed,
            observation: super::super::fetch::Record::of(seen),
            check,
        };
        serde_json::to_writer(&mut json, &record)?;
        json.push(b'\n');
    }
    super::save(&dir.join(format!("{name}.json")), &json)?;
    let input = dir.join(&name);
    super::save(&input, &pending.raw)?;
    Ok(input)
}

/// The departure signatures saved in `dir` by earlier runs (the
/// `signature` of each line of every `client-*.json`).
fn saved_signatures(dir: &Path) -> Result<BTreeSet<String>, Failure> {
    Ok(super::saved_reports(dir, "client-")?
        .iter()
        .filter_map(|line| line.get("signature")?.as_str().map(str::to_owned))
        .collect())
}

/// The HTTP clients of `--clients` / `--client`, beside the in-process
/// oracles this build has and the external ones started (`ids`).
pub(super) fn start(
    args: &Args,
    timeout: Duration,
    ids: &[OracleId],
    sandbox: &Sandbox,
    artifacts: &Path,
) -> Result<Clients, Failure> {
    let followed: Vec<OracleId> = OracleId::ALL
        .iter()
        .copied()
        .filter(|id| uridiff::oracle::info(*id).is_some())
        .chain(ids.iter().copied())
        .collect();
    Clients::start(&args.client, timeout, sandbox, &followed, artifacts)
}

/// Gives the clients `--client-grace` for what is queued, says what they
/// did, stops them (their errors join `errors`, unless a signal killed
/// them), and returns how many findings they saved.
pub(super) fn end(
    out: &mut impl Write,
    (mut clients, artifacts): (Clients, &Path),
    args: &Args,
    errors: &mut Vec<String>,
) -> Result<usize, Failure> {
    // The campaign has ended: what is queued for the clients gets
    // --client-grace more (a signal ends it at once).
    if signal_exit_status().is_none() {
        let grace = Duration::from_secs_f64(args.client_grace.clamp(0.0, 3600.0));
        clients.drain(out, artifacts, Instant::now() + grace)?;
    }
    let c = &clients.counts;
    writeln!(
        out,
        "clients: {} requests, {} departures from their parsers, {} findings saved ({} new signatures); not sent: {} of a shape the client was sent before, {} with the queue full, {} left at the end",
        c.requests,
        c.departures,
        c.saved,
        c.signatures,
        c.same_shape,
        c.over_cap,
        clients.pending()
    )?;
    let saved = c.saved;
    super::keep_errors(clients.finish(), errors);
    Ok(saved)
}

/// `--client-timeout` as a duration when clients are asked for
/// (`--clients` or `--client`).
pub(super) fn timeout(args: &Args) -> Result<Option<Duration>, Failure> {
    if !args.clients && args.client.is_empty() {
        return Ok(None);
    }
    let t = args.client_timeout;
    if !(t.is_finite() && t > 0.0 && t <= 600.0) {
        return Err(Failure::Usage(format!(
            "--client-timeout {t}: a number of seconds above 0, at most 600"
        )));
    }
    Ok(Some(Duration::from_secs_f64(t)))
}
