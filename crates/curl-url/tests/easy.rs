//! `easy::fetch`: one GET through libcurl's easy API that reaches loopback
//! only, against a one-shot server on 127.0.0.2 / 127.0.0.3 / ::1 here.
#![allow(
    missing_docs,
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing
)]

use std::io::{Read, Write};
use std::net::{IpAddr, TcpListener};
use std::sync::mpsc;
use std::thread;
use std::time::Duration;

use curl_url::easy::{FetchOptions, FetchReport, fetch};

/// A server on every address of `addrs`, all on one port, that answers
/// each connection with 200 and sends (address, request head) on.
fn serve(addrs: &[&str]) -> (u16, mpsc::Receiver<(IpAddr, String)>) {
    let first = TcpListener::bind((addrs[0], 0)).unwrap();
    let port = first.local_addr().unwrap().port();
    let mut listeners = vec![first];
    for a in &addrs[1..] {
        listeners.push(TcpListener::bind((*a, port)).unwrap());
    }
    let (tx, rx) = mpsc::channel();
    for listener in listeners {
        let tx = tx.clone();
        thread::spawn(move || {
            for stream in listener.incoming() {
                let mut stream = stream.unwrap();
                stream
                    .set_read_timeout(Some(Duration::from_secs(5)))
                    .unwrap();
                let mut head = Vec::new();
                let mut buf = [0u8; 1024];
                while !head.windows(4).any(|w| w == b"\r\n\r\n") {
                    let n = stream.read(&mut buf).unwrap();
                    if n == 0 {
                        break;
                    }
                    head.extend_from_slice(&buf[..n]);
                }
                let ip = stream.local_addr().unwrap().ip();
                tx.send((ip, String::from_utf8_lossy(&head).into_owned()))
                    .unwrap();
                stream
                    .write_all(b"HTTP/1.1 200 OK\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")
                    .unwrap();
            }
        });
    }
    (port, rx)
}

fn get(url: &str, port: u16, hosts: &[(&str, IpAddr)]) -> FetchReport {
    get_with(url, port, hosts, &[])
}

fn get_with(
    url: &str,
    port: u16,
    hosts: &[(&str, IpAddr)],
    headers: &[(&str, &str)],
) -> FetchReport {
    let options = FetchOptions {
        port,
        hosts,
        timeout: Duration::from_secs(10),
        headers,
    };
    fetch(url, &options).unwrap()
}

fn ip(text: &str) -> IpAddr {
    text.parse().unwrap()
}

#[test]
fn addresses_and_mapped_names_reach_the_server_on_its_port() {
    let (port, hits) = serve(&["127.0.0.2", "127.0.0.3"]);
    let three = ip("127.0.0.3");
    for (url, hosts) in [
        ("http://127.0.0.3/a", &[][..]),
        ("http://127.0.0.3:81/a", &[][..]),
        ("http://0x7f.0.0.3/a", &[][..]),
        ("http://evil.example/a", &[("evil.example", three)][..]),
        ("http://EVIL.example./a", &[("evil.example", three)][..]),
        (
            "http://evil.example:8080/a",
            &[("Evil.Example.", three)][..],
        ),
    ] {
        let report = get(url, port, hosts);
        assert_eq!(report.dialled, Some(three), "{url}: {report:?}");
        assert_eq!(report.status, Some(200), "{url}: {report:?}");
        assert_eq!(report.refused, None, "{url}");
        let (at, head) = hits.recv_timeout(Duration::from_secs(5)).unwrap();
        assert_eq!(at, three, "{url}");
        assert!(head.starts_with("GET /a HTTP/1.1\r\n"), "{url}: {head}");
    }
    assert!(hits.try_recv().is_err());
}

#[test]
fn ipv6_loopback_is_reached() {
    let (port, hits) = serve(&["::1"]);
    let report = get("http://[::1]/", port, &[]);
    assert_eq!(report.dialled, Some(ip("::1")), "{report:?}");
    assert_eq!(report.status, Some(200));
    assert_eq!(
        hits.recv_timeout(Duration::from_secs(5)).unwrap().0,
        ip("::1")
    );
}

#[test]
fn everything_else_is_refused_without_a_connection() {
    let (port, hits) = serve(&["127.0.0.2"]);
    let three = ip("127.0.0.3");
    let public = ip("192.0.2.1");
    for (url, hosts) in [
        ("http://192.0.2.1/", &[][..]),
        ("http://[2001:db8::1]/", &[][..]),
        ("http://0.0.0.0/", &[][..]),
        ("http://[::]/", &[][..]),
        ("http://169.254.169.254/", &[][..]),
        ("http://[::ffff:192.0.2.1]/", &[][..]),
        ("http://unmapped.example/", &[("evil.example", three)][..]),
        ("http://localhost/", &[][..]),
        ("http://127.0.0.3@192.0.2.1/", &[][..]),
        ("http://evil.example/", &[("evil.example", public)][..]),
    ] {
        let report = get(url, port, hosts);
        assert_eq!(report.dialled, None, "{url}: {report:?}");
        assert!(report.refused.is_some(), "{url}: {report:?}");
        assert_eq!(report.status, None, "{url}");
    }
    assert!(hits.recv_timeout(Duration::from_millis(200)).is_err());
}

#[test]
fn only_http_is_fetched() {
    let (port, _hits) = serve(&["127.0.0.2"]);
    for url in [
        "ftp://127.0.0.2/",
        "file:///etc/passwd",
        "https://127.0.0.2/",
    ] {
        let report = get(url, port, &[]);
        assert_eq!(report.dialled, None, "{url}: {report:?}");
        assert!(report.error.is_some(), "{url}: {report:?}");
    }
}

/// The given headers arrive as `name: value` lines of the request's head,
/// once each; a header that would break the head is refused before any
/// connection.
#[test]
fn headers_are_sent_as_given_and_broken_ones_never() {
    let (port, hits) = serve(&["127.0.0.2"]);
    let token = "0123456789abcdef0123456789abcdef";
    let report = get_with(
        "http://127.0.0.2/",
        port,
        &[],
        &[("X-Uridiff-Token", token), ("X-Other", "a b")],
    );
    assert_eq!(report.status, Some(200), "{report:?}");
    let (_, head) = hits.recv_timeout(Duration::from_secs(5)).unwrap();
    let lines: Vec<&str> = head.split("\r\n").collect();
    assert_eq!(
        lines
            .iter()
            .filter(|l| **l == format!("X-Uridiff-Token: {token}"))
            .count(),
        1,
        "{head}"
    );
    assert!(lines.contains(&"X-Other: a b"), "{head}");
    for (name, value) in [
        ("X-Uridiff-Token", "a\r\nHost: other"),
        ("X Y", "v"),
        ("X", ""),
    ] {
        let report = get_with("http://127.0.0.2/", port, &[], &[(name, value)]);
        assert_eq!(report.dialled, None, "{name:?}: {report:?}");
        assert!(report.error.is_some(), "{name:?}: {report:?}");
    }
    assert!(hits.recv_timeout(Duration::from_millis(200)).is_err());
}
