//! Confirmation by real clients: each fetcher that is an HTTP client
//! ([`crate::fetch::clients_for`]) sends a real request for a bypass's
//! input to trap servers on loopback, the allowed host standing for one
//! trap address and the target for another. A bypass is *confirmed* when
//! the request arrives at the target's trap: the client really went where
//! its parser said.
//!
//! "The request" is told from anything else by its token: each request
//! carries a fresh one ([`Tokens`], a per-run random seed and a counter) in
//! the `X-Uridiff-Token` header, the trap records the header of every hit,
//! and only a hit carrying the token of the request out counts
//! ([`crate::fetch::Hit::carries`]). Every other hit (a connection from
//! another program, a client's late retry of an earlier request, a request
//! that came in between two requests) is a *stray*: it confirms nothing,
//! and [`Summary::strays`] counts it.
//!
//! Only loopback is ever dialled: the traps bind 127.0.0.0/8 addresses
//! only, and every client refuses any other address and any name not
//! mapped here, in its own resolver and socket hooks ([`crate::fetch`]).
//! A goal whose hosts are addresses outside loopback cannot be confirmed,
//! and says so.

use std::collections::BTreeMap;
use std::net::{IpAddr, Ipv4Addr};
use std::time::{Duration, Instant};

use super::{Aim, Confirmation, Goal, Matrix, Place, Read, Reading, read};
use crate::fetch::{
    Client, ClientInfo, Hit, Request, Token, Tokens, Trap, clients_for, is_loopback,
};

/// How much confirmation may do.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Budget {
    /// Requests sent, at most.
    pub requests: usize,
    /// Bypasses tried per validator/fetcher pair, at most.
    pub per_cell: usize,
    /// Time one request may take.
    pub request_timeout: Duration,
    /// Time a client process may take to start and load its library
    /// (Python importing urllib3, Node, the Go program once built), on a
    /// machine that may be busy.
    pub start_timeout: Duration,
    /// Time the whole confirmation may take (no request starts after it).
    pub total: Duration,
}

impl Default for Budget {
    fn default() -> Self {
        Budget {
            requests: 300,
            per_cell: 3,
            request_timeout: Duration::from_secs(10),
            start_timeout: Duration::from_secs(30),
            total: Duration::from_secs(120),
        }
    }
}

/// What a confirmation did.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Summary {
    /// Requests sent.
    pub requests: usize,
    /// Bypasses confirmed.
    pub confirmed: usize,
    /// Fetchers with no HTTP client here (`url`, `http`, ...): their cells
    /// cannot be confirmed.
    pub without_client: Vec<String>,
    /// Why nothing could be tried, when nothing could.
    pub not_confirmable: Option<String>,
    /// Clients that could not start or failed, one line each.
    pub errors: Vec<String>,
    /// Whether the budget ran out before every cell was tried.
    pub budget_spent: bool,
    /// Requests that reached a trap without the token of the request out
    /// (another program, a late retry, a redirect): ignored, counted here.
    pub strays: usize,
}

/// What the hits since the last request say about the request out.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Judged {
    /// A hit carrying the request's token arrived where `arrives` wants.
    arrived: bool,
    /// Hits without the request's token.
    strays: usize,
}

/// Judges `hits` for the request whose token is `token`: only a hit that
/// carries it can show where the request went; every other hit is a stray,
/// wherever it landed.
fn judge(hits: &[Hit], token: &Token, arrives: impl Fn(IpAddr) -> bool) -> Judged {
    Judged {
        arrived: hits
            .iter()
            .any(|hit| hit.carries(token) && arrives(hit.addr)),
        strays: hits.iter().filter(|hit| !hit.carries(token)).count(),
    }
}

/// Sends `request` through `client` and judges every hit that reached the
/// trap since the last call (those from before the request included: they
/// cannot carry its token, which no one had yet). The hits are judged even
/// when the client fails, so that its strays are counted.
fn attempt(
    client: &mut Client,
    trap: &Trap,
    request: &Request<'_>,
    arrives: impl Fn(IpAddr) -> bool,
) -> (Result<(), String>, Judged) {
    let fetched = client.fetch(request).map(|_| ());
    let judged = judge(&trap.take_hits(), request.token, arrives);
    (fetched, judged)
}

/// A loopback address for `host` and the trap it stands for: the host
/// itself when it is a loopback address, else `fallback` (a name is then
/// mapped to it in every client's resolver hook). `Err` for an address
/// outside loopback: it would be dialled as written.
fn trap_address(host: &str, fallback: Ipv4Addr) -> Result<(IpAddr, bool), String> {
    match read(host, Reading::Literal) {
        Read::Address(address) if is_loopback(address) => Ok((address, false)),
        Read::Address(address) => Err(format!(
            "{address} is not a loopback address: only 127.0.0.0/8 and ::1 are ever dialled \
             (name the hosts, or give 127.x.x.x addresses)"
        )),
        Read::Name(_) => Ok((IpAddr::V4(fallback), true)),
    }
}

/// Confirms the bypasses of `matrix` with real clients, within `budget`,
/// marking each confirmed one's `confirmed_by`, and records in the matrix
/// whether confirmation ran ([`Confirmation`]).
pub fn confirm(matrix: &mut Matrix, budget: Budget) -> Summary {
    let summary = confirm_cells(matrix, budget);
    matrix.confirmation = match &summary.not_confirmable {
        Some(why) => Confirmation::DidNotRun(why.clone()),
        None => Confirmation::Ran,
    };
    summary
}

/// The traps of a confirmation: which names the clients' resolver hooks
/// map, and where a request must arrive to confirm.
struct Traps {
    /// The hosts each client's resolver hook maps, with their addresses.
    hosts: Vec<(String, IpAddr)>,
    /// The trap addresses, the allowed host's first.
    addrs: Vec<IpAddr>,
    /// The target's trap; `None` for a denylist, where any loopback trap
    /// but the allowed host's confirms.
    target: Option<IpAddr>,
}

impl Traps {
    /// Whether a hit at `addr` is where the bypass aims.
    fn aimed_at(&self, addr: IpAddr) -> bool {
        match self.target {
            Some(t) => addr == t,
            // A denylist: any loopback trap but the allowed host's.
            None => Some(addr) != self.addrs.first().copied(),
        }
    }
}

/// The goals that aim at names (or one address): the allowed host and
/// each target name; `None` for a denylist.
fn aimed_names(matrix: &Matrix) -> Option<(&str, Vec<String>)> {
    match &matrix.goal {
        Goal::Reach { allow, target }
        | Goal::NoHost {
            allow,
            aim: Aim::Host(target),
        } => Some((allow, vec![target.clone()])),
        // A blocklisted name is mapped as written; a client that reads a
        // spelling of it (`%65vil.example`) as the name asks for the name.
        Goal::DenyName { allow, name } => Some((allow, vec![name.clone()])),
        // The domain and every name under it that a bypass's fetcher
        // reads: each is the attacker's, each maps to the target's trap.
        Goal::ReachDomain { allow, domain }
        | Goal::NoHost {
            allow,
            aim: Aim::Domain(domain),
        } => {
            let mut names = vec![domain.clone()];
            for b in matrix.all() {
                if super::under_domain(&b.fetcher_host, domain)
                    && !names
                        .iter()
                        .any(|n| n.eq_ignore_ascii_case(&b.fetcher_host))
                {
                    names.push(b.fetcher_host.clone());
                }
            }
            Some((allow, names))
        }
        Goal::Deny { .. } => None,
    }
}

/// The traps for `matrix`'s goal, or why it cannot be confirmed.
fn plan_traps(matrix: &Matrix) -> Result<Traps, String> {
    let mut hosts: Vec<(String, IpAddr)> = Vec::new();
    match (&matrix.goal, aimed_names(matrix)) {
        (_, Some((allow, targets))) => {
            let target = targets.first().map(String::as_str).unwrap_or_default();
            let allowed = trap_address(allow, Ipv4Addr::new(127, 0, 0, 2));
            let targeted = trap_address(target, Ipv4Addr::new(127, 0, 0, 3));
            match (allowed, targeted) {
                (Ok((a, a_named)), Ok((t, t_named))) if a != t => {
                    if a_named {
                        hosts.push((allow.to_owned(), a));
                    }
                    if t_named {
                        for name in &targets {
                            hosts.push((name.clone(), t));
                        }
                    }
                    Ok(Traps {
                        hosts,
                        addrs: vec![a, t],
                        target: Some(t),
                    })
                }
                (Ok(_), Ok(_)) => {
                    Err("the allowed and target hosts map to one loopback address".to_owned())
                }
                (Err(why), _) | (_, Err(why)) => Err(why),
            }
        }
        (Goal::Deny { allow, .. }, None) => {
            // A denylist bypass is confirmed where the fetcher reaches
            // loopback: its own address is the trap. The allowed name
            // gets a trap of its own, `localhost` its /etc/hosts address.
            let (a, a_named) = trap_address(allow, Ipv4Addr::new(127, 0, 0, 2))?;
            if a_named {
                hosts.push((allow.clone(), a));
            }
            hosts.push(("localhost".to_owned(), IpAddr::V4(Ipv4Addr::LOCALHOST)));
            let mut addrs = vec![a];
            for b in matrix.all() {
                if let Some(address) = b
                    .fetcher_address
                    .as_deref()
                    .and_then(|t| t.parse::<IpAddr>().ok())
                    .filter(|t| is_loopback(*t) && *t != a)
                    && !addrs.contains(&address)
                    && addrs.len() < 16
                {
                    addrs.push(address);
                }
            }
            if !addrs.contains(&IpAddr::V4(Ipv4Addr::LOCALHOST)) {
                addrs.push(IpAddr::V4(Ipv4Addr::LOCALHOST));
            }
            Ok(Traps {
                hosts,
                addrs,
                target: None,
            })
        }
        // Every other goal aims at names (above).
        (_, None) => Err("nothing to aim at".to_owned()),
    }
}

/// The bypasses to send, as (validator, fetcher, input, fetcher's place):
/// cells in matrix order; in each, http inputs first (the clients send
/// http only), then the shortest.
fn send_order(matrix: &Matrix) -> Vec<(String, String, String, Place)> {
    let mut order: Vec<(String, String, String, Place)> = matrix
        .all()
        .map(|b| {
            (
                b.validator.clone(),
                b.fetcher.clone(),
                b.input.clone(),
                b.fetcher_place,
            )
        })
        .collect();
    order.sort_by_key(|(v, f, input, _)| {
        (
            matrix.validators.iter().position(|x| x == v),
            matrix.fetchers.iter().position(|x| x == f),
            !input
                .get(..5)
                .is_some_and(|s| s.eq_ignore_ascii_case("http:")),
            input.chars().count(),
        )
    });
    order
}

/// The budget ran out: no more requests.
struct BudgetSpent;

/// What sending needs and remembers across bypasses: the clients started,
/// and where each (client, input) arrived, since that does not depend on
/// the validator and each is sent once.
struct Sender<'t> {
    budget: Budget,
    started: Instant,
    tokens: Tokens,
    trap: Trap,
    traps: &'t Traps,
    mapped: Vec<(&'t str, IpAddr)>,
    clients: BTreeMap<&'static str, Option<Client>>,
    sent: BTreeMap<(&'static str, String), bool>,
}

impl Sender<'_> {
    /// Sends `input` through `info`'s client (started on first use) unless
    /// it sent it before: `Some(arrived)` once sent, now or before; `None`
    /// when the client did not start or the request failed (in
    /// `summary.errors`).
    fn send_once(
        &mut self,
        info: &'static ClientInfo,
        input: &str,
        summary: &mut Summary,
    ) -> Result<Option<bool>, BudgetSpent> {
        if let Some(&arrived) = self.sent.get(&(info.id, input.to_owned())) {
            return Ok(Some(arrived));
        }
        if summary.requests >= self.budget.requests || self.started.elapsed() >= self.budget.total {
            return Err(BudgetSpent);
        }
        let start_timeout = self.budget.start_timeout;
        let client = self.clients.entry(info.id).or_insert_with(|| {
            match Client::start(info, start_timeout) {
                Ok(client) => Some(client),
                Err(e) => {
                    summary.errors.push(format!("{}: {e}", info.id));
                    None
                }
            }
        });
        let Some(client) = client.as_mut() else {
            return Ok(None);
        };
        summary.requests += 1;
        let token = self.tokens.next_token();
        let request = Request {
            url: input,
            port: self.trap.port(),
            hosts: &self.mapped,
            timeout: self.budget.request_timeout,
            token: &token,
        };
        let traps = self.traps;
        let (fetched, judged) = attempt(client, &self.trap, &request, |addr| traps.aimed_at(addr));
        summary.strays += judged.strays;
        if let Err(e) = fetched {
            summary.errors.push(format!("{}: {e}", info.id));
            return Ok(None);
        }
        self.sent
            .insert((info.id, input.to_owned()), judged.arrived);
        Ok(Some(judged.arrived))
    }
}

fn confirm_cells(matrix: &mut Matrix, budget: Budget) -> Summary {
    let mut summary = Summary::default();
    let traps = match plan_traps(matrix) {
        Ok(traps) => traps,
        Err(why) => {
            summary.not_confirmable = Some(why);
            return summary;
        }
    };
    let tokens = match Tokens::new() {
        Ok(tokens) => tokens,
        Err(why) => {
            summary.not_confirmable = Some(why);
            return summary;
        }
    };
    let trap = match Trap::start(&traps.addrs) {
        Ok(trap) => trap,
        Err(e) => {
            summary.not_confirmable = Some(format!("the trap servers did not start: {e}"));
            return summary;
        }
    };
    let mut sender = Sender {
        budget,
        started: Instant::now(),
        tokens,
        trap,
        traps: &traps,
        mapped: traps.hosts.iter().map(|(h, a)| (h.as_str(), *a)).collect(),
        clients: BTreeMap::new(),
        sent: BTreeMap::new(),
    };
    let mut tried_per_cell: BTreeMap<(String, String), usize> = BTreeMap::new();
    let mut confirmed_cells: BTreeMap<(String, String), &'static str> = BTreeMap::new();
    let mut confirmed_inputs: BTreeMap<(String, String, String), &'static str> = BTreeMap::new();
    for (validator, fetcher, input, place) in send_order(matrix) {
        if matches!(matrix.goal, Goal::Deny { .. }) && place != Place::Loopback {
            continue;
        }
        let cell = (validator.clone(), fetcher.clone());
        if confirmed_cells.contains_key(&cell) {
            continue;
        }
        let infos = clients_for(&fetcher);
        if infos.is_empty() {
            if !summary.without_client.contains(&fetcher) {
                summary.without_client.push(fetcher.clone());
            }
            continue;
        }
        let tried = tried_per_cell.entry(cell.clone()).or_default();
        if *tried >= budget.per_cell {
            continue;
        }
        *tried += 1;
        for info in infos {
            match sender.send_once(info, &input, &mut summary) {
                Ok(Some(true)) => {
                    confirmed_cells.insert(cell.clone(), info.id);
                    confirmed_inputs
                        .insert((validator.clone(), fetcher.clone(), input.clone()), info.id);
                    break;
                }
                Ok(_) => {}
                Err(BudgetSpent) => {
                    summary.budget_spent = true;
                    break;
                }
            }
        }
    }
    // What came in after the last request carries no token of a request
    // out.
    summary.strays += sender.trap.take_hits().len();
    for b in matrix.all_mut() {
        if let Some(id) =
            confirmed_inputs.get(&(b.validator.clone(), b.fetcher.clone(), b.input.clone()))
        {
            b.confirmed_by = Some((*id).to_owned());
            summary.confirmed += 1;
        }
    }
    for (id, client) in sender.clients {
        if let Some(client) = client {
            for e in client.finish() {
                summary.errors.push(format!("{id}: {e}"));
            }
        }
    }
    summary
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn traps_stand_on_loopback_only() {
        let fallback = Ipv4Addr::new(127, 0, 0, 2);
        assert_eq!(
            trap_address("127.0.0.9", fallback),
            Ok(("127.0.0.9".parse().unwrap(), false)),
            "a loopback address is its own trap"
        );
        assert_eq!(
            trap_address("[::1]", fallback),
            Ok(("::1".parse().unwrap(), false))
        );
        assert_eq!(
            trap_address("Allowed.Example", fallback),
            Ok((IpAddr::V4(fallback), true)),
            "a name is mapped to the fallback"
        );
        for outside in [
            "192.0.2.1",
            "10.0.0.1",
            "[2001:db8::1]",
            "0.0.0.0",
            "169.254.169.254",
        ] {
            assert!(trap_address(outside, fallback).is_err(), "{outside}");
        }
    }

    fn hit(addr: &str, token: Option<&Token>) -> Hit {
        Hit {
            addr: addr.parse().unwrap(),
            port: 80,
            request_line: "GET / HTTP/1.1".to_owned(),
            host_header: Some("evil.example".to_owned()),
            token: token.map(Token::to_string),
        }
    }

    #[test]
    fn only_a_hit_with_the_requests_token_confirms_and_others_are_strays() {
        let mut tokens = Tokens::new().unwrap();
        let (earlier, token) = (tokens.next_token(), tokens.next_token());
        let target = |addr: IpAddr| addr == "127.0.0.3".parse::<IpAddr>().unwrap();
        // Strays at the target (no token, an earlier request's token) while
        // the request itself went to the allowed host's trap.
        let hits = [
            hit("127.0.0.3", None),
            hit("127.0.0.3", Some(&earlier)),
            hit("127.0.0.2", Some(&token)),
        ];
        assert_eq!(
            judge(&hits, &token, target),
            Judged {
                arrived: false,
                strays: 2
            }
        );
        // The request itself at the target, beside a stray.
        let hits = [hit("127.0.0.2", None), hit("127.0.0.3", Some(&token))];
        assert_eq!(
            judge(&hits, &token, target),
            Judged {
                arrived: true,
                strays: 1
            }
        );
        assert_eq!(judge(&[], &token, target), Judged::default());
    }

    /// A real client (libcurl) sends its request to the allowed host's trap
    /// while a raw TCP client sends `GET /` to the target's: no
    /// confirmation, one stray. Then the request itself at the target
    /// confirms.
    #[cfg(feature = "curl")]
    #[test]
    fn a_stray_at_the_target_during_a_request_does_not_confirm() {
        use std::io::{Read, Write};
        use std::net::TcpStream;

        let (allowed, target): (IpAddr, IpAddr) =
            ("127.0.0.2".parse().unwrap(), "127.0.0.3".parse().unwrap());
        let trap = Trap::start(&[allowed, target]).unwrap();
        let info = crate::fetch::clients()
            .iter()
            .find(|c| c.id == "libcurl")
            .unwrap();
        let mut client = Client::start(info, Duration::from_secs(10)).unwrap();
        let mut tokens = Tokens::new().unwrap();
        let stray = || {
            let mut stream = TcpStream::connect((target, trap.port())).unwrap();
            stream
                .write_all(b"GET / HTTP/1.1\r\nHost: evil.example\r\n\r\n")
                .unwrap();
            // The trap records the hit before it answers.
            stream.read_to_end(&mut Vec::new()).unwrap();
        };
        let send = |client: &mut Client, url: &str, token: &Token| {
            let request = Request {
                url,
                port: trap.port(),
                hosts: &[],
                timeout: Duration::from_secs(10),
                token,
            };
            let (fetched, judged) = attempt(client, &trap, &request, |a| a == target);
            fetched.unwrap();
            judged
        };
        stray();
        let judged = send(&mut client, "http://127.0.0.2/", &tokens.next_token());
        assert_eq!(
            judged,
            Judged {
                arrived: false,
                strays: 1
            }
        );
        let judged = send(&mut client, "http://127.0.0.3/", &tokens.next_token());
        assert_eq!(
            judged,
            Judged {
                arrived: true,
                strays: 0
            }
        );
        assert_eq!(client.finish(), Vec::<String>::new());
    }

    #[test]
    fn a_goal_outside_loopback_confirms_nothing_and_says_why() {
        let goal = Goal::Reach {
            allow: "allowed.example".into(),
            target: "192.0.2.1".into(),
        };
        let mut matrix = Matrix::new(&[], &[], &goal);
        let summary = confirm(&mut matrix, Budget::default());
        assert_eq!(summary.requests, 0);
        assert!(
            summary
                .not_confirmable
                .is_some_and(|why| why.contains("not a loopback address"))
        );
    }
}
