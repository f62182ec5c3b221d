//! [`Departure`]: a client that went elsewhere than its parser says.
//!
//! Each client reads a URL with one oracle's parser (that oracle's
//! descriptor lists it: [`parser_of`]). What that parser reads, with its
//! runtime's resolver reading the host ([`super::reading_of`]), is
//! where the client should go: the prediction `uridiff bypass` makes
//! without a client. An observation ([`crate::fetch::Observation`]) that
//! contradicts it is a departure: the client rewrote the URL between
//! parsing and dialling (issue 33's list: `urllib.request` percent-decodes
//! the host, Go's `net/http` applies IDNA after parsing, Node's
//! `http.get(url.parse(u))` falls back to `localhost`, libcurl adds
//! `http://` to a scheme-less input). A departure is what a validator that
//! trusts the parser does not see, so a campaign saves each new one.
//!
//! Only what was observed is compared: a client that failed (a name the
//! DNS trap does not know, an address outside loopback, TLS to a trap that
//! speaks plain HTTP) left no address, and where it did not go is no
//! evidence of where it would have gone.

use std::net::IpAddr;

use serde::Serialize;

use super::{Read, read, reading_of};
use crate::case::Case;
use crate::components::Component;
use crate::fetch::{ClientInfo, Mode, Observation};
use crate::oracle::{ExternalName, OracleId};

/// How a client departed from its parser's reading. The ids are public:
/// the last part of a departure's signature.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum DepartureKind {
    /// The parser reads an `http` or `https` URL with a host, and the
    /// client connected to another address or asked the resolver for
    /// another name.
    Host,
    /// The client reached the host the parser reads, at another port than
    /// the parser's (its port, else the scheme's default: RFC 9110 section
    /// 4.2.1 and 4.2.2).
    Port,
    /// The parser fetches nothing (it refuses the input, reads another
    /// scheme, or reads no host), and the client connected somewhere or
    /// asked the resolver for a name.
    NoHost,
}

impl DepartureKind {
    /// `host`, `port` or `no-host`.
    pub fn as_str(self) -> &'static str {
        match self {
            DepartureKind::Host => "host",
            DepartureKind::Port => "port",
            DepartureKind::NoHost => "no-host",
        }
    }
}

/// One client's departure from its parser on one input.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Departure {
    /// The client ([`ClientInfo::id`]).
    pub client: &'static str,
    /// The oracle whose parser it reads URLs with.
    pub parser: OracleId,
    /// How it departed.
    pub kind: DepartureKind,
    /// Where the parser says it goes: `host:port`, or `nothing` with why.
    pub predicted: String,
    /// Where it went: the address (and port) a request with its token
    /// arrived at, and the name it asked the resolver for.
    pub observed: String,
}

impl Departure {
    /// The departure's signature, `client-elsewhere/observed/CLIENT/KIND`:
    /// the key a campaign saves one input for. Its form is public, as a
    /// finding's signature is.
    pub fn signature(&self) -> String {
        format!(
            "client-elsewhere/observed/{}/{}",
            self.client,
            self.kind.as_str()
        )
    }
}

/// The oracle whose parser `client` reads URLs with: the one whose
/// descriptor lists it (at most one does: `fetch::rows`' test). None for
/// Chromium (GURL, which uridiff has no oracle of).
pub fn parser_of(client: &ClientInfo) -> Option<OracleId> {
    let shipped = crate::oracle::external::shipped_names()
        .into_iter()
        .filter_map(|n| ExternalName::new(n).ok().map(OracleId::External));
    OracleId::ALL
        .iter()
        .copied()
        .chain(shipped)
        .find(|id| id.descriptor().clients.contains(&client.id))
}

/// Is the input worth a request from a client whose parser does not
/// fetch it: some parser of the case reads it as an `http` or `https` URL
/// (a client may read it so where its own parser does not), or it has no
/// scheme (RFC 3986 Appendix B's split finds none) and begins with a
/// letter or digit, as a host does (libcurl and urllib3 add `http://` to
/// such an input: issue 33's list). A client whose parser fetches it
/// ([`Goes::Host`]) is worth it anyway. Asked once per input, not per
/// client.
pub fn worth_sending(case: &Case<'_>) -> bool {
    let http = |s: &str| s.eq_ignore_ascii_case("http") || s.eq_ignore_ascii_case("https");
    let schemeless = case
        .outcome(OracleId::AppendixB)
        .is_some_and(|o| o.components.get(Component::Scheme).is_none())
        && case.input.starts_with(|c: char| c.is_ascii_alphanumeric());
    schemeless
        || case
            .outcomes
            .iter()
            .any(|(_, o)| o.accepted() && o.components.get(Component::Scheme).is_some_and(http))
}

/// The address a connection to `a` arrives at: Linux connects the
/// unspecified address (0.0.0.0, `::`) to the local host, and an
/// IPv4-mapped IPv6 address (RFC 4291 section 2.5.5.2) to the IPv4 one, so
/// neither is the client's departure.
fn arrives_at(a: IpAddr) -> IpAddr {
    match a {
        IpAddr::V4(v4) if v4.is_unspecified() => IpAddr::from([127, 0, 0, 1]),
        IpAddr::V6(v6) if v6.is_unspecified() => IpAddr::from(std::net::Ipv6Addr::LOCALHOST),
        IpAddr::V6(v6) => v6.to_ipv4_mapped().map_or(a, IpAddr::V4),
        IpAddr::V4(_) => a,
    }
}

/// A name as a resolver is asked for it: lower case, without the final
/// dot.
fn asked(name: &str) -> String {
    let lower = name.to_ascii_lowercase();
    lower.strip_suffix('.').unwrap_or(&lower).to_owned()
}

/// Is the resolver question `resolved` the name `name` (as asked, or
/// through IDNA's ToASCII, UTS #46 section 4, which a client applies before
/// it asks: that is the same name, not another)?
fn same_name(name: &str, resolved: &str) -> bool {
    let resolved = asked(resolved);
    asked(name) == resolved
        || idna::domain_to_ascii(name).is_ok_and(|ascii| asked(&ascii) == resolved)
}

/// Does a connection to `seen` reach the name `name`, where `map` says
/// which names stand for which trap address? `localhost` is every loopback
/// address (the namespace's hosts file gives it 127.0.0.1 and `::1`).
fn name_reaches(name: &str, seen: IpAddr, map: &[(String, IpAddr)]) -> bool {
    let name = asked(name);
    if name == "localhost" {
        return seen.is_loopback();
    }
    map.iter().any(|(n, ip)| *n == name && *ip == seen)
}

/// Where a client went, in words: its address and port, the name it asked
/// for.
fn observed_text(seen: &Observation) -> String {
    let mut parts: Vec<String> = seen.destination().into_iter().collect();
    if let Some(name) = &seen.resolved_name {
        parts.push(format!("asked the resolver for {name:?}"));
    }
    parts.join(", ")
}

/// The host a client of `parser` goes to by the parser's reading: the
/// host `bypass` reads as fetched ([`super::search::http_host`]), a URL
/// without a scheme included (a client that reads a URL without a scheme
/// adds `http://`, as urllib3's `PoolManager` does with what `parse_url`
/// reads: the host is still the parser's).
fn predicted_host<'c>(case: &'c Case<'_>, parser: OracleId) -> Option<&'c str> {
    super::search::http_host(case, parser, true)
}

/// The port the parser reads (its port, else the scheme's default; no
/// scheme is `http`'s), when it reads one as a number.
fn predicted_port(case: &Case<'_>, parser: OracleId) -> Option<u16> {
    let outcome = case.outcome(parser)?;
    match outcome
        .components
        .get(Component::Port)
        .filter(|p| !p.is_empty())
    {
        Some(port) => port.parse().ok(),
        None => match outcome.components.get(Component::Scheme) {
            None => Some(80),
            Some(s) if s.eq_ignore_ascii_case("http") => Some(80),
            Some(s) if s.eq_ignore_ascii_case("https") => Some(443),
            Some(_) => None,
        },
    }
}

/// What a parser reads of an input, as far as a client of it goes: the
/// prediction a departure is judged against, kept apart from the case so
/// that the request can be made later.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Prediction {
    /// The parser.
    pub parser: OracleId,
    /// Where its reading sends a client.
    pub goes: Goes,
}

/// Where a parser's reading sends a client.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Goes {
    /// Nowhere: it refuses the input.
    Refused,
    /// Nowhere: it reads no host, or a scheme other than `http` and
    /// `https`.
    NoHost,
    /// To the host as its runtime's resolver reads it, at the port (its
    /// own, else the scheme's default) when it reads one as a number.
    Host {
        /// The host as the parser reports it.
        host: String,
        /// How the resolver reads it.
        read: Read,
        /// The port.
        port: Option<u16>,
    },
}

impl Prediction {
    /// What `parser` reads in `case`; None when it gave no answer.
    pub fn of(case: &Case<'_>, parser: OracleId) -> Option<Prediction> {
        let outcome = case.outcome(parser).filter(|o| !o.is_missing())?;
        let goes = match predicted_host(case, parser) {
            Some(host) => Goes::Host {
                host: host.to_owned(),
                read: read(host, reading_of(parser)),
                port: predicted_port(case, parser),
            },
            None if outcome.accepted() => Goes::NoHost,
            None => Goes::Refused,
        };
        Some(Prediction { parser, goes })
    }

    /// Is the input worth a request from a client of this parser: the
    /// parser fetches it, or the input is one any client may fetch
    /// (`worth_sending`, asked once per input)?
    pub fn worth_sending(&self, any_client: bool) -> bool {
        any_client || matches!(self.goes, Goes::Host { .. })
    }

    /// The prediction in words: `host:port`, or `nothing` with why.
    pub fn text(&self) -> String {
        match &self.goes {
            Goes::Refused => "nothing: it refuses the input".to_owned(),
            Goes::NoHost => "nothing: no host, or a scheme other than http and https".to_owned(),
            Goes::Host {
                host,
                port: Some(p),
                ..
            } => format!("{host}:{p}"),
            Goes::Host { host, .. } => host.clone(),
        }
    }

    /// The input's shape as a client of this parser meets it: what the
    /// parser's reading is (refused, no host, a name, an address), whether
    /// the input begins with `http`, and
    /// which of the characters that steer a URL's authority it holds
    /// (`%@:\[]#?;/.`, space, controls, non-ASCII, upper case). Inputs of one
    /// shape mostly take a client to the same kind of place: a campaign
    /// that sends one input per shape and client reaches every kind of
    /// departure at a fraction of the requests (`corpus follow`).
    pub fn shape(&self, input: &str) -> u32 {
        const STEERING: &[u8] = b"%@:\\[]#?;/.";
        let mut mask = 0u32;
        for b in input.bytes() {
            if let Some(i) = STEERING.iter().position(|&c| c == b) {
                mask |= 1 << i;
            } else if b == b' ' {
                mask |= 1 << 12;
            } else if b.is_ascii_control() {
                mask |= 1 << 13;
            } else if !b.is_ascii() {
                mask |= 1 << 14;
            } else if b.is_ascii_uppercase() {
                mask |= 1 << 15;
            }
        }
        let http = input
            .get(..4)
            .is_some_and(|p| p.eq_ignore_ascii_case("http"));
        let goes = match &self.goes {
            Goes::Refused => 0,
            Goes::NoHost => 1,
            Goes::Host {
                read: Read::Name(_),
                ..
            } => 2,
            Goes::Host {
                read: Read::Address(_),
                ..
            } => 3,
        };
        mask | (u32::from(http) << 16) | (goes << 17)
    }
}

/// The departure `seen` (what `client` did with an input) shows from what
/// its parser reads there (`prediction`), if any. `map` is the run's
/// names and their trap addresses ([`crate::fetch::Observer::map`]). None when
/// the client left no trace to compare (an error before any connection or
/// question).
pub fn departure(
    prediction: &Prediction,
    client: &'static ClientInfo,
    seen: &Observation,
    map: &[(String, IpAddr)],
) -> Option<Departure> {
    if seen.address.is_none() && seen.resolved_name.is_none() {
        return None;
    }
    let make = |kind| Departure {
        client: client.id,
        parser: prediction.parser,
        kind,
        predicted: prediction.text(),
        observed: observed_text(seen),
    };
    let Goes::Host { read, port, .. } = &prediction.goes else {
        return Some(make(DepartureKind::NoHost));
    };
    let host_holds = match read {
        Read::Address(a) => {
            seen.address.is_none_or(|s| arrives_at(*a) == s) && seen.resolved_name.is_none()
        }
        Read::Name(name) => match (&seen.resolved_name, seen.address) {
            (Some(resolved), _) => same_name(name, resolved),
            (None, Some(s)) => name_reaches(name, s, map),
            (None, None) => true,
        },
    };
    if !host_holds {
        return Some(make(DepartureKind::Host));
    }
    // The port is the trap's own in the guard mode (the guard forces it):
    // only the namespace's is evidence.
    let port_differs =
        seen.mode == Mode::Namespace && matches!((seen.port, port), (Some(s), Some(p)) if s != *p);
    port_differs.then(|| make(DepartureKind::Port))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn info(id: &str) -> &'static ClientInfo {
        crate::fetch::clients()
            .iter()
            .find(|c| c.id == id)
            .unwrap_or_else(|| panic!("no client {id}"))
    }

    fn seen(address: Option<&str>, port: Option<u16>, resolved: Option<&str>) -> Observation {
        Observation {
            client: "test",
            input: String::new(),
            mode: Mode::Namespace,
            address: address.map(|a| a.parse().unwrap()),
            port,
            resolved_name: resolved.map(str::to_owned),
            host_header: None,
            request_target: None,
            redirects: 0,
            error: None,
        }
    }

    fn map() -> Vec<(String, IpAddr)> {
        crate::fetch::name_map(["evil.example"])
    }

    /// Where `client` went (`observed`) against what `parser` reads of
    /// `case`, with the test's name map.
    fn judged(
        case: &crate::Case<'_>,
        parser: OracleId,
        client: &'static ClientInfo,
        observed: &Observation,
    ) -> Option<Departure> {
        let prediction = Prediction::of(case, parser)
            .unwrap_or_else(|| panic!("{parser} makes no prediction for {:?}", case.input));
        departure(&prediction, client, observed, &map())
    }

    /// url (the URL Standard) reads `http://127.1/` as 127.0.0.1 itself;
    /// a client that connects there does what its parser says, and one
    /// that connects elsewhere departs, on the host.
    #[test]
    fn an_address_the_parser_reads_is_where_the_client_must_go() {
        let case = crate::check("http://127.1/");
        let parser = OracleId::Url;
        let client = info("urllib3");
        let here = seen(Some("127.0.0.1"), Some(80), None);
        assert_eq!(judged(&case, parser, client, &here), None);
        let there = seen(Some("127.0.0.2"), Some(80), None);
        let d = judged(&case, parser, client, &there).unwrap();
        assert_eq!(d.kind, DepartureKind::Host);
        assert_eq!(d.predicted, "127.0.0.1:80");
        assert_eq!(d.observed, "127.0.0.2:80");
        assert_eq!(d.signature(), "client-elsewhere/observed/urllib3/host");
        let port = seen(Some("127.0.0.1"), Some(443), None);
        let d = judged(&case, parser, client, &port).unwrap();
        assert_eq!(d.kind, DepartureKind::Port);
        // In the guard mode the port is the guard's: no evidence.
        let guarded = Observation {
            mode: Mode::Guard,
            ..port
        };
        assert_eq!(judged(&case, parser, client, &guarded), None);
        // 0.0.0.0 is the local host on Linux: no departure there.
        let zero = crate::check("http://0.0.0.0/");
        assert_eq!(judged(&zero, parser, client, &here), None);
    }

    /// A name: the question the client asked the resolver decides (the
    /// same name through IDNA is the same name), else the trap address the
    /// name stands for.
    #[test]
    fn a_name_is_the_question_asked_or_its_trap_address() {
        let client = info("urllib3");
        let parser = OracleId::Url;
        let case = crate::check("http://EVIL.example./x");
        let asked = seen(None, None, Some("evil.example"));
        assert_eq!(judged(&case, parser, client, &asked), None);
        let mapped = seen(Some("127.0.0.2"), Some(80), None);
        assert_eq!(judged(&case, parser, client, &mapped), None);
        let other = seen(None, None, Some("evil.example.com"));
        let d = judged(&case, parser, client, &other).unwrap();
        assert_eq!(d.kind, DepartureKind::Host);
        assert_eq!(d.observed, "asked the resolver for \"evil.example.com\"");
        // A client that applies IDNA asks for the A-label of the name its
        // parser keeps in Unicode (Go's net/url does): the same name.
        assert!(same_name("bücher.example", "xn--bcher-kva.example"));
        assert!(!same_name("bücher.example", "bucher.example"));
        // localhost is any loopback address.
        let local = crate::check("http://localhost/");
        let v6 = seen(Some("::1"), Some(80), None);
        assert_eq!(judged(&local, parser, client, &v6), None);
    }

    /// A parser that fetches nothing, and a client that went somewhere:
    /// `no-host`. A client that left no trace is no evidence.
    #[test]
    fn a_parser_that_fetches_nothing_and_a_client_that_went() {
        let client = info("urllib3");
        let parser = OracleId::Url;
        let case = crate::check("evil.example/");
        let went = seen(Some("127.0.0.2"), Some(80), Some("evil.example"));
        let d = judged(&case, parser, client, &went).unwrap();
        assert_eq!(d.kind, DepartureKind::NoHost);
        assert_eq!(d.predicted, "nothing: it refuses the input");
        // A host without a scheme is still the parser's host: a client
        // that adds `http://` goes there (fluent-uri reads `//evil.example/`
        // as a network-path reference).
        let schemeless = crate::check("//evil.example/");
        let there = seen(None, None, Some("evil.example"));
        assert_eq!(judged(&schemeless, OracleId::Rfc3986, client, &there), None);
        let nowhere = seen(None, None, None);
        assert_eq!(judged(&case, parser, client, &nowhere), None);
        let worth = |input: &str| {
            let case = crate::check(input);
            let prediction = Prediction::of(&case, parser).unwrap();
            prediction.worth_sending(worth_sending(&case))
        };
        assert!(!worth("a:b"));
        assert!(!worth("/evil.example"));
        assert!(worth("http://x/"));
        assert!(worth("evil.example/"));
    }

    /// Inputs that differ in letters and digits only are one shape; a
    /// steering character, or another reading, is another.
    #[test]
    fn a_shape_is_the_reading_and_the_steering_characters() {
        let shape = |input: &str| {
            Prediction::of(&crate::check(input), OracleId::Url)
                .unwrap()
                .shape(input)
        };
        assert_eq!(
            shape("http://evil.example/a"),
            shape("http://other.test/bcd")
        );
        assert_ne!(
            shape("http://evil.example/"),
            shape("http://evil%2eexample/")
        );
        assert_ne!(shape("http://evil.example/"), shape("http://127.0.0.1/"));
        assert_ne!(shape("http://evil.example/"), shape("evil.example/"));
        assert_ne!(shape("http://evil.example/"), shape("http://EVIL.example/"));
    }

    /// Each client with a parser: the oracle whose descriptor names it.
    #[test]
    fn a_clients_parser_is_the_oracle_that_names_it() {
        assert_eq!(parser_of(info("chromium")), None);
        let id = |client| parser_of(info(client)).map(|id| id.as_str().to_owned());
        assert_eq!(id("go-net-http").as_deref(), Some("go-net-url"));
        assert_eq!(id("urllib3").as_deref(), Some("urllib3"));
    }
}
