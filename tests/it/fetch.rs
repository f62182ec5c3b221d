//! `uridiff::fetch`: every client against a trap on 127.0.0.2 and
//! 127.0.0.3. Each must reach the trap for loopback addresses and mapped
//! names, and refuse everything else without a connection: the loopback
//! property, over a list of hostile URLs.
//!
//! These need python3 with urllib3 in the cache, node and go (CI installs
//! them with scripts/setup-oracles.sh); a missing one fails with the
//! command that installs it, never skips.

use std::net::IpAddr;
use std::time::Duration;

use std::io::{Read, Write};
use std::net::TcpStream;

use uridiff::fetch::{
    Answer, Client, ClientInfo, Request, TOKEN_HEADER, Token, Tokens, Trap, clients, is_loopback,
};

/// Generous: a first run builds the Go client.
const START: Duration = Duration::from_secs(120);
const TIMEOUT: Duration = Duration::from_secs(10);

fn ip(text: &str) -> IpAddr {
    text.parse().unwrap()
}

fn start(info: &'static ClientInfo) -> Client {
    Client::start(info, START).unwrap_or_else(|e| panic!("{}: {e}", info.id))
}

/// Fetches `url` with a fresh token, returned with the answer.
fn fetch_token(
    client: &mut Client,
    trap: &Trap,
    url: &str,
    hosts: &[(&str, IpAddr)],
) -> (Answer, Token) {
    let token = Tokens::new().unwrap().next_token();
    let request = Request {
        url,
        port: trap.port(),
        hosts,
        timeout: TIMEOUT,
        token: &token,
    };
    let answer = client
        .fetch(&request)
        .unwrap_or_else(|e| panic!("{}: {url}: {e}", client.info().id));
    (answer, token)
}

fn fetch(client: &mut Client, trap: &Trap, url: &str, hosts: &[(&str, IpAddr)]) -> Answer {
    fetch_token(client, trap, url, hosts).0
}

/// Sends `head` to `addr` on the trap's port as a raw TCP client and waits
/// for the answer (the trap records a hit before it answers).
fn raw_request(addr: IpAddr, port: u16, head: &str) {
    let mut stream = TcpStream::connect((addr, port)).unwrap();
    stream.write_all(head.as_bytes()).unwrap();
    let mut response = String::new();
    stream.read_to_string(&mut response).unwrap();
    assert!(response.starts_with("HTTP/1.1 200 "), "{response}");
}

fn trap() -> Trap {
    Trap::start(&[ip("127.0.0.2"), ip("127.0.0.3")]).unwrap()
}

/// The clients with an in-client guard: the only ones that may run
/// outside `uridiff fetch`'s network namespace (these tests run them in
/// the host's network).
fn guarded() -> impl Iterator<Item = &'static ClientInfo> {
    clients().iter().filter(|c| c.guarded)
}

#[test]
fn the_list_of_clients_is_the_expected_one() {
    let ids: Vec<&str> = guarded().map(|c| c.id).collect();
    let mut expected = vec![
        "urllib3",
        "urllib.request",
        "node-http-url-parse",
        "node-http-new-url",
        "go-net-http",
    ];
    if cfg!(feature = "curl") {
        expected.insert(0, "libcurl");
    }
    assert_eq!(ids, expected);
    let unguarded: Vec<&str> = clients()
        .iter()
        .filter(|c| !c.guarded)
        .map(|c| c.id)
        .collect();
    assert_eq!(
        unguarded,
        [
            "requests",
            "httpx",
            "aiohttp",
            "node-fetch",
            "ruby-net-http",
            "ruby-open-uri",
            "php-file-get-contents",
            "php-curl",
            "java-httpclient",
            "java-httpurlconnection",
            "chromium"
        ]
    );
    // An unguarded client refuses to start outside the namespace, before
    // any process exists.
    let node_fetch = clients().iter().find(|c| c.id == "node-fetch").unwrap();
    let e = Client::start(node_fetch, START).unwrap_err();
    assert!(e.contains("network namespace"), "{e}");
}

/// requests, httpx and aiohttp have no guard in adapters/fetch/fetch.py:
/// the program itself refuses to start them outside uridiff's namespace
/// (exit 2, before it sends anything), whoever runs it. Told it is in the
/// namespace, it only says hello here (no request is sent): the hello names
/// the pinned version from adapters/requirements.txt.
#[test]
fn the_python_clients_without_a_guard_refuse_to_start_outside_the_namespace() {
    use std::process::{Command, Stdio};

    let lib = uridiff::oracle::external::cache_root()
        .unwrap()
        .join("python");
    let program = crate::util::root().join("adapters/fetch/fetch.py");
    let pins =
        std::fs::read_to_string(crate::util::root().join("adapters/requirements.txt")).unwrap();
    let run = |client: &str, mode: Option<&str>| {
        let mut command = Command::new("python3");
        command
            .args(["-I", "-S"])
            .arg(&program)
            .arg(client)
            .env("URIDIFF_PYTHON_LIB", &lib)
            .env_remove("URIDIFF_FETCH_MODE")
            .stdin(Stdio::null());
        if let Some(mode) = mode {
            command.env("URIDIFF_FETCH_MODE", mode);
        }
        command.output().unwrap()
    };
    for client in ["requests", "httpx", "aiohttp"] {
        for mode in [None, Some("guard")] {
            let out = run(client, mode);
            let stderr = String::from_utf8_lossy(&out.stderr);
            assert_eq!(out.status.code(), Some(2), "{client} {mode:?}: {stderr}");
            assert!(out.stdout.is_empty(), "{client} {mode:?}");
            assert!(
                stderr.contains("runs only in uridiff fetch's network namespace"),
                "{client}: {stderr}"
            );
        }
        let pin = pins
            .lines()
            .find_map(|l| l.strip_prefix(&format!("{client}==")))
            .and_then(|rest| rest.split_whitespace().next())
            .unwrap_or_else(|| panic!("{client} is not pinned"));
        let out = run(client, Some("namespace"));
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(
            out.status.success(),
            "{client} (run bash scripts/setup-oracles.sh): {stderr}"
        );
        let stdout = String::from_utf8(out.stdout).unwrap();
        let hello: serde_json::Value = serde_json::from_str(stdout.trim_end()).unwrap();
        assert_eq!(hello["uridiff_fetch"], 1, "{hello}");
        assert_eq!(hello["client"], format!("{client} {pin}"), "{hello}");
    }
}

/// Loopback addresses and mapped names arrive at the trap address they
/// stand for, on the trap's port; the rest is refused with no hit.
#[test]
fn every_client_reaches_loopback_and_nothing_else() {
    let three = ip("127.0.0.3");
    let trap = trap();
    for info in guarded() {
        let mut client = start(info);
        let id = info.id;
        // Reached: an address, and a mapped name (case and a trailing dot
        // aside), whatever port the URL names.
        for (url, hosts) in [
            ("http://127.0.0.3/", &[][..]),
            ("http://evil.example/", &[("evil.example", three)][..]),
            (
                "http://EVIL.Example.:8080/p",
                &[("evil.example", three)][..],
            ),
        ] {
            let (answer, token) = fetch_token(&mut client, &trap, url, hosts);
            assert_eq!(answer.dialled, Some(three), "{id}: {url}: {answer:?}");
            assert_eq!(answer.status, Some(200), "{id}: {url}: {answer:?}");
            assert_eq!(answer.refused, None, "{id}: {url}");
            let hits = trap.take_hits();
            assert_eq!(hits.len(), 1, "{id}: {url}: {hits:?}");
            assert_eq!(hits[0].addr, three, "{id}: {url}");
            assert!(
                hits[0].request_line.starts_with("GET /"),
                "{id}: {url}: {hits:?}"
            );
            assert!(hits[0].carries(&token), "{id}: {url}: {token}: {hits:?}");
        }
        // Refused: public addresses and a name nobody mapped.
        for url in [
            "http://192.0.2.1/",
            "http://[2001:db8::1]/",
            "http://unmapped.example/",
        ] {
            let answer = fetch(&mut client, &trap, url, &[("evil.example", three)]);
            assert!(answer.refused.is_some(), "{id}: {url}: {answer:?}");
            assert_eq!(answer.dialled, None, "{id}: {url}: {answer:?}");
            assert_eq!(answer.status, None, "{id}: {url}");
            assert_eq!(trap.take_hits(), [], "{id}: {url}");
        }
        if let Some(refused) = fetch(&mut client, &trap, "http://unmapped.example/", &[]).refused {
            assert!(refused.contains("name not mapped"), "{id}: {refused}");
        }
        assert_eq!(client.finish(), Vec::<String>::new(), "{id}");
    }
}

/// The Host header keeps what the URL says, port included.
#[test]
fn the_host_header_is_the_urls() {
    let trap = trap();
    for info in guarded() {
        let mut client = start(info);
        let answer = fetch(
            &mut client,
            &trap,
            "http://evil.example:8080/",
            &[("evil.example", ip("127.0.0.2"))],
        );
        assert_eq!(answer.status, Some(200), "{}: {answer:?}", info.id);
        let hits = trap.take_hits();
        assert_eq!(hits.len(), 1, "{}", info.id);
        assert_eq!(hits[0].addr, ip("127.0.0.2"));
        assert_eq!(
            hits[0].host_header.as_deref(),
            Some("evil.example:8080"),
            "{}",
            info.id
        );
        client.finish();
    }
}

/// glibc's inet_aton form `0x7f.0.0.3`: libcurl's URL API and Python's
/// getaddrinfo both read it as 127.0.0.3.
#[test]
fn inet_aton_forms_reach_their_address_in_curl_and_python() {
    let trap = trap();
    let ids = ["libcurl", "urllib3", "urllib.request"];
    let chosen: Vec<&'static ClientInfo> =
        clients().iter().filter(|c| ids.contains(&c.id)).collect();
    assert_eq!(chosen.len(), if cfg!(feature = "curl") { 3 } else { 2 });
    for info in chosen {
        let mut client = start(info);
        let answer = fetch(&mut client, &trap, "http://0x7f.0.0.3/", &[]);
        assert_eq!(
            answer.dialled,
            Some(ip("127.0.0.3")),
            "{}: {answer:?}",
            info.id
        );
        assert_eq!(answer.status, Some(200), "{}", info.id);
        let hits = trap.take_hits();
        assert_eq!(hits.len(), 1, "{}", info.id);
        assert_eq!(hits[0].addr, ip("127.0.0.3"), "{}", info.id);
        client.finish();
    }
}

/// The loopback property: over hostile URLs (public and special
/// addresses, names, userinfo and fragment tricks), no client ever dials an
/// address outside loopback, and no request arrives but at a trap address.
#[test]
fn no_client_ever_dials_outside_loopback() {
    let hostile = [
        "http://192.0.2.1/",
        "http://198.51.100.7:8080/",
        "http://0.0.0.0/",
        "http://0/",
        "http://[::]/",
        "http://[::ffff:192.0.2.1]/",
        "http://[::ffff:0.0.0.0]/",
        "http://[fe80::1%25lo]/",
        "http://169.254.169.254/latest/meta-data/",
        "http://[fd00:ec2::254]/",
        "http://10.0.0.1/",
        "http://0xc0.0.2.1/",
        "http://3221225985/",
        "http://localhost/",
        "http://example.com/",
        "http://metadata.google.internal/",
        "http://127.0.0.3@192.0.2.1/",
        "http://192.0.2.1#@127.0.0.3/",
        "http://192.0.2.1?@127.0.0.3/",
        "http://192.0.2.1\\@127.0.0.3/",
        "http://evil.example@192.0.2.1/",
        "http://127.0.0.3:80@192.0.2.1/",
        "http://[::1]@192.0.2.1/",
        "http://192.0.2.1%2f@127.0.0.3/",
        "http://evil.example.192.0.2.1.nip.io/",
        "http://unmapped.example./",
        "https://192.0.2.1/",
        "ftp://192.0.2.1/",
        "http://192.0.2.1:0/",
        "http://127.0.0.3 192.0.2.1/",
        "http://127.0.0.3\t/",
    ];
    // A mapped name that points outside loopback is refused too.
    let hosts = [
        ("evil.example", ip("127.0.0.3")),
        ("public.example", ip("192.0.2.1")),
    ];
    let trap = trap();
    let traps = [ip("127.0.0.2"), ip("127.0.0.3")];
    for info in guarded() {
        let mut client = start(info);
        for url in hostile.iter().chain(&["http://public.example/"]) {
            let answer = fetch(&mut client, &trap, url, &hosts);
            if let Some(dialled) = answer.dialled {
                assert!(
                    is_loopback(dialled),
                    "{}: {url} dialled {dialled}: {answer:?}",
                    info.id
                );
            }
            for hit in trap.take_hits() {
                assert!(traps.contains(&hit.addr), "{}: {url}: {hit:?}", info.id);
            }
        }
        // Addresses the clients must refuse whatever their parser reads.
        for url in [
            "http://192.0.2.1/",
            "http://169.254.169.254/",
            "http://[::]/",
            "http://public.example/",
        ] {
            let answer = fetch(&mut client, &trap, url, &hosts);
            assert!(answer.refused.is_some(), "{}: {url}: {answer:?}", info.id);
            assert_eq!(answer.dialled, None, "{}: {url}", info.id);
        }
        assert_eq!(trap.take_hits(), [], "{}", info.id);
        assert_eq!(client.finish(), Vec::<String>::new(), "{}", info.id);
    }
}

#[test]
fn traps_bind_loopback_only() {
    for bad in ["192.0.2.1", "0.0.0.0", "::", "::ffff:10.0.0.1"] {
        let e = Trap::start(&[ip("127.0.0.2"), ip(bad)]).unwrap_err();
        assert_eq!(e.kind(), std::io::ErrorKind::InvalidInput, "{bad}");
    }
    let trap = Trap::start(&[ip("127.0.0.2"), ip("127.0.0.3"), ip("::1")]).unwrap();
    assert_eq!(trap.addrs(), [ip("127.0.0.2"), ip("127.0.0.3"), ip("::1")]);
}

/// A client that cannot answer in time is killed, and says so; it never
/// hangs the caller.
#[test]
fn a_client_process_is_bounded_by_the_timeout() {
    // A listener that accepts and never answers: the client waits for a
    // response until its own timeout, which must end the fetch.
    let silent = std::net::TcpListener::bind((ip("127.0.0.2"), 0)).unwrap();
    let port = silent.local_addr().unwrap().port();
    let token = Tokens::new().unwrap().next_token();
    for info in guarded() {
        let mut client = start(info);
        let request = Request {
            url: "http://127.0.0.2/",
            port,
            hosts: &[],
            timeout: Duration::from_millis(500),
            token: &token,
        };
        let answer = client.fetch(&request).unwrap();
        assert!(answer.error.is_some(), "{}: {answer:?}", info.id);
        assert_eq!(answer.status, None, "{}", info.id);
        client.finish();
    }
}

/// Every client sends the token of each request in the X-Uridiff-Token
/// header: each hit carries its own request's token, not the one before.
#[test]
fn every_client_sends_each_requests_token() {
    let trap = trap();
    for info in guarded() {
        let id = info.id;
        let mut client = start(info);
        let mut previous: Option<Token> = None;
        for url in ["http://127.0.0.3/", "http://127.0.0.3/again"] {
            let (answer, token) = fetch_token(&mut client, &trap, url, &[]);
            assert_eq!(answer.status, Some(200), "{id}: {url}: {answer:?}");
            let hits = trap.take_hits();
            assert_eq!(hits.len(), 1, "{id}: {url}: {hits:?}");
            assert_eq!(
                hits[0].token.as_deref(),
                Some(token.as_str()),
                "{id}: {url}: {TOKEN_HEADER}: {hits:?}"
            );
            if let Some(previous) = &previous {
                assert!(!hits[0].carries(previous), "{id}: {url}");
            }
            previous = Some(token);
        }
        assert_eq!(client.finish(), Vec::<String>::new(), "{id}");
    }
}

/// A stray at the target's trap while a client's request goes to the
/// allowed one (a raw TCP client, once with no token and once with an
/// earlier request's token) is recorded without the request's token: the
/// client's own hit is the only one carrying it.
#[test]
fn a_stray_at_the_target_does_not_carry_the_requests_token() {
    let trap = trap();
    let info = &clients()[0];
    let mut client = start(info);
    let (answer, earlier) = fetch_token(&mut client, &trap, "http://127.0.0.2/", &[]);
    assert_eq!(answer.status, Some(200), "{answer:?}");
    assert!(trap.take_hits()[0].carries(&earlier));
    raw_request(
        ip("127.0.0.3"),
        trap.port(),
        "GET / HTTP/1.1\r\nHost: evil.example\r\n\r\n",
    );
    raw_request(
        ip("127.0.0.3"),
        trap.port(),
        &format!("GET / HTTP/1.1\r\nHost: evil.example\r\n{TOKEN_HEADER}: {earlier}\r\n\r\n"),
    );
    let (answer, token) = fetch_token(&mut client, &trap, "http://127.0.0.2/", &[]);
    assert_eq!(answer.status, Some(200), "{}: {answer:?}", info.id);
    let hits = trap.take_hits();
    assert_eq!(hits.len(), 3, "{hits:?}");
    let carrying: Vec<IpAddr> = hits
        .iter()
        .filter(|h| h.carries(&token))
        .map(|h| h.addr)
        .collect();
    assert_eq!(carrying, [ip("127.0.0.2")], "{}: {hits:?}", info.id);
    let strays: Vec<&Option<String>> = hits
        .iter()
        .filter(|h| h.addr == ip("127.0.0.3"))
        .map(|h| &h.token)
        .collect();
    assert_eq!(strays, [&None, &Some(earlier.to_string())], "{hits:?}");
    client.finish();
}
