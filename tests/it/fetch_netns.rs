//! `uridiff fetch`: real clients in a network namespace whose only
//! interface is `lo`, observed by the traps and the DNS trap.
//!
//! These need root (CI runs as root: `unshare` works there), every
//! client's runtime (python3 with urllib3 in the cache, node, go, ruby,
//! php with its curl extension, java: scripts/setup-oracles.sh) and
//! iproute2. A missing one fails the test with what uridiff says about it
//! (the command that installs it), never skips.
//!
//! What each client does with the examples was checked by running
//! each client directly inside `unshare -n` with `lo` up and a hosts file
//! (Python 3.11, urllib3 2.8.0, Node 20.20, Go 1.19, libcurl 8.x vendored
//! in uridiff and Debian's 7.88 behind PHP 8.2, Ruby 3.1, Java 17).

use std::net::IpAddr;

use serde_json::Value;

use crate::util::uridiff;

/// Every client that reads the four examples below.
const CLIENTS: [&str; 13] = [
    "libcurl",
    "urllib3",
    "urllib.request",
    "node-http-url-parse",
    "node-http-new-url",
    "go-net-http",
    "node-fetch",
    "ruby-net-http",
    "ruby-open-uri",
    "php-file-get-contents",
    "php-curl",
    "java-httpclient",
    "java-httpurlconnection",
];

/// `uridiff fetch --json ARGS`: the lines, after checking that it ran
/// every client in the namespace (exit 0, mode namespace everywhere).
fn fetch(args: &[&str]) -> Vec<Value> {
    let mut all = vec!["fetch", "--json"];
    all.extend_from_slice(args);
    let out = uridiff(&all);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(
        out.status.code(),
        Some(0),
        "uridiff {all:?} did not run every client (this test needs root, iproute2 and every client's runtime: bash scripts/setup-oracles.sh): {stderr}"
    );
    let lines: Vec<Value> = String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    for line in &lines {
        assert_eq!(line["mode"], "namespace", "{line}");
    }
    lines
}

/// The line of `client` for `input`.
fn line<'a>(lines: &'a [Value], client: &str, input: &str) -> &'a Value {
    lines
        .iter()
        .find(|l| l["client"] == client && l["input"] == input)
        .unwrap_or_else(|| panic!("no line for {client} and {input:?}"))
}

fn loopback(value: &Value) -> bool {
    value
        .as_str()
        .and_then(|s| s.parse::<IpAddr>().ok())
        .is_some_and(|ip| ip.is_loopback())
}

/// Inside the namespace only `lo` exists: a TCP connect and a UDP send
/// (what a DNS query to a real server is) to a non-loopback address fail
/// with ENETUNREACH before any packet exists.
#[test]
fn the_namespace_has_only_loopback() {
    let out = uridiff(&["fetch", "--isolation"]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(
        out.status.code(),
        Some(0),
        "needs root and iproute2: {stderr}"
    );
    let seen: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(seen["interfaces"], serde_json::json!(["lo"]), "{seen}");
    // ENETUNREACH is 101 on Linux.
    assert_eq!(seen["tcp_connect_192.0.2.1"]["errno"], 101, "{seen}");
    assert_eq!(seen["udp_send_192.0.2.1:53"]["errno"], 101, "{seen}");
    assert_eq!(seen["isolated"], true);
}

/// Non-loopback addresses are unreachable for every client, and a name
/// the map lacks is asked of the DNS trap (observed) and fails: nothing
/// leaves.
#[test]
fn no_client_reaches_anything_but_loopback() {
    let inputs = [
        "http://192.0.2.1/",
        "http://[2001:db8::1]/",
        "http://unmapped.invalid/",
    ];
    let lines = fetch(&inputs);
    assert_eq!(lines.len(), CLIENTS.len() * inputs.len());
    for l in &lines {
        assert!(l["address"].is_null(), "{l}");
        assert!(l["error"].is_string(), "{l}");
    }
    // The resolvers that got as far as asking: the DNS trap saw the name.
    for client in [
        "libcurl",
        "urllib3",
        "urllib.request",
        "go-net-http",
        "node-fetch",
    ] {
        assert_eq!(
            line(&lines, client, "http://unmapped.invalid/")["resolved_name"],
            "unmapped.invalid"
        );
    }
}

#[test]
fn libcurl_and_urllib3_add_http_to_a_schemeless_input() {
    let lines = fetch(&[
        "--client",
        "libcurl",
        "--client",
        "urllib3",
        "evil.example/",
    ]);
    for client in ["libcurl", "urllib3"] {
        let l = line(&lines, client, "evil.example/");
        assert_eq!(l["address"], "127.0.0.2", "{l}");
        assert_eq!(l["port"], 80, "{l}");
        assert_eq!(l["resolved_name"], "evil.example", "{l}");
        assert_eq!(l["host_header"], "evil.example", "{l}");
        assert_eq!(l["request_target"], "/", "{l}");
        assert!(l["error"].is_null(), "{l}");
    }
}

#[test]
fn the_four_examples_go_where_the_clients_send_them() {
    let inputs = [
        "evil.example/",
        "http://%31%32%37.0.0.1/",
        "http://\u{2460}\u{2461}\u{2466}.\u{24ea}.\u{24ea}.\u{2460}/",
        "http:///evil.example/",
    ];
    let lines = fetch(&inputs);
    assert_eq!(lines.len(), CLIENTS.len() * inputs.len());
    for client in CLIENTS {
        for input in inputs {
            line(&lines, client, input);
        }
    }
    // urllib.request percent-decodes the host before it dials.
    let l = line(&lines, "urllib.request", inputs[1]);
    assert_eq!(
        (&l["address"], &l["host_header"]),
        (&"127.0.0.1".into(), &"127.0.0.1".into()),
        "{l}"
    );
    // Go's net/http maps the host with IDNA (UTS #46) after net/url
    // parsed it: the circled digits become 127.0.0.1.
    let l = line(&lines, "go-net-http", inputs[2]);
    assert_eq!(l["address"], "127.0.0.1", "{l}");
    assert!(l["resolved_name"].is_null(), "an address, not a name: {l}");
    // Go 1.19's net/url refuses a percent-encoded host.
    let l = line(&lines, "go-net-http", inputs[1]);
    assert!(
        l["error"].as_str().unwrap().contains("invalid URL escape"),
        "{l}"
    );
    // Node's http.get(url.parse(u)): no host, so Node's default,
    // localhost, resolved and dialled; the rest of the input becomes the
    // request target.
    let l = line(&lines, "node-http-url-parse", inputs[3]);
    assert_eq!(l["resolved_name"], "localhost", "{l}");
    assert_eq!(l["host_header"], "localhost", "{l}");
    assert_eq!(l["request_target"], "/evil.example/", "{l}");
    assert!(loopback(&l["address"]), "{l}");
    let l = line(&lines, "node-http-url-parse", inputs[0]);
    assert_eq!(
        (&l["resolved_name"], &l["request_target"]),
        (&"localhost".into(), &"evil.example/".into()),
        "{l}"
    );
    // libcurl skips the empty authority: evil.example is the host.
    let l = line(&lines, "libcurl", inputs[3]);
    assert_eq!(l["address"], "127.0.0.2", "{l}");
    assert_eq!(l["host_header"], "evil.example", "{l}");
    // The same input, other readings: WHATWG (Ada: Node's URL, undici)
    // also skips the slashes; urllib3, Go and Java refuse.
    for client in ["node-http-new-url", "node-fetch"] {
        assert_eq!(line(&lines, client, inputs[3])["address"], "127.0.0.2");
    }
    for client in ["urllib3", "go-net-http", "urllib.request"] {
        assert!(line(&lines, client, inputs[3])["address"].is_null());
    }
    // PHP's curl extension (Debian's libcurl, with libidn2) maps the
    // circled digits too; uridiff's vendored libcurl has no IDN support
    // and fails to resolve them.
    assert_eq!(line(&lines, "php-curl", inputs[2])["address"], "127.0.0.1");
    let l = line(&lines, "libcurl", inputs[2]);
    assert!(l["address"].is_null(), "{l}");
}

/// The port the client chooses is the one observed: traps listen on every
/// port an input names.
#[test]
fn the_port_is_the_clients_own() {
    let lines = fetch(&[
        "--client",
        "libcurl",
        "--client",
        "go-net-http",
        "http://evil.example:8081/x",
    ]);
    for l in &lines {
        assert_eq!(
            (&l["address"], &l["port"]),
            (&"127.0.0.2".into(), &8081.into()),
            "{l}"
        );
        assert_eq!(l["host_header"], "evil.example:8081", "{l}");
        assert_eq!(l["request_target"], "/x", "{l}");
    }
}

/// --guard: the clients' own guards instead of the namespace; the
/// unguarded clients are not run, and asking for one is an error.
#[test]
fn the_guard_mode_says_so_and_runs_only_guarded_clients() {
    let out = uridiff(&[
        "fetch",
        "--json",
        "--guard",
        "--client",
        "urllib3",
        "evil.example/",
    ]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    let l: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(l["mode"], "guard");
    assert_eq!(l["address"], "127.0.0.2");
    // The guard forces the port: none is observed.
    assert!(l["port"].is_null());
    let out = uridiff(&[
        "fetch",
        "--guard",
        "--client",
        "node-fetch",
        "http://evil.example/",
    ]);
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("node-fetch") && stderr.contains("network namespace"),
        "{stderr}"
    );
}
