//! [`Observer`]: sends inputs through clients to the traps and reports
//! what each client really did ([`Observation`]).

use std::net::{IpAddr, Ipv4Addr};
use std::time::Duration;

use super::Mode;
use super::client::{Client, Request};
use super::dns::DnsTrap;
use super::netns::{DNS_ADDR, Names};
use super::token::{Token, Tokens};
use super::trap::Trap;

/// What one client did with one input.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct Observation {
    /// The client's id ([`super::ClientInfo::id`]).
    pub client: &'static str,
    /// The input, as given to the client.
    pub input: String,
    /// Where the client ran.
    pub mode: Mode,
    /// The address the request arrived at (a trap's view of it), when a
    /// request carrying this input's token arrived.
    pub address: Option<IpAddr>,
    /// The port it arrived at; `None` in [`Mode::Guard`], where the guard
    /// forces every connection to the trap's port.
    pub port: Option<u16>,
    /// The name the client asked the resolver for (the DNS trap's first
    /// A or AAAA question in the request's time), in [`Mode::Namespace`].
    pub resolved_name: Option<String>,
    /// The request's `Host` header.
    pub host_header: Option<String>,
    /// The request target of its request line.
    pub request_target: Option<String>,
    /// Requests with the token after the first: the traps answer 200 and
    /// redirect nowhere, so more than 0 means the client sent the request
    /// again by itself.
    pub redirects: usize,
    /// The client's own error (its words), a refusal of the guard, or the
    /// client process failing.
    pub error: Option<String>,
}

impl Observation {
    /// Where the request arrived, as `address:port` (`[address]:port` for
    /// IPv6), the address alone in [`Mode::Guard`], or `None` when no
    /// request with this input's token arrived.
    pub fn destination(&self) -> Option<String> {
        match (self.address, self.port) {
            (Some(a @ IpAddr::V6(_)), Some(p)) => Some(format!("[{a}]:{p}")),
            (Some(a), Some(p)) => Some(format!("{a}:{p}")),
            (Some(a), None) => Some(a.to_string()),
            (None, _) => None,
        }
    }
}

/// The traps, the names and the tokens of one run.
#[derive(Debug)]
pub struct Observer {
    mode: Mode,
    trap: Trap,
    dns: Option<DnsTrap>,
    // Kept for its Drop: the name files stay mounted while it lives.
    _names: Option<Names>,
    map: Vec<(String, IpAddr)>,
    tokens: Tokens,
    timeout: Duration,
}

/// The address of the trap page that redirects a client following
/// redirects ([`super::ClientInfo::follows_redirect`]) to its input: a
/// loopback address no name gets ([`name_map`] hands out at most
/// [`MAX_NAMES`] from 127.0.0.2), so that a request that stays on it
/// (a relative `Location`, resolved against the page) says so.
pub const REDIRECT_PAGE: IpAddr = IpAddr::V4(Ipv4Addr::new(127, 0, 255, 254));

/// The first address handed to a name (127.0.0.1 is `localhost`'s).
const FIRST: u32 = u32::from_be_bytes([127, 0, 0, 2]);

/// How many names a run maps at most (each gets an address of its own).
pub const MAX_NAMES: usize = 4096;

/// The names a run maps, each to a loopback address of its own, so that
/// the address a request arrives at also tells which name it was sent
/// to: `localhost` to 127.0.0.1, then `names` in order (ASCII lowercase,
/// one trailing dot dropped, duplicates once) from 127.0.0.2 on, skipping
/// the DNS trap's 127.0.0.53 and the addresses ending in .0 and .255.
pub fn name_map<'a>(names: impl IntoIterator<Item = &'a str>) -> Vec<(String, IpAddr)> {
    let mut map: Vec<(String, IpAddr)> = vec![("localhost".to_owned(), Ipv4Addr::LOCALHOST.into())];
    let mut next = FIRST;
    for name in names {
        let name = name.strip_suffix('.').unwrap_or(name).to_ascii_lowercase();
        if name.is_empty() || map.iter().any(|(n, _)| *n == name) || map.len() >= MAX_NAMES {
            continue;
        }
        let mut ip = Ipv4Addr::from(next);
        while IpAddr::V4(ip) == DNS_ADDR || matches!(ip.octets()[3], 0 | 255) {
            next += 1;
            ip = Ipv4Addr::from(next);
        }
        next += 1;
        map.push((name, ip.into()));
    }
    map
}

impl Observer {
    /// The traps of [`Mode::Namespace`]: the name files mounted, the DNS
    /// trap, HTTP traps on every loopback address at each of `ports`. Only
    /// in the namespace ([`super::netns::enter`] done).
    ///
    /// # Errors
    /// A mount or a bind failed.
    pub fn namespace(
        map: Vec<(String, IpAddr)>,
        ports: &[u16],
        timeout: Duration,
    ) -> Result<Observer, String> {
        let names = Names::install(&map)?;
        let dns = DnsTrap::start(DNS_ADDR, &map)
            .map_err(|e| format!("the DNS trap on {DNS_ADDR} port 53: {e}"))?;
        let trap = Trap::listen(ports).map_err(|e| e.to_string())?;
        Ok(Observer {
            mode: Mode::Namespace,
            trap,
            dns: Some(dns),
            _names: Some(names),
            map,
            tokens: Tokens::new()?,
            timeout,
        })
    }

    /// The traps of [`Mode::Guard`]: one port on 127.0.0.1 and every
    /// mapped address, the clients' guards mapping the names.
    ///
    /// # Errors
    /// A bind failed.
    pub fn guard(map: Vec<(String, IpAddr)>, timeout: Duration) -> Result<Observer, String> {
        let mut addrs: Vec<IpAddr> = vec![Ipv4Addr::LOCALHOST.into()];
        for (_, ip) in &map {
            if !addrs.contains(ip) {
                addrs.push(*ip);
            }
        }
        let trap = Trap::start(&addrs).map_err(|e| format!("the traps: {e}"))?;
        Ok(Observer {
            mode: Mode::Guard,
            trap,
            dns: None,
            _names: None,
            map,
            tokens: Tokens::new()?,
            timeout,
        })
    }

    /// The run's mode.
    pub fn mode(&self) -> Mode {
        self.mode
    }

    /// The names and the address each stands for.
    pub fn map(&self) -> &[(String, IpAddr)] {
        &self.map
    }

    /// Sends `input` through `client` with a fresh token and reports what
    /// arrived. A client that follows a redirect
    /// ([`super::ClientInfo::follows_redirect`]) is sent the trap page of
    /// [`REDIRECT_PAGE`] instead, which answers `302` with `input` as its
    /// `Location`; the observation is then of the request after that page.
    pub fn observe(&mut self, client: &mut Client, input: &str) -> Observation {
        // What came before (a stray, a late retry) is no part of this one.
        let _ = self.trap.take_hits();
        if let Some(dns) = &self.dns {
            let _ = dns.take_queries();
        }
        let token = self.tokens.next_token();
        let mut seen = Observation {
            client: client.info().id,
            input: input.to_owned(),
            mode: self.mode,
            address: None,
            port: None,
            resolved_name: None,
            host_header: None,
            request_target: None,
            redirects: 0,
            error: None,
        };
        let (url, page) = if client.info().follows_redirect {
            match self.redirect_page(&token, input) {
                Ok((url, path)) => (url, Some(path)),
                Err(e) => {
                    seen.error = Some(e);
                    return seen;
                }
            }
        } else {
            (input.to_owned(), None)
        };
        let hosts: Vec<(&str, IpAddr)> = self.map.iter().map(|(n, ip)| (n.as_str(), *ip)).collect();
        let request = Request {
            url: &url,
            port: self.trap.port(),
            hosts: &hosts,
            timeout: self.timeout,
            token: &token,
        };
        let answer = client.fetch(&request);
        self.trap.clear_redirects();
        let (page_hits, hits): (Vec<_>, Vec<_>) = self
            .trap
            .take_hits()
            .into_iter()
            .filter(|hit| hit.carries(&token))
            .partition(|hit| {
                page.as_deref()
                    .is_some_and(|p| hit.request_target() == Some(p) && hit.addr == REDIRECT_PAGE)
            });
        seen.resolved_name = self.dns.as_ref().and_then(|dns| {
            dns.take_queries()
                .into_iter()
                .find(|q| matches!(q.qtype, 1 | 28))
                .map(|q| q.name)
        });
        seen.error = match answer {
            Ok(answer) => match (answer.refused, answer.error) {
                (Some(refused), _) => Some(format!("refused by the guard: {refused}")),
                (None, error) => error,
            },
            Err(e) => Some(format!("the client failed: {e}")),
        };
        if page.is_some() && page_hits.is_empty() && seen.error.is_none() {
            seen.error =
                Some("the trap page that redirects to the input was never requested".to_owned());
        }
        let first = hits.first();
        seen.address = first.map(|h| h.addr);
        seen.port = match self.mode {
            Mode::Namespace => first.map(|h| h.port),
            Mode::Guard => None,
        };
        seen.host_header = first.and_then(|h| h.host_header.clone());
        seen.request_target = first.and_then(|h| h.request_target().map(str::to_owned));
        seen.redirects = hits.len().saturating_sub(1);
        seen
    }

    /// The URL of the trap page that redirects to `input` for `token`, and
    /// its path: on [`REDIRECT_PAGE`], at the traps' first port (80 in the
    /// namespace).
    fn redirect_page(&self, token: &Token, input: &str) -> Result<(String, String), String> {
        let port = match self.mode {
            Mode::Namespace => self.trap.ports().first().copied().unwrap_or(80),
            Mode::Guard => self.trap.port(),
        };
        let path = self.trap.redirect(token, input)?;
        Ok((format!("http://{REDIRECT_PAGE}:{port}{path}"), path))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_get_addresses_of_their_own() {
        let map = name_map(["Evil.Example.", "evil.example", "", "localhost", "b"]);
        let shown: Vec<(&str, String)> = map
            .iter()
            .map(|(n, ip)| (n.as_str(), ip.to_string()))
            .collect();
        assert_eq!(
            shown,
            [
                ("localhost", "127.0.0.1".to_owned()),
                ("evil.example", "127.0.0.2".to_owned()),
                ("b", "127.0.0.3".to_owned()),
            ]
        );
        let many: Vec<String> = (0..300).map(|i| format!("n{i}")).collect();
        let map = name_map(many.iter().map(String::as_str));
        let addrs: Vec<IpAddr> = map.iter().map(|(_, ip)| *ip).collect();
        assert!(!addrs.contains(&DNS_ADDR));
        assert!(!addrs.contains(&"127.0.0.255".parse().unwrap()));
        assert!(!addrs.contains(&"127.0.1.0".parse().unwrap()));
        let mut unique = addrs.clone();
        unique.sort_unstable();
        unique.dedup();
        assert_eq!(unique.len(), 301);
    }
}
