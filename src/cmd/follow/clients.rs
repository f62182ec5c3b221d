//! `corpus follow --clients`: each input the follower checks also goes
//! through the HTTP clients (`uridiff fetch`'s), and a client that goes
//! elsewhere than its own parser reads ([`fetch::departure`]) is saved as a
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

use std::collections::BTreeSet;
use std::fs;
use std::io::{self, Write};
use std::path::Path;
use std::time::Duration;

use serde::Serialize;
use uridiff::fetch::{
    self, Client, ClientInfo, Departure, Mode, Observation, Observer, departure, parser_of,
    worth_sending,
};
use uridiff::oracle::OracleId;
use uridiff::{Case, fetch::netns};

use super::super::error::{Failure, diagnostic};
use super::super::fetch::Sandbox;
use super::super::text::path as shown_path;

/// How often a client whose process failed (a crash, a timeout) is
/// started again before the follower goes on without it.
const STARTS: usize = 3;

/// How long a client may take to start (Go builds its client on first
/// use, Java compiles its source), as for `uridiff fetch`.
const START_TIMEOUT: Duration = Duration::from_secs(180);

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
}

/// The clients of a follower, their traps, and the departure signatures
/// known (saved by earlier runs in the artifacts directory, or in this
/// one).
pub(super) struct Clients {
    mode: Mode,
    observer: Observer,
    slots: Vec<Slot>,
    known: BTreeSet<String>,
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
        if !all.iter().any(|c| c.id == name) {
            let ids: Vec<&str> = all.iter().map(|c| c.id).collect();
            return Err(Failure::Usage(format!(
                "--client {name}: no such client (clients: {})",
                ids.join(", ")
            )));
        }
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
        let mode = match sandbox {
            Sandbox::Entered => {
                let isolation = netns::isolation();
                if !isolation.holds() {
                    return Err(Failure::Usage(format!(
                        "the network namespace is not isolated, no client is run: {isolation:?}"
                    )));
                }
                Mode::Namespace
            }
            Sandbox::Unavailable(why) => {
                diagnostic(format_args!(
                    "follow: no network namespace ({why}): the clients run behind their in-client guards (mode guard)"
                ));
                Mode::Guard
            }
            Sandbox::NotAsked => Mode::Guard,
        };
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
        // The traps listen where an `http` or `https` URL goes without a
        // port; a client sent to another port meets a closed one and
        // leaves no address, only its resolver question.
        let observer = match mode {
            Mode::Namespace => Observer::namespace(map, &[80, 443], timeout),
            Mode::Guard => Observer::guard(map, timeout),
        }
        .map_err(Failure::Usage)?;
        Ok(Clients {
            mode,
            observer,
            slots,
            known: saved_signatures(artifacts)?,
            counts: ClientCounts::default(),
            errors: Vec::new(),
        })
    }

    /// `namespace` or `guard`, and the clients' ids.
    pub(super) fn describe(&self) -> String {
        let ids: Vec<&str> = self.slots.iter().map(|s| s.info.id).collect();
        format!(
            "{} HTTP clients in mode {} ({})",
            ids.len(),
            self.mode.as_str(),
            ids.join(", ")
        )
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

    /// Sends `case`'s input through every client whose parser fetches it
    /// or for which some parser reads it as `http` or `https`
    /// ([`worth_sending`]), and returns each departure with what was
    /// observed and the client's runtime.
    fn observe(&mut self, case: &Case<'_>) -> Vec<Found> {
        let mut found = Vec::new();
        // A pair's input is a reference, not the URL a client would be
        // given: only inputs without a base go out.
        if case.base.is_some() {
            return found;
        }
        for slot in &mut self.slots {
            if !worth_sending(case, slot.parser) {
                continue;
            }
            let (info, parser) = (slot.info, slot.parser);
            let Some(client) = Clients::client(slot, self.mode, &mut self.errors) else {
                continue;
            };
            self.counts.requests += 1;
            let seen = self.observer.observe(client, case.input);
            if let Some(departure) = departure(case, info, parser, &seen, self.observer.map()) {
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

    /// Observes `case` (from the file bytes `raw`) through the clients and
    /// saves it in `artifacts` when a departure's signature is new; says
    /// so on `out`.
    pub(super) fn check_and_save(
        &mut self,
        out: &mut impl Write,
        artifacts: &Path,
        raw: &[u8],
        case: &Case<'_>,
    ) -> Result<(), Failure> {
        let found = self.observe(case);
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
        let path = save_departures(artifacts, raw, case, &found)?;
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

/// One line of `client-HASH.json`; field order is the output order.
#[derive(Serialize)]
struct Record<'a, 'c> {
    signature: String,
    client: &'static str,
    parser: &'a str,
    /// The in-process parser's library and version (an external one's is
    /// in its adapter's runtime): a client built on another version of the
    /// same library may depart for that alone.
    parser_library: Option<&'static str>,
    client_runtime: Option<&'a str>,
    kind: &'static str,
    predicted: &'a str,
    observed: &'a str,
    mode: &'static str,
    input: &'a str,
    address: Option<String>,
    port: Option<u16>,
    resolved_name: Option<&'a str>,
    host_header: Option<&'a str>,
    request_target: Option<&'a str>,
    error: Option<&'a str>,
    check: &'a Case<'c>,
}

/// Saves the input (bytes `raw`) as `client-HASH` in `dir`, and its
/// departures as `client-HASH.json` beside it, each file atomically.
fn save_departures(
    dir: &Path,
    raw: &[u8],
    case: &Case<'_>,
    found: &[Found],
) -> Result<std::path::PathBuf, Failure> {
    let hash = uridiff::corpus::file_name(raw);
    let name = format!("client-{}", hash.get(..16).unwrap_or(&hash));
    let mut json = Vec::new();
    for Found {
        departure: d,
        seen,
        runtime,
    } in found
    {
        let record = Record {
            signature: d.signature(),
            client: d.client,
            parser: d.parser.as_str(),
            parser_library: uridiff::oracle::info(d.parser).map(|i| i.library),
            client_runtime: runtime.as_deref(),
            kind: d.kind.as_str(),
            predicted: &d.predicted,
            observed: &d.observed,
            mode: seen.mode.as_str(),
            input: case.input,
            address: seen.address.map(|a| a.to_string()),
            port: seen.port,
            resolved_name: seen.resolved_name.as_deref(),
            host_header: seen.host_header.as_deref(),
            request_target: seen.request_target.as_deref(),
            error: seen.error.as_deref(),
            check: case,
        };
        serde_json::to_writer(&mut json, &record)?;
        json.push(b'\n');
    }
    super::save(&dir.join(format!("{name}.json")), &json)?;
    let input = dir.join(&name);
    super::save(&input, raw)?;
    Ok(input)
}

/// The departure signatures saved in `dir` by earlier runs (the
/// `signature` of each line of every `client-*.json`).
fn saved_signatures(dir: &Path) -> Result<BTreeSet<String>, Failure> {
    let mut found = BTreeSet::new();
    let entries = match fs::read_dir(dir) {
        Ok(entries) => entries,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(found),
        Err(e) => {
            return Err(super::super::io::context(
                &e,
                format_args!("cannot list {}", dir.display()),
            )
            .into());
        }
    };
    for entry in entries.flatten() {
        let name = entry.file_name().to_string_lossy().into_owned();
        let report = name.starts_with("client-") && name.ends_with(".json");
        if !(report && entry.file_type().is_ok_and(|t| t.is_file())) {
            continue;
        }
        let Ok(text) = fs::read_to_string(entry.path()) else {
            diagnostic(format_args!("cannot read {}", entry.path().display()));
            continue;
        };
        for line in text.lines() {
            let signature = serde_json::from_str::<serde_json::Value>(line)
                .ok()
                .and_then(|v| v.get("signature")?.as_str().map(str::to_owned));
            found.extend(signature);
        }
    }
    Ok(found)
}
