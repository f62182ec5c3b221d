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
//! (Python 3.11, urllib3 2.8.0, requests 2.34.2, httpx 0.28.1 with httpcore
//! 1.0.9, aiohttp 3.14.5 with yarl 1.25.1, idna 3.20, Node 20.20, Go 1.19, libcurl 8.x vendored
//! in uridiff and Debian's 7.88 behind PHP 8.2, Ruby 3.1, Java 17; Debian's
//! Chromium 156.0.8078.108, driven by hand over its DevTools pipe from a
//! trap page answering 302).

use std::net::IpAddr;

use serde_json::Value;

use crate::util::uridiff;

/// Every client that reads the four examples below.
const CLIENTS: [&str; 17] = [
    "libcurl",
    "urllib3",
    "urllib.request",
    "requests",
    "httpx",
    "aiohttp",
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
    "chromium",
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
        "requests",
        "httpx",
        "aiohttp",
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
    // Chromium, redirected there, reads it as WHATWG does too.
    for client in ["node-http-new-url", "node-fetch", "chromium"] {
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

/// Headless Chromium is sent a trap page (on 127.0.255.254, port 80) that
/// answers `302 Found` with the input as its `Location`, and follows it:
/// the open-redirect fetcher. It reads the Location as a browser does
/// (WHATWG: backslashes as slashes, percent-decoded and numeric hosts
/// made IPv4 addresses, a relative reference resolved against the page),
/// where Go's net/http (RFC 3986) refuses each of the first three.
#[test]
fn chromium_follows_a_redirect_where_a_browser_reads_it() {
    let inputs = [
        "http://127.1/",
        "http:\\\\127.0.0.1\\",
        "http://%31%32%37.0.0.1/",
        "http://evil.example/x",
        "/same-site",
    ];
    let mut args = vec!["--client", "chromium", "--client", "go-net-http", "--"];
    args.extend(inputs);
    let lines = fetch(&args);
    assert_eq!(lines.len(), 2 * inputs.len());
    for input in &inputs[..3] {
        let l = line(&lines, "chromium", input);
        assert_eq!(l["address"], "127.0.0.1", "{l}");
        assert_eq!(l["port"], 80, "{l}");
        assert_eq!(l["host_header"], "127.0.0.1", "{l}");
        assert_eq!(l["request_target"], "/", "{l}");
        assert_eq!(l["redirects"], 0, "{l}");
        assert!(l["error"].is_null(), "{l}");
        assert!(l["resolved_name"].is_null(), "an address, no lookup: {l}");
        let go = line(&lines, "go-net-http", input);
        assert!(go["address"].is_null(), "{go}");
        assert!(go["error"].is_string(), "{go}");
    }
    assert!(
        line(&lines, "go-net-http", inputs[1])["error"]
            .as_str()
            .unwrap()
            .contains("no Host")
    );
    // A name: looked up through the namespace's own files (the DNS trap
    // sees it), dialled at its trap address.
    let l = line(&lines, "chromium", inputs[3]);
    assert_eq!(l["address"], "127.0.0.2", "{l}");
    assert_eq!(l["resolved_name"], "evil.example", "{l}");
    assert_eq!(l["host_header"], "evil.example", "{l}");
    assert_eq!(l["request_target"], "/x", "{l}");
    // A relative Location stays on the redirecting page's site.
    let l = line(&lines, "chromium", inputs[4]);
    assert_eq!(l["address"], "127.0.255.254", "{l}");
    assert_eq!(l["request_target"], "/same-site", "{l}");
}

/// The error of a line, which must have reached no trap.
fn refused<'a>(lines: &'a [Value], client: &str, input: &str) -> &'a str {
    let l = line(lines, client, input);
    assert!(l["address"].is_null(), "{l}");
    l["error"]
        .as_str()
        .unwrap_or_else(|| panic!("no error: {l}"))
}

/// The Python clients side by side. urllib3 and requests share urllib3's
/// `parse_url` (requests calls it in `PreparedRequest.prepare_url`), httpx
/// has its own parser (`httpx/_urlparse.py`), aiohttp reads with yarl; each
/// goes where it goes. Every answer here was first observed by calling the
/// library directly (`requests.Session().get`, `httpx.Client().get`,
/// `aiohttp.ClientSession().get`) in `unshare --net --mount` with only `lo`
/// up, a hosts file naming evil.example 127.0.0.2 and allowed.example
/// 127.0.0.3, and listeners on those addresses; the line numbers below are
/// those of the pinned versions (adapters/requirements.txt).
#[test]
fn requests_httpx_and_aiohttp_go_where_their_own_parsers_send_them() {
    let schemeless = "evil.example/";
    let encoded = "http://%31%32%37.0.0.1/";
    let encoded_name = "http://%65vil.example/";
    let no_host = "http:///evil.example/";
    let lines = python_clients(&[schemeless, encoded, encoded_name, no_host]);

    // Scheme-less: urllib3 alone adds http:// (parse_url leaves the scheme
    // None and PoolManager.connection_from_host takes http for it,
    // urllib3/poolmanager.py:313). requests refuses
    // first (requests/models.py:513-517, MissingSchema); httpx merges a URL
    // without a host onto its empty base_url (httpx/_client.py:397-410),
    // and httpcore refuses the empty scheme (httpcore/_sync/
    // connection_pool.py:206-209); aiohttp refuses a URL whose yarl
    // reading has no host (aiohttp/client.py:744). None of the three asks
    // the resolver anything.
    assert_eq!(line(&lines, "urllib3", schemeless)["address"], "127.0.0.2");
    let e = refused(&lines, "requests", schemeless);
    assert!(
        e.starts_with("MissingSchema:") && e.contains("No scheme supplied"),
        "{e}"
    );
    let e = refused(&lines, "httpx", schemeless);
    assert!(e.starts_with("UnsupportedProtocol:"), "{e}");
    let e = refused(&lines, "aiohttp", schemeless);
    assert!(e.starts_with("InvalidUrlClientError:"), "{e}");
    for client in ["requests", "httpx", "aiohttp"] {
        assert!(line(&lines, client, schemeless)["resolved_name"].is_null());
    }

    // A percent-encoded host: urllib3's parse_url decodes the escapes of
    // unreserved characters in a host (urllib3/util/url.py:392-393,
    // _normalize_host_percent_encoding at 415), and requests takes its host
    // from parse_url: both dial 127.0.0.1 and reach evil.example by
    // %65vil.example. httpx keeps the escapes in the host
    // (httpx/_urlparse.py:386, quote with '%' safe) and yarl too, so the
    // resolver gets "%31%32%37.0.0.1" and finds nothing.
    for client in ["urllib3", "requests"] {
        let l = line(&lines, client, encoded);
        assert_eq!(
            (&l["address"], &l["host_header"]),
            (&"127.0.0.1".into(), &"127.0.0.1".into()),
            "{l}"
        );
        let l = line(&lines, client, encoded_name);
        assert_eq!(
            (&l["address"], &l["resolved_name"], &l["host_header"]),
            (
                &"127.0.0.2".into(),
                &"evil.example".into(),
                &"evil.example".into()
            ),
            "{l}"
        );
    }
    for input in [encoded, encoded_name] {
        let e = refused(&lines, "httpx", input);
        assert!(e.contains("Name or service not known"), "{e}");
        let e = refused(&lines, "aiohttp", input);
        assert!(e.starts_with("ClientConnectorDNSError:"), "{e}");
        let host = input.trim_start_matches("http://").trim_end_matches('/');
        assert!(e.contains(&format!("host {host}:80")), "{e}");
    }

    // An empty authority: every Python client refuses (unlike libcurl and
    // WHATWG parsers, which skip the slashes, and Node's url.parse, which
    // falls back to localhost). requests: "No host supplied"
    // (requests/models.py:519-520); httpx and aiohttp as for the
    // scheme-less input (a URL with no host).
    for client in ["urllib3", "requests", "httpx", "aiohttp"] {
        refused(&lines, client, no_host);
    }
    assert!(refused(&lines, "requests", no_host).contains("No host supplied"));
    assert!(refused(&lines, "httpx", no_host).starts_with("UnsupportedProtocol:"));
    assert!(refused(&lines, "aiohttp", no_host).starts_with("InvalidUrlClientError:"));
}

/// urllib3, requests, httpx and aiohttp (one `uridiff fetch` run with
/// allowed.example mapped too): the lines, after checking that none
/// followed anything or sent twice.
fn python_clients(inputs: &[&str]) -> Vec<Value> {
    let mut args = vec!["--host", "allowed.example"];
    for client in ["urllib3", "requests", "httpx", "aiohttp"] {
        args.extend(["--client", client]);
    }
    args.extend(inputs);
    let lines = fetch(&args);
    assert_eq!(lines.len(), 4 * inputs.len());
    for l in &lines {
        assert_eq!(l["redirects"], 0, "{l}");
    }
    lines
}

/// The Python clients on number forms, IDNA and a backslash; observed as
/// for [`requests_httpx_and_aiohttp_go_where_their_own_parsers_send_them`].
#[test]
fn the_python_clients_read_number_forms_idna_and_backslashes_their_own_way() {
    let short = "http://127.1/";
    let hex = "http://0x7f.1/";
    let circled = "http://\u{2460}\u{2461}\u{2466}.\u{24ea}.\u{24ea}.\u{2460}/";
    let backslash = "http://evil.example\\@allowed.example/";
    let lines = python_clients(&[short, hex, circled, backslash]);

    // 127.1: urllib3, requests and httpx hand it to getaddrinfo, which
    // reads inet_aton's short form as 127.0.0.1 (httpx/_urlparse.py:154
    // reads only four dotted numbers as IPv4, so 127.1 is a name to it).
    // aiohttp refuses all-digit legacy forms before resolving
    // (aiohttp/connector.py:1108-1115, is_canonical_ipv4_address), but
    // its test for "looks like an address" is all digits and dots
    // (aiohttp/helpers.py:511): 0x7f.1 is a name to it, goes to
    // getaddrinfo, and reaches 127.0.0.1 all the same.
    for client in ["urllib3", "requests", "httpx"] {
        let l = line(&lines, client, short);
        assert_eq!(
            (&l["address"], &l["host_header"]),
            (&"127.0.0.1".into(), &"127.1".into()),
            "{l}"
        );
    }
    let e = refused(&lines, "aiohttp", short);
    assert!(e.contains("is not a canonical IPv4 address"), "{e}");
    for client in ["urllib3", "requests", "httpx", "aiohttp"] {
        let l = line(&lines, client, hex);
        assert_eq!(
            (&l["address"], &l["host_header"]),
            (&"127.0.0.1".into(), &"0x7f.1".into()),
            "{l}"
        );
    }

    // Circled digits: yarl maps the host with UTS #46 (yarl/_url.py:1639,
    // idna.encode(host, uts46=True)), so aiohttp dials 127.0.0.1 and says
    // so in Host; urllib3 (and so requests) encodes with IDNA 2008, strict
    // (urllib3/util/url.py:442-446), and httpx with idna.encode without
    // UTS #46 (httpx/_urlparse.py:389-392): both refuse.
    let l = line(&lines, "aiohttp", circled);
    assert_eq!(
        (&l["address"], &l["host_header"]),
        (&"127.0.0.1".into(), &"127.0.0.1".into()),
        "{l}"
    );
    for client in ["urllib3", "requests"] {
        let e = refused(&lines, client, circled);
        assert!(e.contains("is not a valid IDNA label"), "{client}: {e}");
    }
    assert!(refused(&lines, "httpx", circled).contains("Invalid IDNA hostname"));

    // A backslash before '@': urllib3's authority ends at it
    // (urllib3/util/url.py:23, [^\\/?#]*), so requests goes to
    // evil.example with the rest as its path; httpx's userinfo is anything
    // but '@' (httpx/_urlparse.py:146), so it goes to allowed.example;
    // yarl refuses a backslash in an authority (yarl/_parse.py:66) and
    // aiohttp with it.
    let l = line(&lines, "requests", backslash);
    assert_eq!(
        (&l["address"], &l["host_header"], &l["request_target"]),
        (
            &"127.0.0.2".into(),
            &"evil.example".into(),
            &"/%5C@allowed.example/".into()
        ),
        "{l}"
    );
    let l = line(&lines, "httpx", backslash);
    assert_eq!(
        (&l["address"], &l["resolved_name"], &l["host_header"]),
        (
            &"127.0.0.3".into(),
            &"allowed.example".into(),
            &"allowed.example".into()
        ),
        "{l}"
    );
    let e = refused(&lines, "aiohttp", backslash);
    assert!(e.starts_with("InvalidUrlClientError:"), "{e}");
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

/// Without Chromium on PATH the client is not run, and uridiff says what
/// to install (exit 2), as for any other client whose runtime is missing:
/// never a silent skip. PATH holds only node here (`ip` is found in
/// /usr/sbin or /sbin all the same).
#[test]
fn a_missing_chromium_is_said_with_its_install_command() {
    let node = std::process::Command::new("sh")
        .args(["-c", "command -v node"])
        .output()
        .unwrap();
    let node = String::from_utf8(node.stdout).unwrap();
    let dir = tempfile::tempdir().unwrap();
    std::os::unix::fs::symlink(node.trim(), dir.path().join("node")).unwrap();
    let out = std::process::Command::new(crate::util::BIN)
        .args(["fetch", "--json", "--client", "chromium", "http://127.1/"])
        .env("PATH", dir.path())
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(out.stdout.is_empty(), "nothing fetched");
    assert!(
        stderr.contains(
            "chromium: chromium not found on PATH; install it: apt-get install nodejs chromium"
        ),
        "{stderr}"
    );
}

/// An input holding a NUL byte (or a line end) is an answer, not a client
/// failure: PHP refuses it before libcurl sees it (a ValueError, which
/// ended the php-curl process before), and no Location header can carry
/// it to Chromium, so nothing is sent. The next input still goes through.
#[test]
fn an_input_with_a_nul_byte_is_an_error_of_its_own() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("inputs.txt");
    std::fs::write(&file, "http://a\0b/\nhttp://127.0.0.1/\n").unwrap();
    let lines = fetch(&[
        "--client",
        "php-curl",
        "--client",
        "chromium",
        "--file",
        file.to_str().unwrap(),
    ]);
    let l = line(&lines, "php-curl", "http://a\0b/");
    assert!(
        l["error"].as_str().unwrap().starts_with("ValueError: "),
        "{l}"
    );
    let l = line(&lines, "chromium", "http://a\0b/");
    assert!(
        l["error"].as_str().unwrap().contains("no Location header"),
        "{l}"
    );
    assert!(l["address"].is_null(), "{l}");
    for client in ["php-curl", "chromium"] {
        let l = line(&lines, client, "http://127.0.0.1/");
        assert_eq!(l["address"], "127.0.0.1", "{l}");
    }
}
