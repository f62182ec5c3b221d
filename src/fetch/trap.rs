//! [`Trap`]: HTTP servers on loopback addresses that answer every request
//! with an empty 200 (or, on a redirect page registered for a token, a
//! 302) and remember where each arrived.

use std::io::{self, Read, Write};
use std::net::{IpAddr, Ipv4Addr, Ipv6Addr, SocketAddr, TcpListener, TcpStream};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::thread::{self, JoinHandle};
use std::time::Duration;

use super::guard::is_loopback;
use super::token::{TOKEN_HEADER, Token};

/// The most of a request's head a trap reads.
const HEAD_LIMIT: usize = 16 * 1024;

/// How long a trap waits for a request's head.
const READ_TIMEOUT: Duration = Duration::from_secs(5);

/// How often the accept loops look at the stop flag (they accept without
/// blocking, so that dropping the trap never waits on a connection).
const POLL: Duration = Duration::from_millis(5);

/// How many ports to try when another program takes the port between the
/// first bind (on port 0) and the others.
const ATTEMPTS: usize = 8;

/// How long the start's probe of a trap address may take: a loopback
/// connection is accepted by the kernel at once, so this only bounds an
/// address that drops packets instead of refusing.
const PROBE_TIMEOUT: Duration = Duration::from_secs(5);

/// The answer to every request.
const RESPONSE: &[u8] = b"HTTP/1.1 200 OK\r\nContent-Length: 0\r\nConnection: close\r\n\r\n";

/// The path of the redirect page of a token ([`Trap::redirect`]).
const REDIRECT_PREFIX: &str = "/uridiff-redirect/";

/// The answer of a redirect page: a 302 naming `location`.
fn redirect_response(location: &str) -> Vec<u8> {
    format!(
        "HTTP/1.1 302 Found\r\nLocation: {location}\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"
    )
    .into_bytes()
}

/// What the listening threads share with the trap.
#[derive(Debug, Default)]
struct Shared {
    hits: Mutex<Vec<Hit>>,
    /// Redirect pages: (path, token, location).
    redirects: Mutex<Vec<(String, String, String)>>,
}

impl Shared {
    /// The response to `hit`: a 302 when it asks for a redirect page with
    /// that page's token, the empty 200 otherwise.
    fn response(&self, hit: &Hit) -> Vec<u8> {
        let redirects = self
            .redirects
            .lock()
            .unwrap_or_else(PoisonError::into_inner);
        let found = redirects.iter().find(|(path, token, _)| {
            hit.request_target() == Some(path.as_str())
                && hit.token.as_deref() == Some(token.as_str())
        });
        match found {
            Some((_, _, location)) => redirect_response(location),
            None => RESPONSE.to_vec(),
        }
    }
}

/// One request a trap received.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Hit {
    /// The trap address that received it (an IPv4-mapped IPv6 address,
    /// as a dual-stack listener sees an IPv4 connection, as IPv4).
    pub addr: IpAddr,
    /// The trap port that received it.
    pub port: u16,
    /// The request line, without its line end (lossy UTF-8).
    pub request_line: String,
    /// The value of the first `Host` header, trimmed (lossy UTF-8).
    pub host_header: Option<String>,
    /// The value of the first [`TOKEN_HEADER`] header, trimmed (lossy
    /// UTF-8): the token of the request that sent it, or `None` for a
    /// request that carries none (a stray).
    pub token: Option<String>,
}

impl Hit {
    /// The request target: the request line's second word (`None` when
    /// the line has fewer than three).
    pub fn request_target(&self) -> Option<&str> {
        let mut words = self.request_line.split(' ');
        let (_, target, _) = (words.next()?, words.next()?, words.next()?);
        Some(target)
    }

    /// Did this hit come with `token`, the token of the request out? Only
    /// such a hit shows where that request went; any other is a stray (a
    /// connection from another program, a late retry of an earlier
    /// request).
    pub fn carries(&self, token: &Token) -> bool {
        self.token.as_deref() == Some(token.as_str())
    }
}

/// Trap HTTP servers on loopback addresses, one port shared by all.
///
/// Each answers every request with `HTTP/1.1 200 OK`, `Content-Length: 0`,
/// `Connection: close`, after reading at most 16 KiB of its head (5 s at
/// most); a hit is recorded before the answer is written, so a client that
/// got its answer finds its hit in [`take_hits`](Trap::take_hits). The
/// servers stop when the trap is dropped.
#[derive(Debug)]
pub struct Trap {
    port: u16,
    /// The ports of [`Trap::listen`] (empty for [`Trap::start`]'s one).
    ports: Vec<u16>,
    addrs: Vec<IpAddr>,
    shared: Arc<Shared>,
    stop: Arc<AtomicBool>,
    threads: Vec<JoinHandle<()>>,
}

impl Trap {
    /// Binds every address (each must be loopback: 127.0.0.0/8 or `::1`,
    /// else an `InvalidInput` error, and nothing is bound) on one free port:
    /// the first on port 0, the others on the port it got; when one of them
    /// is taken, all over again on a new port, a few times.
    ///
    /// # Errors
    /// No address, an address that is not loopback, or a bind that fails
    /// (other than a port taken, which is retried).
    pub fn start(addrs: &[IpAddr]) -> io::Result<Trap> {
        if addrs.is_empty() {
            return Err(io::Error::new(
                io::ErrorKind::InvalidInput,
                "a trap needs at least one address",
            ));
        }
        if let Some(bad) = addrs.iter().find(|a| !is_loopback(**a)) {
            return Err(io::Error::new(
                io::ErrorKind::InvalidInput,
                format!("{bad} is not a loopback address (127.0.0.0/8 or ::1)"),
            ));
        }
        let mut last = None;
        for _ in 0..ATTEMPTS {
            match bind_all(addrs) {
                Ok((port, listeners)) => return Trap::serve(port, addrs, listeners),
                Err(e) if e.kind() == io::ErrorKind::AddrInUse => last = Some(e),
                Err(e) => return Err(e),
            }
        }
        Err(last.unwrap_or_else(|| io::Error::other("no free port")))
    }

    /// Listens on every given port of every loopback address: one
    /// dual-stack listener on `[::]` per port (IPv4 connections arrive as
    /// IPv4-mapped addresses), or on `0.0.0.0` where IPv6 is off. Only for
    /// a network namespace whose only interface is `lo` (`uridiff fetch`'s,
    /// [`super::netns`]), where the wildcard address is loopback and
    /// nothing else: it lets a trap see the address and port a client
    /// chose itself. Ports below 1024 need root (which the namespace has).
    ///
    /// # Errors
    /// No port, or a bind that fails.
    pub fn listen(ports: &[u16]) -> io::Result<Trap> {
        if ports.is_empty() {
            return Err(io::Error::new(
                io::ErrorKind::InvalidInput,
                "a trap needs at least one port",
            ));
        }
        let mut listeners = Vec::with_capacity(ports.len());
        for &port in ports {
            let listener = TcpListener::bind(SocketAddr::new(Ipv6Addr::UNSPECIFIED.into(), port))
                .or_else(|_| TcpListener::bind(SocketAddr::new(Ipv4Addr::UNSPECIFIED.into(), port)))
                .map_err(|e| io::Error::new(e.kind(), format!("a trap on port {port}: {e}")))?;
            listeners.push(listener);
        }
        let mut trap = Trap::serve(0, &[], listeners)?;
        trap.ports = ports.to_vec();
        Ok(trap)
    }

    fn serve(port: u16, addrs: &[IpAddr], listeners: Vec<TcpListener>) -> io::Result<Trap> {
        let mut trap = Trap {
            port,
            ports: Vec::new(),
            addrs: addrs.to_vec(),
            shared: Arc::new(Shared::default()),
            stop: Arc::new(AtomicBool::new(false)),
            threads: Vec::new(),
        };
        for listener in listeners {
            listener.set_nonblocking(true)?;
            let shared = Arc::clone(&trap.shared);
            let stop = Arc::clone(&trap.stop);
            let name = format!("uridiff-trap-{}", listener.local_addr()?);
            // On an error here the trap is dropped, which stops the
            // threads started so far.
            let thread = thread::Builder::new()
                .name(name)
                .spawn(move || accept_loop(&listener, &shared, &stop))?;
            trap.threads.push(thread);
        }
        trap.probe()?;
        Ok(trap)
    }

    /// Connects to every trap address once, sending nothing (a connection
    /// without a request is no hit). Linux binds 127.255.255.255, the
    /// loopback network's broadcast address, but nothing can connect to it
    /// ("network is unreachable"): a trap there would wait for requests
    /// that never come, and confirmation would report "0 confirmed".
    fn probe(&self) -> io::Result<()> {
        for addr in &self.addrs {
            let at = SocketAddr::new(*addr, self.port);
            TcpStream::connect_timeout(&at, PROBE_TIMEOUT).map_err(|e| {
                io::Error::new(
                    e.kind(),
                    format!("the trap on {at} accepts no connection ({e}): give another loopback address"),
                )
            })?;
        }
        Ok(())
    }

    /// The port every trap address listens on.
    pub fn port(&self) -> u16 {
        self.port
    }

    /// The ports of a trap made by [`Trap::listen`].
    pub fn ports(&self) -> &[u16] {
        &self.ports
    }

    /// The trap addresses, in the order given.
    pub fn addrs(&self) -> &[IpAddr] {
        &self.addrs
    }

    /// The requests received since the last call, in arrival order.
    pub fn take_hits(&self) -> Vec<Hit> {
        std::mem::take(
            &mut *self
                .shared
                .hits
                .lock()
                .unwrap_or_else(PoisonError::into_inner),
        )
    }

    /// Makes a redirect page for `token`: a request for the returned path
    /// (the request target) that carries `token` ([`Hit::carries`]) is
    /// answered `302 Found` with `location` as its `Location`, byte for
    /// byte, on every trap address and port; any other request still gets
    /// the empty 200. The page stays until [`Trap::clear_redirects`].
    ///
    /// # Errors
    /// `location` holds a CR, an LF or a NUL, which no header value can
    /// carry (it would end the header or the head).
    pub fn redirect(&self, token: &Token, location: &str) -> Result<String, String> {
        if location.contains(['\r', '\n', '\0']) {
            return Err(
                "the input holds a CR, LF or NUL: no Location header can carry it".to_owned(),
            );
        }
        let path = format!("{REDIRECT_PREFIX}{}", token.as_str());
        self.shared
            .redirects
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .push((path.clone(), token.as_str().to_owned(), location.to_owned()));
        Ok(path)
    }

    /// Removes every redirect page.
    pub fn clear_redirects(&self) {
        self.shared
            .redirects
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .clear();
    }
}

impl Drop for Trap {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
        for thread in self.threads.drain(..) {
            let _ = thread.join();
        }
    }
}

/// Binds the first address on port 0 and the others on its port.
fn bind_all(addrs: &[IpAddr]) -> io::Result<(u16, Vec<TcpListener>)> {
    let mut listeners: Vec<TcpListener> = Vec::with_capacity(addrs.len());
    let mut port = 0;
    for addr in addrs {
        let listener = TcpListener::bind(SocketAddr::new(*addr, port))?;
        port = listener.local_addr()?.port();
        listeners.push(listener);
    }
    Ok((port, listeners))
}

/// Accepts until `stop`; each connection is answered on a thread of its
/// own, so that a slow client holds up no other.
fn accept_loop(listener: &TcpListener, shared: &Arc<Shared>, stop: &AtomicBool) {
    let mut connections: Vec<JoinHandle<()>> = Vec::new();
    while !stop.load(Ordering::Relaxed) {
        match listener.accept() {
            Ok((stream, _)) => {
                let shared = Arc::clone(shared);
                if let Ok(thread) = thread::Builder::new()
                    .name("uridiff-trap-connection".to_owned())
                    .spawn(move || answer(stream, &shared))
                {
                    connections.push(thread);
                }
                connections.retain(|c| !c.is_finished());
            }
            Err(e) if e.kind() == io::ErrorKind::WouldBlock => thread::sleep(POLL),
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            // A connection that went away before it was accepted, or a
            // descriptor limit: wait a little and go on.
            Err(_) => thread::sleep(POLL),
        }
    }
    for connection in connections {
        let _ = connection.join();
    }
}

/// Reads a request's head, records it, answers 200 (or a redirect page's
/// 302).
fn answer(mut stream: TcpStream, shared: &Shared) {
    let Ok(local) = stream.local_addr() else {
        return;
    };
    // The accepted socket may inherit the listener's non-blocking mode on
    // some systems; the read timeout needs a blocking one.
    if stream.set_nonblocking(false).is_err()
        || stream.set_read_timeout(Some(READ_TIMEOUT)).is_err()
        || stream.set_write_timeout(Some(READ_TIMEOUT)).is_err()
    {
        return;
    }
    let head = read_head(&mut stream);
    if head.is_empty() {
        // A connection with no request (a port probe): no hit.
        return;
    }
    let hit = parse_head(local.ip().to_canonical(), local.port(), &head);
    let response = shared.response(&hit);
    shared
        .hits
        .lock()
        .unwrap_or_else(PoisonError::into_inner)
        .push(hit);
    let _ = stream.write_all(&response);
    let _ = stream.flush();
}

/// The bytes up to the blank line ending the head, or what came before the
/// limit, the timeout or the end of the stream.
fn read_head(stream: &mut TcpStream) -> Vec<u8> {
    let mut head = Vec::new();
    let mut buf = [0u8; 4096];
    while head.len() < HEAD_LIMIT && !head.windows(4).any(|w| w == b"\r\n\r\n") {
        let room = HEAD_LIMIT.saturating_sub(head.len()).min(buf.len());
        let Some(window) = buf.get_mut(..room) else {
            break;
        };
        match stream.read(window) {
            Ok(0) => break,
            Ok(n) => head.extend_from_slice(window.get(..n).unwrap_or_default()),
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(_) => break,
        }
    }
    head
}

/// The request line, the first `Host` header and the first token header
/// of a head.
fn parse_head(addr: IpAddr, port: u16, head: &[u8]) -> Hit {
    let text = String::from_utf8_lossy(head);
    let mut lines = text.split('\n').map(|l| l.strip_suffix('\r').unwrap_or(l));
    let request_line = lines.next().unwrap_or_default().to_owned();
    let headers: Vec<(&str, &str)> = lines
        .take_while(|l| !l.is_empty())
        .filter_map(|l| l.split_once(':'))
        .collect();
    let first = |wanted: &str| {
        headers
            .iter()
            .find(|(name, _)| name.trim().eq_ignore_ascii_case(wanted))
            .map(|(_, value)| value.trim().to_owned())
    };
    Hit {
        addr,
        port,
        request_line,
        host_header: first("host"),
        token: first(TOKEN_HEADER),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ip(text: &str) -> IpAddr {
        text.parse().unwrap()
    }

    #[test]
    fn heads_give_the_request_line_and_the_first_host() {
        let hit = parse_head(
            ip("127.0.0.2"),
            80,
            b"GET /a HTTP/1.1\r\nX: y\r\nhOsT:  evil.example:81 \r\nHost: second\r\n\r\n",
        );
        assert_eq!(hit.request_line, "GET /a HTTP/1.1");
        assert_eq!(hit.request_target(), Some("/a"));
        assert_eq!(hit.host_header.as_deref(), Some("evil.example:81"));
        let hit = parse_head(ip("::1"), 80, b"GET / HTTP/1.0\n\nHost: body\n");
        assert_eq!(hit.host_header, None);
        assert_eq!(hit.addr, ip("::1"));
    }

    #[test]
    fn heads_give_the_first_token_and_only_it_is_carried() {
        let mut tokens = super::super::token::Tokens::new().unwrap();
        let (token, other) = (tokens.next_token(), tokens.next_token());
        let head = format!(
            "GET / HTTP/1.1\r\nHost: h\r\nx-uridiff-TOKEN:  {token} \r\n{TOKEN_HEADER}: {other}\r\n\r\n"
        );
        let hit = parse_head(ip("127.0.0.3"), 80, head.as_bytes());
        assert_eq!(hit.token.as_deref(), Some(token.as_str()));
        assert!(hit.carries(&token));
        assert!(!hit.carries(&other));
        // No token header, or one only in the body: a stray.
        for head in [
            "GET / HTTP/1.1\r\nHost: h\r\n\r\n".to_owned(),
            format!("GET / HTTP/1.1\r\n\r\n{TOKEN_HEADER}: {token}\r\n"),
            format!("GET / HTTP/1.1\r\nX-Uridiff-Token-Other: {token}\r\n\r\n"),
        ] {
            let hit = parse_head(ip("127.0.0.3"), 80, head.as_bytes());
            assert!(!hit.carries(&token), "{head:?}: {hit:?}");
        }
    }

    #[test]
    fn only_loopback_addresses_are_trapped() {
        for bad in ["0.0.0.0", "::", "192.0.2.1", "::ffff:192.0.2.1"] {
            let e = Trap::start(&[ip("127.0.0.2"), ip(bad)]).unwrap_err();
            assert_eq!(e.kind(), io::ErrorKind::InvalidInput, "{bad}");
            assert!(e.to_string().contains(bad), "{e}");
        }
        assert_eq!(
            Trap::start(&[]).unwrap_err().kind(),
            io::ErrorKind::InvalidInput
        );
    }

    #[test]
    fn every_address_answers_on_one_port_and_hits_drain() {
        let trap = Trap::start(&[ip("127.0.0.2"), ip("127.0.0.3")]).unwrap();
        assert_ne!(trap.port(), 0);
        for addr in ["127.0.0.3", "127.0.0.2"] {
            let mut stream = TcpStream::connect((ip(addr), trap.port())).unwrap();
            stream
                .write_all(b"GET /x HTTP/1.1\r\nHost: h\r\n\r\n")
                .unwrap();
            let mut response = String::new();
            stream.read_to_string(&mut response).unwrap();
            assert_eq!(response.as_bytes(), RESPONSE);
        }
        let hits = trap.take_hits();
        let at: Vec<IpAddr> = hits.iter().map(|h| h.addr).collect();
        assert_eq!(at, [ip("127.0.0.3"), ip("127.0.0.2")]);
        assert!(hits.iter().all(|h| h.request_line == "GET /x HTTP/1.1"));
        assert!(trap.take_hits().is_empty());
        // Not bound elsewhere on loopback.
        assert!(TcpStream::connect((ip("127.0.0.4"), trap.port())).is_err());
        let port = trap.port();
        drop(trap);
        assert!(TcpStream::connect((ip("127.0.0.2"), port)).is_err());
    }

    #[test]
    fn a_redirect_page_answers_302_only_to_its_token() {
        let trap = Trap::start(&[ip("127.0.0.2")]).unwrap();
        let mut tokens = super::super::token::Tokens::new().unwrap();
        let (token, other) = (tokens.next_token(), tokens.next_token());
        assert!(trap.redirect(&token, "http://a\r\nX: y/").is_err());
        let path = trap.redirect(&token, "http://%31%32%37.0.0.1/\\x").unwrap();
        assert_eq!(path, format!("/uridiff-redirect/{token}"));
        let get = |target: &str, token: &Token| {
            let mut stream = TcpStream::connect((ip("127.0.0.2"), trap.port())).unwrap();
            let head =
                format!("GET {target} HTTP/1.1\r\nHost: h\r\n{TOKEN_HEADER}: {token}\r\n\r\n");
            stream.write_all(head.as_bytes()).unwrap();
            let mut response = String::new();
            stream.read_to_string(&mut response).unwrap();
            response
        };
        let response = get(&path, &token);
        assert!(response.starts_with("HTTP/1.1 302 Found\r\n"), "{response}");
        assert!(
            response.contains("\r\nLocation: http://%31%32%37.0.0.1/\\x\r\n"),
            "{response}"
        );
        // Another token, or another path: the empty 200.
        assert_eq!(get(&path, &other).as_bytes(), RESPONSE);
        assert_eq!(get("/", &token).as_bytes(), RESPONSE);
        assert_eq!(trap.take_hits().len(), 3);
        trap.clear_redirects();
        assert_eq!(get(&path, &token).as_bytes(), RESPONSE);
    }
}
