//! `uridiff fetch`: each input through real HTTP clients, and where each
//! request really went.
//!
//! As root the command enters a network namespace whose only interface is
//! `lo`, and a mount namespace with its own name files, at its very start
//! ([`prepare`], called by `main` before any thread exists); the clients,
//! its children, inherit both. Elsewhere it falls back to the clients'
//! in-client guards, and says so (`mode`).

use std::ffi::OsStr;
use std::io::Write;
use std::net::IpAddr;
use std::path::PathBuf;
use std::time::Duration;

use serde::Serialize;
use uridiff::fetch::{self, Client, ClientInfo, Mode, Observation, Observer, netns};

use super::error::{Failure, Status, diagnostic};
use super::io::{file_lines, stdout};

#[derive(Debug, clap::Args)]
pub(crate) struct Args {
    /// One JSON object per client per input per line (keys client, input,
    /// mode, address, port, resolved_name, host_header, request_target,
    /// redirects, error) instead of the aligned view.
    #[arg(long)]
    json: bool,
    /// Only this client (repeatable); every client by default. Clients:
    /// libcurl, urllib3, urllib.request, requests, httpx, aiohttp,
    /// node-http-url-parse, node-http-new-url, go-net-http, node-fetch,
    /// ruby-net-http, ruby-open-uri, php-file-get-contents, php-curl,
    /// java-httpclient, java-httpurlconnection, chromium (sent a trap page
    /// that redirects to the input).
    #[arg(long = "client", value_name = "NAME")]
    clients: Vec<String>,
    /// Read the inputs from PATH, one per line ('-' for standard input).
    #[arg(long, value_name = "PATH", conflicts_with = "inputs")]
    file: Option<PathBuf>,
    /// Map NAME to a loopback trap address of its own (repeatable):
    /// localhost (127.0.0.1) and evil.example (127.0.0.2) are mapped, the
    /// given names follow from 127.0.0.3; any other name gets NXDOMAIN
    /// from the DNS trap, which still records it.
    #[arg(long = "host", value_name = "NAME")]
    hosts: Vec<String>,
    /// Each request's time limit, in seconds.
    #[arg(long, value_name = "SECONDS", default_value_t = 5.0)]
    timeout: f64,
    /// Do not enter a network namespace: run the clients behind their
    /// in-client guards (names mapped, the port forced), as without root.
    #[arg(long)]
    guard: bool,
    /// Fetch nothing: print what the namespace looks like (its interfaces,
    /// and the errors of a TCP connect and a UDP send to 192.0.2.1) as one
    /// JSON object, exit 0 when only lo exists and both fail with
    /// ENETUNREACH, 1 otherwise.
    #[arg(long, conflicts_with_all = ["inputs", "file", "guard"])]
    isolation: bool,
    /// URLs to fetch (put those that begin with '-' after '--').
    #[arg(required_unless_present_any = ["file", "isolation"])]
    inputs: Vec<String>,
}

/// Whether [`prepare`] entered the namespace.
#[derive(Debug)]
pub(crate) enum Sandbox {
    /// Not a command that observes (`fetch`, `bypass`, `report`), or told
    /// not to (`--guard`, `--model`, `--confirm`), or only `--help`.
    NotAsked,
    /// In the namespace, `lo` up.
    Entered,
    /// Namespaces are not available here (not root, `unshare` refused,
    /// no `ip`): the guard mode, and why.
    Unavailable(String),
}

/// Enters the namespace when the command line is `uridiff fetch` without
/// `--guard` (or `--help`), `bypass` without `--model` or `--confirm` (it
/// observes by default, falling back to the model where no namespace can
/// be entered), `report` without `--model` or `--confirm`, or `corpus
/// follow` with `--clients` or `--client`. Called first in `main`,
/// before any thread exists: `unshare(CLONE_NEWNS)` is refused to a process
/// with threads. The command line is read as it is, before clap: an
/// argument after `--` is an input, not an option.
pub(crate) fn prepare() -> Sandbox {
    let args: Vec<std::ffi::OsString> = std::env::args_os().skip(1).collect();
    let command = args.first().map(|a| a.as_os_str());
    let options: Vec<&std::ffi::OsString> =
        args.iter().skip(1).take_while(|a| *a != "--").collect();
    let given = |flag: &str| options.iter().any(|a| *a == flag);
    let asked = match command.and_then(OsStr::to_str) {
        Some("fetch") => !given("--guard"),
        // `bypass` sends its candidates through the same clients unless
        // told to print the model (`--model`) or to confirm it on the
        // guarded clients instead (`--confirm`).
        Some("bypass") => !given("--model") && !given("--confirm"),
        // `report` observes its Bypasses section the same way, unless
        // told to keep the model's cells or to confirm them instead.
        Some("report") => !given("--model") && !given("--confirm"),
        // `corpus follow` observes its HTTP clients when asked for them.
        Some("corpus") => {
            options.first().is_some_and(|a| *a == "follow")
                && options.iter().any(|a| {
                    a.to_str().is_some_and(|a| {
                        a == "--clients" || a == "--client" || a.starts_with("--client=")
                    })
                })
        }
        _ => false,
    };
    if !asked || given("--help") || given("-h") {
        return Sandbox::NotAsked;
    }
    match netns::enter() {
        Ok(()) => Sandbox::Entered,
        Err(why) => Sandbox::Unavailable(why),
    }
}

/// Where the clients run: in the namespace when [`prepare`] entered it
/// (and only `lo` is there), else behind their guards, saying why on
/// standard error (each line begins with `context`, the command's name and
/// a colon, or nothing).
///
/// # Errors
/// The namespace was entered but is not isolated: nothing may be sent.
pub(crate) fn mode(sandbox: &Sandbox, context: &str) -> Result<Mode, Failure> {
    Ok(match sandbox {
        Sandbox::Entered => {
            let isolation = netns::isolation();
            if !isolation.holds() {
                return Err(Failure::Usage(format!(
                    "the network namespace is not isolated, nothing is fetched: {isolation:?}"
                )));
            }
            Mode::Namespace
        }
        Sandbox::NotAsked => Mode::Guard,
        Sandbox::Unavailable(why) => {
            diagnostic(format!(
                "{context}no network namespace ({why}): the clients run behind their in-client guards (mode guard)"
            ));
            Mode::Guard
        }
    })
}

/// The JSON shape of one observation; field order is the output order.
/// The follower's departure records carry it too.
#[derive(Debug, Serialize)]
pub(crate) struct Record<'a> {
    client: &'a str,
    input: &'a str,
    mode: &'static str,
    address: Option<String>,
    port: Option<u16>,
    resolved_name: Option<&'a str>,
    host_header: Option<&'a str>,
    request_target: Option<&'a str>,
    redirects: usize,
    error: Option<&'a str>,
}

impl<'a> Record<'a> {
    /// The record of `seen`.
    pub(crate) fn of(seen: &'a Observation) -> Record<'a> {
        Record {
            client: seen.client,
            input: &seen.input,
            mode: seen.mode.as_str(),
            address: seen.address.map(|a: IpAddr| a.to_string()),
            port: seen.port,
            resolved_name: seen.resolved_name.as_deref(),
            host_header: seen.host_header.as_deref(),
            request_target: seen.request_target.as_deref(),
            redirects: seen.redirects,
            error: seen.error.as_deref(),
        }
    }
}

/// How long a client may take to start (Go builds its client on first
/// use, Java compiles its source).
const START_TIMEOUT: Duration = Duration::from_secs(180);

/// The most ports the traps listen on (80, 443 and those the inputs name).
const MAX_PORTS: usize = 64;

pub(crate) fn run(args: &Args, sandbox: Sandbox) -> Result<Status, Failure> {
    if args.isolation {
        return isolation(&sandbox);
    }
    let mode = mode(&sandbox, "")?;
    if !(args.timeout.is_finite() && args.timeout > 0.0 && args.timeout <= 600.0) {
        return Err(Failure::Usage(format!(
            "--timeout {}: a number of seconds above 0, at most 600",
            args.timeout
        )));
    }
    let timeout = Duration::from_secs_f64(args.timeout);
    let inputs = read_inputs(args)?;
    let (chosen, mut status) = choose_clients(&args.clients, mode)?;

    let mut names: Vec<&str> = vec!["evil.example"];
    names.extend(args.hosts.iter().map(String::as_str));
    let map = fetch::name_map(names);
    let mut observer = match mode {
        Mode::Namespace => Observer::namespace(map, &ports_of(&inputs), timeout),
        Mode::Guard => Observer::guard(map, timeout),
    }
    .map_err(Failure::Usage)?;

    let mut out = stdout();
    if !args.json {
        writeln!(out, "mode: {}", mode.as_str())?;
    }
    for info in chosen {
        let mut client = match Client::start_in(info, START_TIMEOUT, mode) {
            Ok(client) => client,
            Err(e) => {
                diagnostic(format!("{e} (not run)"));
                status = Status::Error;
                continue;
            }
        };
        for input in &inputs {
            let seen = observer.observe(&mut client, input);
            write_observation(&mut out, &seen, args.json)?;
        }
        out.flush()?;
        for error in client.finish() {
            diagnostic(error);
            status = Status::Error;
        }
    }
    Ok(status)
}

/// `--isolation`: the namespace's interfaces and probes, as JSON.
fn isolation(sandbox: &Sandbox) -> Result<Status, Failure> {
    if let Sandbox::Unavailable(why) = sandbox {
        return Err(Failure::Usage(format!("no network namespace: {why}")));
    }
    let seen = netns::isolation();
    let error = |e: &Option<std::io::Error>| {
        e.as_ref().map(|e| {
            serde_json::json!({
                "errno": e.raw_os_error(),
                "message": e.to_string(),
            })
        })
    };
    let record = serde_json::json!({
        "interfaces": seen.interfaces,
        "tcp_connect_192.0.2.1": error(&seen.tcp_probe),
        "udp_send_192.0.2.1:53": error(&seen.udp_probe),
        "isolated": seen.holds(),
    });
    let mut out = stdout();
    writeln!(out, "{record}")?;
    Ok(if seen.holds() {
        Status::Clean
    } else {
        Status::Found
    })
}

fn read_inputs(args: &Args) -> Result<Vec<String>, Failure> {
    let Some(path) = &args.file else {
        return Ok(args.inputs.clone());
    };
    let mut inputs = Vec::new();
    for line in file_lines(path)? {
        let (number, text) = line?;
        match text {
            Ok(text) => inputs.push(text),
            Err(why) => diagnostic(format!("{}:{number}: skipped: {why}", path.display())),
        }
    }
    if inputs.is_empty() {
        return Err(Failure::Usage(format!(
            "{}: no input in it",
            path.display()
        )));
    }
    Ok(inputs)
}

/// The clients asked for (all by default; in the guard mode, only the
/// guarded ones by default), and `Status::Error` when one asked for cannot
/// run in this mode.
fn choose_clients(
    names: &[String],
    mode: Mode,
) -> Result<(Vec<&'static ClientInfo>, Status), Failure> {
    let all = fetch::clients();
    if names.is_empty() {
        let (run, skipped): (Vec<&ClientInfo>, Vec<&ClientInfo>) = all
            .iter()
            .partition(|c| mode == Mode::Namespace || c.guarded);
        if !skipped.is_empty() {
            let ids: Vec<&str> = skipped.iter().map(|c| c.id).collect();
            diagnostic(format!(
                "not run in the guard mode (they have no in-client guard; run uridiff fetch as root for a network namespace): {}",
                ids.join(", ")
            ));
        }
        return Ok((run, Status::Clean));
    }
    let mut chosen = Vec::new();
    for name in names {
        let info = client_named(name)?;
        if !chosen.contains(&info) {
            chosen.push(info);
        }
    }
    Ok((chosen, Status::Clean))
}

/// The client `--client NAME` names.
///
/// # Errors
/// No client has that id: the error lists them.
pub(crate) fn client_named(name: &str) -> Result<&'static ClientInfo, Failure> {
    let all = fetch::clients();
    all.iter().find(|c| c.id == name).ok_or_else(|| {
        let ids: Vec<&str> = all.iter().map(|c| c.id).collect();
        Failure::Usage(format!(
            "--client {name}: no such client (clients: {})",
            ids.join(", ")
        ))
    })
}

/// 80, 443, and every number after a colon in the inputs that is a port
/// (1 to 65535): a client may read a port where another parser would not,
/// and a trap must be there to see it. At most [`MAX_PORTS`].
pub(crate) fn ports_of(inputs: &[String]) -> Vec<u16> {
    let mut ports = vec![80, 443];
    for input in inputs {
        for (i, _) in input.match_indices(':') {
            let digits: String = input
                .get(i + 1..)
                .unwrap_or_default()
                .chars()
                .take_while(char::is_ascii_digit)
                .collect();
            if let Ok(port) = digits.parse::<u16>()
                && port != 0
                && !ports.contains(&port)
                && ports.len() < MAX_PORTS
            {
                ports.push(port);
            }
        }
    }
    ports
}

fn write_observation(out: &mut impl Write, seen: &Observation, json: bool) -> Result<(), Failure> {
    if json {
        serde_json::to_writer(&mut *out, &Record::of(seen))?;
        writeln!(out)?;
        return Ok(());
    }
    let show = |v: Option<&str>| v.map_or_else(|| "-".to_owned(), |v| format!("{v:?}"));
    let at = seen.destination().unwrap_or_else(|| "-".to_owned());
    writeln!(
        out,
        "{:<22} {:?} -> {at}  resolved {}  Host {}  target {}{}{}",
        seen.client,
        seen.input,
        show(seen.resolved_name.as_deref()),
        show(seen.host_header.as_deref()),
        show(seen.request_target.as_deref()),
        if seen.redirects > 0 {
            format!("  redirects {}", seen.redirects)
        } else {
            String::new()
        },
        seen.error
            .as_deref()
            .map(|e| format!("  error {}", uridiff::text::visible_lines(e)))
            .unwrap_or_default(),
    )?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ports_are_80_443_and_the_numbers_after_colons() {
        let inputs =
            ["http://a:8080/x:81", "http://b:0/:65536/:99999x", "c:443"].map(str::to_owned);
        assert_eq!(ports_of(&inputs), [80, 443, 8080, 81]);
    }
}
